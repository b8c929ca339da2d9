import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** User routes: GET/PUT /user, GET /user/{id}, GET /user/stats. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
