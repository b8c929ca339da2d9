import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Article, ArticleState, ArticleUpload, ARTICLE_UPLOAD_MAX_BYTES } from '../../../lib/api/schemas/article.js';
import { IdParam } from '../../../lib/api/schemas/common.js';
import { parseHttpUrl } from '../../../lib/api/url.js';
import { ApiError, badRequest, notFound } from '../../errors.js';
import { ARTICLE_TEXT_MAX_CHARS } from '../../services/parse/article-text.js';
import { errorReplies } from '../error-replies.js';
import { clientGone, refusalAsApiError } from '../parse-pool-replies.js';

/** JSON escaping (quotes, backslashes, control characters) makes a body longer than the page it carries. */
const BODY_LIMIT = ARTICLE_UPLOAD_MAX_BYTES + ARTICLE_UPLOAD_MAX_BYTES / 4 + 64 * 1024;

const tooLarge = () =>
  new ApiError(
    413,
    `The page is larger than ${ARTICLE_UPLOAD_MAX_BYTES / 1024 / 1024} MB of HTML and was not stored. Its text can still be fetched by the server: use retry.`,
  );

/** A saved page's readable text: GET/PUT /bookmark/{id}/article and POST /bookmark/{id}/article/retry. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, permissions } = app;

  app.get(
    '/bookmark/:id/article',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['Bookmarks'],
        summary: 'Beyond the spec: the readable text of the saved page (for the reader view), with the state of its extraction',
        description:
          'Readable by whoever may read the bookmark. `status`: indexed (text searchable), pending (waiting for the ' +
          'server to fetch it), failed (`error` says why; the server retries with backoff), none (no text: an image ' +
          `or binary file). Text is capped at ${ARTICLE_TEXT_MAX_CHARS.toLocaleString('en')} characters (\`truncated\`).`,
        params: IdParam,
        response: { 200: Article, ...errorReplies(401, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await permissions.requireBookmark(request.userId, id, 'read');
      const row = await repos.articles.get(id);
      if (!row) throw notFound();
      return {
        result: true as const,
        status: row.status,
        error: row.error,
        title: row.title,
        byline: row.byline,
        siteName: row.site_name,
        html: row.html,
        text: row.text,
        length: row.length,
        truncated: row.truncated === 1,
        ...(row.page_count !== null ? { pageCount: row.page_count } : {}),
        source: row.source,
        updated: row.updated_at ?? '',
      };
    },
  );

  app.put(
    '/bookmark/:id/article',
    {
      bodyLimit: BODY_LIMIT,
      // A too-long `html` is answered 413 like a too-large body, not 400 (see the handler).
      attachValidation: true,
      schema: {
        tags: ['Bookmarks'],
        summary: "Beyond the spec, for the extension: the page as the browser shows it, serialised; its readable text replaces the bookmark's",
        description:
          `\`html\` is at most ${ARTICLE_UPLOAD_MAX_BYTES / 1024 / 1024} MB (413 beyond). The article is extracted ` +
          '(Readability), sanitised and indexed before the answer; text from the extension is not replaced by the ' +
          "server's own fetch. Answers the new state.",
        params: IdParam,
        body: ArticleUpload,
        response: { 200: ArticleState, ...errorReplies(400, 403, 404, 413, 422) },
      },
    },
    async (request, reply) => {
      const invalid = request.validationError;
      if (invalid) {
        const tooLong = (invalid.validation as { keyword: string; instancePath: string }[]).some((v) => v.keyword === 'maxLength' && v.instancePath === '/html');
        throw tooLong ? tooLarge() : invalid;
      }
      const { id } = request.params;
      const userId = request.userId!;
      const { html, url } = request.body;
      if (Buffer.byteLength(html, 'utf8') > ARTICLE_UPLOAD_MAX_BYTES) throw tooLarge();
      if (!parseHttpUrl(url)) throw badRequest('url must be the http(s) address the page was serialised at.');
      const signal = clientGone(request, reply);
      await permissions.requireBookmark(userId, id, 'write');
      const extracted = await app.services.parsePool.run(userId, 'article-text', { html, url: url.trim() }, { signal }).catch((error: unknown) => {
        throw refusalAsApiError(error);
      });
      if (!(await repos.articles.store(id, extracted, 'extension'))) throw notFound();
      return { result: true as const, status: 'indexed' as const, error: '' };
    },
  );

  app.post(
    '/bookmark/:id/article/retry',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: "Beyond the spec: fetch the page's text again on the server (after a failure, or to refresh it)",
        description: 'Marks the text pending; the server fetches it soon. Text already stored stays searchable meanwhile.',
        params: IdParam,
        response: { 200: ArticleState, ...errorReplies(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await permissions.requireBookmark(request.userId!, id, 'write');
      await repos.articles.markPending([id]);
      const state = (await repos.articles.states([id])).get(id);
      if (!state) throw notFound();
      return { result: true as const, ...state };
    },
  );
};
export default routes;
