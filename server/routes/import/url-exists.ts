import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Duplicate checks: POST and GET /import/url/exists. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
