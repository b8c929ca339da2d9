import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS, UNSORTED } from '../../../lib/api/constants.js';
import {
  CollectionsCleanResult,
  CollectionsMerge,
  CollectionsRemove,
  CollectionsReorder,
  CollectionsReorderQuery,
} from '../../../lib/api/schemas/collection.js';
import { ModifiedEnvelope, OkEnvelope } from '../../../lib/api/schemas/common.js';
import { badRequest, idsTooMany } from '../../errors.js';
import { isSystemCollection, systemCollection } from './records.js';

const tags = ['collections'];

/** A missing body reads as `{}`, so validation names the missing field (and PUT /collections?expanded= works alone). */
const emptyBodyAsObject = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** 1..100 distinct ids, none of them a system collection. */
function checkIds(ids: number[], what: string): number[] {
  if (ids.length === 0 || ids.length > LIMITS.idsMax) throw idsTooMany();
  const system = ids.find((id) => id <= 0);
  if (system !== undefined) throw isSystemCollection(system) ? systemCollection(system, what) : badRequest(`body.ids: ${system} is not a collection id.`);
  return [...new Set(ids)];
}

/** Operations on many collections: remove, reorder or expand all, merge, clean. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.delete(
    '/collections',
    {
      schema: {
        tags,
        summary: 'Remove the listed collections (bookmarks go to Trash)',
        description:
          'Nested collections that are not listed are kept and move up to their nearest surviving ancestor (or the root). ' +
          '`modified` is the number of collections removed.',
        body: CollectionsRemove,
        response: { 200: ModifiedEnvelope },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request) => {
      const userId = request.userId!;
      const ids = checkIds(request.body.ids, 'removed');
      // Check every id before touching anything: one foreign or unknown id and nothing is removed.
      const owners = new Set<number>();
      for (const id of ids) owners.add((await app.permissions.requireCollection(userId, id, 'owner')).ownerId);
      const { collections, bookmarksMoved } = await app.repos.collections.removeListed(ids);
      if (bookmarksMoved > 0) for (const owner of owners) await app.repos.users.touchBookmarks(owner);
      return { result: true as const, modified: collections };
    },
  );

  app.put(
    '/collections',
    {
      schema: {
        tags,
        summary: 'Reorder all collections (`sort`) and/or expand or collapse all (`expanded`, body or query)',
        querystring: CollectionsReorderQuery,
        body: CollectionsReorder,
        response: { 200: OkEnvelope },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request) => {
      const userId = request.userId!;
      const sort = request.body?.sort;
      const expanded = request.body?.expanded ?? request.query.expanded;
      if (sort === undefined && expanded === undefined) {
        throw badRequest('Send sort (title, -title or -count) to reorder, or expanded (true or false) to expand or collapse all.');
      }
      if (sort !== undefined) await app.repos.collections.reorderAll(userId, sort);
      if (expanded !== undefined) await app.repos.collections.setExpandedAll(userId, expanded);
      return { result: true as const };
    },
  );

  app.put(
    '/collections/merge',
    {
      schema: {
        tags,
        summary: 'Merge the listed collections into `to`',
        description:
          'Bookmarks of the listed collections move to `to` (a collection id, or -1 for Unsorted); their child collections ' +
          'move under `to`; the listed collections are removed. `modified` is the number of bookmarks moved.',
        body: CollectionsMerge,
        response: { 200: ModifiedEnvelope },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request) => {
      const userId = request.userId!;
      const { to } = request.body;
      const ids = checkIds(request.body.ids, 'merged');
      if (ids.includes(to)) throw badRequest('body.to must not be one of body.ids: a collection cannot be merged into itself.');
      if (isSystemCollection(to) && to !== UNSORTED) {
        throw badRequest('body.to must be one of your collections, or -1 to merge into Unsorted.');
      }
      const target = await app.permissions.requireCollection(userId, to, 'owner');
      for (const id of ids) await app.permissions.requireCollection(userId, id, 'owner');
      if (to > 0) {
        for (const id of ids) {
          if ((await app.repos.collections.descendantIds(id)).includes(to)) {
            throw badRequest(
              `body.to (${to}) is inside collection ${id}, which is being merged: pick a target outside the merged collections.`,
            );
          }
        }
      }
      const modified = await app.repos.collections.merge(target.ownerId, to, ids);
      if (modified > 0) await app.repos.users.touchBookmarks(target.ownerId);
      return { result: true as const, modified };
    },
  );

  app.put(
    '/collections/clean',
    {
      schema: {
        tags,
        summary: 'Remove all empty collections',
        description: 'Removes every collection of the caller with no bookmarks and no non-empty descendant; `count` is how many.',
        response: { 200: CollectionsCleanResult },
      },
    },
    async (request) => {
      const count = await app.repos.collections.clean(request.userId!);
      return { result: true as const, count };
    },
  );
};
export default routes;
