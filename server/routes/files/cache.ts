import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Bookmark } from '../../../lib/api/schemas/bookmark.js';
import { IdParam, ItemEnvelope } from '../../../lib/api/schemas/common.js';
import { parseHttpUrl } from '../../../lib/api/url.js';
import { ApiError, badRequest, notFound } from '../../errors.js';
import { contentDisposition } from '../../services/files/names.js';
import { storePageCopy } from '../../services/files/page-copies.js';
import { sniffFile } from '../../services/files/sniff.js';
import { fileContext, secureFileHeaders } from './context.js';
import { readMultipart } from './multipart.js';
import { errorReplies } from '../error-replies.js';
import { clientGone, refusalAsApiError } from '../parse-pool-replies.js';

// A copy runs nothing (the sanitiser removed scripts; the sandbox forbids them again) and may load
// the page's images, styles and fonts from the web, as the original did. Its links open the live
// pages in new tabs (the copy's <base target>), which the sandbox must let out unsandboxed.
const COPY_CSP =
  "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline' http: https:; font-src data: http: https:; media-src http: https:";

const errors = errorReplies(400, 403, 404, 413, 422);

const notPro = () =>
  new ApiError(
    403,
    'Permanent copies are part of the Pro plan. Upgrade to Pro to keep and open copies of the pages you save.',
    { error: 'pro_required' },
  );

/** GET /bookmark/{id}/cache (the permanent copy, paid plan) and PUT /bookmark/{id}/cache (the extension's captured copy). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { files, store } = fileContext(app);

  const requirePro = async (userId: number) => {
    const user = await app.repos.users.byId(userId);
    if (!user?.pro) throw notPro();
  };

  app.get(
    '/bookmark/:id/cache',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: 'The permanent copy of the bookmark\'s page (Pro only): sanitised HTML, nothing in it runs',
        description: '403 for users without Pro; 404 when no copy has been made (yet).',
        params: IdParam,
        response: errorReplies(403, 404),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const userId = request.userId!;
      await app.permissions.requireBookmark(userId, id, 'read');
      await requirePro(userId);
      const copy = await files.cacheOf(id);
      if (!copy) {
        throw notFound(
          'This bookmark has no permanent copy yet. Copies are made in the background after saving; try again in a minute, or save the page again.',
        );
      }
      const stream = await store.open(copy.path);
      if (!stream) throw notFound('The permanent copy is missing from storage. Ask for a new one with pleaseParse.');
      secureFileHeaders(reply, {
        contentType: 'text/html; charset=utf-8',
        disposition: contentDisposition('inline', `copy-${id}.html`),
        csp: COPY_CSP,
      });
      reply.header('content-length', String(copy.size));
      reply.header('cache-control', 'private, no-cache');
      reply.header('etag', `"${copy.sha256}"`);
      reply.header('last-modified', new Date(copy.created).toUTCString());
      reply.header('x-copy-source', copy.source);
      reply.header('x-copy-url', encodeURI(copy.page_url));
      return reply.send(stream);
    },
  );

  app.put(
    '/bookmark/:id/cache',
    {
      schema: {
        tags: ['Bookmarks'],
        summary:
          'Beyond the spec, for the extension: upload the page as the browser saw it (multipart part `cache`, HTML; optional field `url` for the address it was captured from). Pro only; sanitised here',
        description: 'An uploaded copy replaces the server\'s own and is not overwritten by later background copies.',
        params: IdParam,
        consumes: ['multipart/form-data'],
        response: { 200: ItemEnvelope(Bookmark), ...errors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const userId = request.userId!;
      const signal = clientGone(request, reply);
      const access = await app.permissions.requireBookmark(userId, id, 'write');
      await requirePro(userId);
      const limit = app.config.uploads.cacheMaxBytes;
      const { file, fields } = await readMultipart<Buffer>(request, {
        partName: 'cache',
        what: 'page copy',
        maxBytes: limit,
        fieldNames: ['url'],
      });
      const kind = sniffFile(file.content.subarray(0, 4096));
      if (kind.mime !== 'text/html' && kind.mime !== 'application/xml' && kind.mime !== 'text/plain') {
        throw badRequest('The page copy must be the page\'s HTML (text), not a binary file. Send the serialised document.');
      }
      const bookmark = await app.repos.bookmarks.get(id);
      if (!bookmark) throw notFound();
      const pageUrl = fields.url && parseHttpUrl(fields.url) ? fields.url.trim() : bookmark.link;
      // Decoded, checked for depth and sanitised in the parse pool; the bytes move there uncopied.
      const bytes = new Uint8Array(file.content.byteLength);
      bytes.set(file.content);
      const html = await app.services.parsePool
        .run(userId, 'archive-copy', { html: { bytes, contentType: file.mimetype }, baseUrl: pageUrl }, { signal, transfer: [bytes.buffer] })
        .catch((error: unknown) => {
          throw refusalAsApiError(error);
        });
      const saved = await storePageCopy(store, files, { bookmarkId: id, userId: access.ownerId, html, pageUrl, source: 'upload' });
      if (!saved) throw notFound();
      return { result: true as const, item: { ...bookmark, cache: { status: 'ready', size: saved.size } } };
    },
  );
};
export default routes;
