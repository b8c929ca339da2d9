import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Tag routes: list, rename, merge, remove, suggest. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
