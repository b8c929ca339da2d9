import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ALL_COLLECTIONS, LIMITS, TRASH, UNSORTED } from '../../../lib/api/constants.js';
import { BookmarkList, BookmarkListQuery } from '../../../lib/api/schemas/index.js';
import type { BookmarkScope } from '../../repositories/bookmark-queries.js';

/** Bookmark listing and search: GET /bookmarks/{collectionId}. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookmarks/:collectionId',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['Bookmarks'],
        summary: 'List and search the bookmarks of a collection',
        description:
          'collectionId 0 lists all bookmarks except Trash, -1 Unsorted, -99 Trash. `search` takes the search ' +
          'expression; `perpage` defaults to 25 and is capped at 50; a page past the end answers `items: []`.',
        params: Type.Object({ collectionId: Type.Integer() }),
        querystring: BookmarkListQuery,
        response: { 200: BookmarkList },
      },
    },
    async (request) => {
      const { collectionId } = request.params;
      const access = await app.permissions.requireCollection(request.userId, collectionId, 'read');
      const q = request.query;
      const perpage = Math.min(q.perpage ?? LIMITS.perPageDefault, LIMITS.perPageMax);

      let scope: BookmarkScope;
      if (collectionId === ALL_COLLECTIONS) {
        const userId = access.ownerId;
        scope = {
          kind: 'user',
          userId,
          includeTrash: false,
          sharedCollectionIds: await app.permissions.sharedCollectionIds(userId),
        };
      } else if (collectionId === UNSORTED || collectionId === TRASH) {
        scope = { kind: 'system', userId: access.ownerId, collectionId };
      } else {
        const ids = q.nested ? await app.repos.bookmarkQueries.withDescendants(collectionId) : [collectionId];
        scope = { kind: 'collections', collectionIds: ids };
      }

      const { items, count } = await app.repos.bookmarkQueries.list(scope, {
        search: q.search,
        sort: q.sort,
        page: q.page ?? 0,
        perpage,
      });
      return { result: true as const, items, count, collectionId };
    },
  );
};
export default routes;
