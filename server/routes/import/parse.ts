import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ParseResponse } from '../../../lib/api/schemas/import.js';
import { parseUrl } from '../../services/parse/index.js';
import { errorReplies } from '../error-replies.js';
import { clientGone } from '../parse-pool-replies.js';

/** GET /import/url/parse: fetch and describe a page. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/import/url/parse',
    {
      config: { bucket: 'small' },
      schema: {
        tags: ['Import'],
        summary:
          'Fetch a page server-side and describe it: title, excerpt, media, type, meta. Failures still answer result true, with error, errorMessage and the fallback item',
        description:
          'Only public http(s) addresses are fetched (checked after DNS and on every redirect); at most 5 redirects, 10 s and 5 MB. ' +
          'Pages nested more than 512 levels deep answer errorMessage too_deep.',
        querystring: Type.Object({ url: Type.Optional(Type.String({ maxLength: 8192 })) }),
        response: { 200: ParseResponse, ...errorReplies(400) },
      },
    },
    async (request, reply) => {
      const url = request.query.url ?? '';
      const signal = clientGone(request, reply);
      const { detail, ...answer } = await parseUrl(url, {
        allowPrivateNetwork: app.config.allowPrivateNetwork,
        timeoutMs: app.config.fetchTimeoutMs,
        signal,
        extract: (html, pageUrl, contentType) =>
          app.services.parsePool.run(request.userId!, 'page-metadata', { html, url: pageUrl, contentType }, { signal }),
      });
      // `detail` says in words what went wrong (which address was refused, ...): for the log only.
      if (answer.error) request.log.info({ url, errorMessage: answer.errorMessage, detail }, 'page could not be parsed');
      return answer;
    },
  );
};
export default routes;
