import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** GET /import/url/parse: fetch and describe a page. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
