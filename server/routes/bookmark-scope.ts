import type { FastifyInstance } from 'fastify';
import { ALL_COLLECTIONS, TRASH, UNSORTED } from '../../lib/api/constants.js';
import type { BookmarkScope } from '../repositories/index.js';
import type { CollectionAccess } from '../services/permissions.js';

/**
 * The bookmarks a collection id in a path stands for, once access to it was granted: 0 = all of
 * the owner's bookmarks (Trash only with `includeTrash`; with `shared`, plus the collections
 * shared with them), -1 / -99 = the owner's Unsorted / Trash, any other id = that collection
 * (with `nested`, and the collections below it).
 */
export async function bookmarkScope(
  app: FastifyInstance,
  access: CollectionAccess,
  opts: { includeTrash?: boolean; shared?: boolean; nested?: boolean; userId?: number | null } = {},
): Promise<BookmarkScope> {
  const { collectionId: id, ownerId } = access;
  if (id === ALL_COLLECTIONS) {
    const sharedCollectionIds = opts.shared ? await app.permissions.sharedCollectionIds(ownerId) : undefined;
    return { kind: 'user', userId: ownerId, includeTrash: !!opts.includeTrash, ...(sharedCollectionIds ? { sharedCollectionIds } : {}) };
  }
  if (id === UNSORTED || id === TRASH) return { kind: 'system', userId: ownerId, collectionId: id };
  if (!opts.nested) return { kind: 'collections', collectionIds: [id] };
  // Only the descendants the caller may read: a private child of a public collection stays private.
  const branch = await app.repos.bookmarkQueries.withDescendants(id);
  return { kind: 'collections', collectionIds: await app.permissions.readableBranch(opts.userId ?? null, access, branch) };
}
