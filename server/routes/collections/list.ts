import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Collection } from '../../../lib/api/schemas/collection.js';
import { ItemsEnvelope } from '../../../lib/api/schemas/common.js';
import { collectionRecords } from './records.js';

const tags = ['collections'];

/** GET /collections (root collections) and GET /collections/childrens (all nested ones). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/collections',
    {
      schema: {
        tags,
        summary: 'Root collections of the caller, by sort descending, then collections shared with the caller',
        description:
          'Collections other users shared with the caller follow the caller\'s own roots: each topmost shared collection ' +
          '(one whose parent the caller cannot see) appears here without `parent`; the collections below it are in ' +
          '/collections/childrens. Their `user.$id` is the owner and `access.level` the caller\'s role (3 member, 2 viewer).',
        response: { 200: ItemsEnvelope(Collection) },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const own = await collectionRecords(app, request, await app.repos.collections.roots(userId));
      const shared = await collectionRecords(app, request, await app.repos.collections.sharedWith(userId));
      return { result: true as const, items: [...own, ...shared.filter((c) => c.parent === undefined)] };
    },
  );

  app.get(
    '/collections/childrens',
    {
      schema: {
        tags,
        summary: 'Nested collections of the caller (any depth), by sort descending, then those inside collections shared with the caller',
        response: { 200: ItemsEnvelope(Collection) },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const own = await collectionRecords(app, request, await app.repos.collections.children(userId));
      const shared = await collectionRecords(app, request, await app.repos.collections.sharedWith(userId));
      return { result: true as const, items: [...own, ...shared.filter((c) => c.parent !== undefined)] };
    },
  );
};
export default routes;
