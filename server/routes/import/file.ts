import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** POST and PUT /import/file: convert a bookmark export to JSON. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
