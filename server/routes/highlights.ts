import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ALL_COLLECTIONS, LIMITS } from '../../lib/api/constants.js';
import { HighlightListItem, ItemsEnvelope, PagingQuery } from '../../lib/api/schemas/index.js';
import { bookmarkScope } from './bookmark-scope.js';
import { CollectionIdParam } from '../../lib/api/schemas/common.js';

/** Highlight listings: GET /highlights and /highlights/{collectionId}. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const list = async (userId: number | null, collectionId: number, query: { page?: number; perpage?: number }) => {
    const access = await app.permissions.requireCollection(userId, collectionId, 'read');
    const scope = await bookmarkScope(app, access, { shared: true });
    const perpage = Math.min(query.perpage ?? LIMITS.perPageDefault, LIMITS.perPageMax);
    const items = await app.repos.highlights.list(scope, query.page ?? 0, perpage);
    return { result: true as const, items };
  };

  const schema = {
    tags: ['Highlights'],
    querystring: PagingQuery,
    response: { 200: ItemsEnvelope(HighlightListItem) },
  };

  app.get(
    '/highlights',
    {
      schema: {
        ...schema,
        summary: 'All highlights, newest first',
        description: 'Highlights on all bookmarks except those in Trash. `perpage` defaults to 25, at most 50.',
      },
    },
    async (request) => list(request.userId, ALL_COLLECTIONS, request.query),
  );

  app.get(
    '/highlights/:collectionId',
    {
      schema: {
        ...schema,
        summary: 'Highlights in one collection, newest first',
        description: '0 = all (except Trash), -1 Unsorted, -99 Trash.',
        params: CollectionIdParam,
      },
    },
    async (request) => list(request.userId, request.params.collectionId, request.query),
  );
};
export default routes;
