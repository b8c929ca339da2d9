import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Collection routes: the spec's Collections table. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
