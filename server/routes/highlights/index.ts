import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Highlight listings: GET /highlights and /highlights/{collectionId}. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
