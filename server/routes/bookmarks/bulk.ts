import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ALL_COLLECTIONS, LIMITS, TRASH } from '../../../lib/api/constants.js';
import { Bookmark, BookmarksBulkRemove, BookmarksBulkUpdate, BookmarksCreate } from '../../../lib/api/schemas/bookmark.js';
import { CollectionIdParam, ItemsEnvelope, ModifiedEnvelope } from '../../../lib/api/schemas/common.js';
import { ApiError, badRequest, idsTooMany } from '../../errors.js';
import type { BulkChanges } from '../../repositories/index.js';
import { cleanTags, moveTarget, readBulkCover } from '../../services/bookmarks/input.js';
import { errorReplies } from '../error-replies.js';

const errors = errorReplies(400, 403, 404, 413);

const SearchQuery = Type.Object({ search: Type.Optional(Type.String({ maxLength: 2000 })) });

/** Versioning: bulk update and remove do not support collectionId 0 yet. */
function refuseAll(collectionId: number): void {
  if (collectionId === ALL_COLLECTIONS) {
    throw badRequest('bulk update does not support collectionId 0 yet: use a collection id, -1 or -99');
  }
}

/** `ids`, when sent, must hold 1..100 ids (observed-behaviour.md: 413 otherwise). */
function checkIds(ids: number[] | undefined): void {
  if (ids !== undefined && (ids.length === 0 || ids.length > LIMITS.idsMax)) throw idsTooMany();
}

/** Bulk bookmark writes: POST /bookmarks, PUT and DELETE /bookmarks/{collectionId}. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, permissions } = app;

  // DELETE (and PUT) may come without a body: read that as `{}` so the body schema applies.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'DELETE' || request.method === 'PUT')) request.body = {};
  });

  const targets = async (userId: number, collectionId: number, ids: number[] | undefined, search: string | undefined) => {
    refuseAll(collectionId);
    checkIds(ids);
    const access = await permissions.requireCollection(userId, collectionId, 'write');
    const found = await repos.bookmarks.bulkTargets({ ownerId: access.ownerId, collectionId, ids, search });
    return { access, ids: found };
  };

  app.post(
    '/bookmarks',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: `Create up to ${LIMITS.bulkItemsMax} bookmarks at once; answers them in the order sent`,
        body: BookmarksCreate,
        response: { 200: ItemsEnvelope(Bookmark), ...errors },
      },
      // Refuse oversized batches before validating 101+ items.
      preValidation: async (request) => {
        const items = (request.body as { items?: unknown } | undefined)?.items;
        if (Array.isArray(items) && items.length > LIMITS.bulkItemsMax) {
          throw new ApiError(
            413,
            `items holds ${items.length} bookmarks; at most ${LIMITS.bulkItemsMax} can be created per request: split them into batches`,
          );
        }
      },
    },
    async (request) => {
      const ids = await app.services.bookmarkCreation.create(request.userId!, request.body.items, (i) => `items.${i}.`);
      return { result: true as const, items: await repos.bookmarks.getMany(ids) };
    },
  );

  app.put(
    '/bookmarks/:collectionId',
    {
      schema: {
        tags: ['Bookmarks'],
        summary:
          'Update many bookmarks of a collection (all, or those in `ids` and/or matching `search`): important, tags and media (appended; [] clears), cover, collection (move)',
        params: CollectionIdParam,
        querystring: SearchQuery,
        body: BookmarksBulkUpdate,
        response: { 200: ModifiedEnvelope, ...errors },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { collectionId } = request.params;
      const body = request.body;
      const changes: BulkChanges = {};
      if (body.important !== undefined) changes.important = body.important;
      if (body.tags !== undefined) changes.tags = cleanTags(body.tags);
      if (body.media !== undefined) changes.media = body.media;
      if (body.cover !== undefined) changes.cover = readBulkCover(body.cover);
      refuseAll(collectionId);
      const to = moveTarget(body);
      if (Object.keys(changes).length === 0 && to === undefined) {
        throw badRequest('nothing to update: send important, tags, media, cover or collection');
      }
      const { access, ids } = await targets(userId, collectionId, body.ids, request.query.search);
      let moveAccess: { ownerId: number } | undefined;
      if (to !== undefined && to !== collectionId) {
        moveAccess = await permissions.requireMoveTarget(userId, to, access.ownerId);
        changes.move = { collectionId: to, ownerId: moveAccess.ownerId };
      }
      const modified = await repos.bookmarks.bulkUpdate(ids, access.ownerId, changes);
      if (modified > 0) {
        await repos.users.touchBookmarks(access.ownerId);
        if (moveAccess && moveAccess.ownerId !== access.ownerId) await repos.users.touchBookmarks(moveAccess.ownerId);
      }
      return { result: true as const, modified };
    },
  );

  app.delete(
    '/bookmarks/:collectionId',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: 'Move bookmarks of a collection (all, or those in `ids` and/or matching `search`) to Trash; from -99 they are removed for good',
        params: CollectionIdParam,
        querystring: SearchQuery,
        body: BookmarksBulkRemove,
        response: { 200: ModifiedEnvelope, ...errors },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { collectionId } = request.params;
      const { access, ids } = await targets(userId, collectionId, request.body.ids, request.query.search);
      const modified = await repos.bookmarks.bulkRemove(ids, access.ownerId, collectionId === TRASH);
      if (modified > 0) await repos.users.touchBookmarks(access.ownerId);
      return { result: true as const, modified };
    },
  );
};
export default routes;
