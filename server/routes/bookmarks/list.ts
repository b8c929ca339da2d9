import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Bookmark listing and search: GET /bookmarks/{collectionId}. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
