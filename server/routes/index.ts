import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import bookmark from './bookmark/index.js';
import bookmarksBulk from './bookmarks/bulk.js';
import bookmarksList from './bookmarks/list.js';
import collections from './collections/index.js';
import bookmarksExport from './export/index.js';
import highlights from './highlights/index.js';
import links from './links/index.js';
import urlExists from './import/url-exists.js';
import importFile from './import/file.js';
import urlParse from './import/parse.js';
import files from './files/index.js';
import sharing from './sharing/index.js';
import tags from './tags/index.js';
import user from './user/index.js';
import userConnect from './user/connect.js';

/** Every route of the REST API, mounted under /rest/v1. */
const api: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(user);
  await app.register(userConnect);
  await app.register(collections);
  await app.register(bookmark);
  await app.register(bookmarksBulk);
  await app.register(bookmarksList);
  await app.register(bookmarksExport);
  await app.register(highlights);
  await app.register(tags);
  await app.register(urlExists);
  await app.register(links);
  await app.register(importFile);
  await app.register(urlParse);
  await app.register(files);
  await app.register(sharing);
};
export default api;
