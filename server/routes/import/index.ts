import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import file from './file.js';
import parse from './parse.js';
import urlExists from './url-exists.js';

/** Import routes: duplicate checks, importing a file, and reading a page by its URL. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(urlExists);
  await app.register(file);
  await app.register(parse);
};
export default routes;
