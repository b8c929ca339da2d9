import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import cache from './cache.js';
import covers from './covers.js';
import serve from './serve.js';
import uploadFile from './upload-file.js';

/**
 * Uploads and stored files: PUT /bookmark/file, bookmark and collection covers, GET and PUT
 * /bookmark/{id}/cache, and file serving. Multipart parsing is registered here, for these routes only.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart);
  await app.register(uploadFile);
  await app.register(covers);
  await app.register(cache);
  await app.register(serve);
};
export default routes;
