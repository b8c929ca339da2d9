import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** GET /user/connect/{provider} and /user/connect/{provider}/revoke. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
