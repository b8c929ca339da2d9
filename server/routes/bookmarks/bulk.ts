import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Bulk bookmark writes: POST /bookmarks, PUT and DELETE /bookmarks/{collectionId}. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
