import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Collection } from '../../../lib/api/schemas/collection.js';
import { ItemsEnvelope } from '../../../lib/api/schemas/common.js';
import { collectionRecords } from './records.js';

const tags = ['collections'];

/** GET /collections (root collections) and GET /collections/childrens (all nested ones). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/collections',
    { schema: { tags, summary: 'Root collections of the caller, by sort descending', response: { 200: ItemsEnvelope(Collection) } } },
    async (request) => {
      const rows = await app.repos.collections.roots(request.userId!);
      return { result: true as const, items: await collectionRecords(app, request.userId, rows) };
    },
  );

  app.get(
    '/collections/childrens',
    {
      schema: {
        tags,
        summary: 'Nested collections of the caller (any depth), by sort descending',
        response: { 200: ItemsEnvelope(Collection) },
      },
    },
    async (request) => {
      const rows = await app.repos.collections.children(request.userId!);
      return { result: true as const, items: await collectionRecords(app, request.userId, rows) };
    },
  );
};
export default routes;
