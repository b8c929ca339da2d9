import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import bookmarks from './bookmarks/index.js';
import collections from './collections/index.js';
import files from './files/index.js';
import highlights from './highlights.js';
import importRoutes from './import/index.js';
import links from './links.js';
import sharing from './sharing/index.js';
import tags from './tags.js';
import user from './user/index.js';

/**
 * Every route of the REST API, mounted under /rest/v1. A resource with several kinds of route has a
 * folder (its index.ts registers the files, each named for what it serves); one with a single file
 * of routes is that file.
 */
const api: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(user);
  await app.register(collections);
  await app.register(bookmarks);
  await app.register(highlights);
  await app.register(tags);
  await app.register(links);
  await app.register(importRoutes);
  await app.register(files);
  await app.register(sharing);
};
export default api;
