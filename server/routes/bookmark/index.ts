import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Single bookmark routes: GET/POST/PUT/DELETE /bookmark. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
