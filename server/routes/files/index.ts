import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Uploads and stored files: PUT /bookmark/file, bookmark and collection covers, GET /bookmark/{id}/cache, file serving. */
const routes: FastifyPluginAsyncTypebox = async (_app) => {};
export default routes;
