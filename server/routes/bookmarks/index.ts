import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import article from './article.js';
import bulk from './bulk.js';
import exportFile from './export.js';
import item from './item.js';
import list from './list.js';

/** Bookmark routes: one bookmark (/bookmark), many at once, listing and search, and export. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(item);
  await app.register(bulk);
  await app.register(list);
  await app.register(exportFile);
  await app.register(article);
};
export default routes;
