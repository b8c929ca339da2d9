import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS } from '../../../lib/api/constants.js';
import { BookmarkList, BookmarkListQuery } from '../../../lib/api/schemas/index.js';
import { ApiError } from '../../errors.js';
import { bookmarkScope } from '../bookmark-scope.js';
import { withArticleFields } from './article-fields.js';
import { CollectionIdParam } from '../../../lib/api/schemas/common.js';

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
        params: CollectionIdParam,
        querystring: BookmarkListQuery,
        response: { 200: BookmarkList },
      },
    },
    async (request) => {
      const { collectionId } = request.params;
      const access = await app.permissions.requireCollection(request.userId, collectionId, 'read');
      const q = request.query;
      const perpage = Math.min(q.perpage ?? LIMITS.perPageDefault, LIMITS.perPageMax);

      const scope = await bookmarkScope(app, access, { shared: true, nested: q.nested, userId: request.userId });
      // The client gave up while this request waited behind others (a search typed further replaced
      // it): nobody will read the answer, so the query is not run.
      if (request.raw.socket?.destroyed) throw new ApiError(408, 'The client closed the request before it was answered.');
      const { items, count } = await app.repos.bookmarkQueries.list(scope, {
        search: q.search,
        sort: q.sort,
        page: q.page ?? 0,
        perpage,
      });
      return { result: true as const, items: await withArticleFields(app.repos, items, q.search), count, collectionId };
    },
  );
};
export default routes;
