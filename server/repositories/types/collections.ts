// Collections: the stored rows, their API form, and the collections repository.
import type { Collection, CollectionUpdate } from '../../../lib/api/types.js';
import type { CollectionSort } from '../../../lib/api/constants.js';

export interface CollectionOwnerRow {
  id: number;
  user_id: number;
  parent_id: number | null;
  public: number;
}

/** A `collections` row plus `count`, the number of bookmarks directly in it (never cached). */
export interface CollectionRow {
  id: number;
  user_id: number;
  parent_id: number | null;
  title: string;
  view: string;
  sort: number;
  public: number;
  expanded: number;
  color: string | null;
  cover: string;
  created: string;
  last_update: string;
  count: number;
}

/** What the caller may do with a collection, as reported in `collection.access`. */
export type CollectionAccessView = Collection['access'];

export function toCollection(row: CollectionRow, access: CollectionAccessView): Collection {
  const item: Collection = {
    _id: row.id,
    access: { level: access.level, draggable: access.draggable },
    count: row.count,
    cover: JSON.parse(row.cover) as string[],
    created: row.created,
    expanded: !!row.expanded,
    lastUpdate: row.last_update,
    public: !!row.public,
    sort: row.sort,
    title: row.title,
    user: { $id: row.user_id },
    view: row.view,
  };
  if (row.color !== null) item.color = row.color;
  if (row.parent_id !== null) item.parent = { $id: row.parent_id };
  return item;
}

/** Thrown when a move would put a collection inside itself or one of its descendants. */
export class CollectionCycleError extends Error {
  constructor() {
    super('cannot move a collection into itself or one of its descendants');
  }
}

/** The stored settings of a collection a write may set (its place in the tree is set apart). */
export type CollectionFields = Omit<CollectionUpdate, 'parent'>;

/**
 * Collections: tree, counts, ordering, merge, clean.
 *
 * Ordering: `sort` is a number, larger first among siblings. A new (or newly moved) collection
 * without an explicit `sort` gets (largest sort among its new siblings) + 1, so it appears first
 * under its parent. Reordering all collections (PUT /collections) rewrites the values of each
 * sibling group to n-1 ... 0.
 */
export interface CollectionsRepository {
  byId(id: number): Promise<CollectionRow | undefined>;
  /** The user's own collections with no parent. */
  roots(userId: number): Promise<CollectionRow[]>;
  /** The user's own nested collections (those with a parent), at any depth. */
  children(userId: number): Promise<CollectionRow[]>;
  /**
   * Other users' collections shared with `userId` and everything below them, by sort descending.
   */
  sharedWith(userId: number): Promise<CollectionRow[]>;
  /** The collection and all collections below it (the collection first). Empty when unknown. */
  descendantIds(id: number): Promise<number[]>;
  /** Creates a collection owned by `userId` (the owner of `parentId` when nested). */
  create(userId: number, input: CollectionFields & {
    title: string;
    parentId: number | null;
  }): Promise<CollectionRow>;
  /**
   * Changes fields and, when `parentId` is given (null = root), moves the collection. A move into
   * the collection itself or one of its descendants throws CollectionCycleError and changes nothing.
   */
  update(id: number, fields: CollectionFields, move?: {
    parentId: number | null;
  }): Promise<CollectionRow | undefined>;
  /**
   * Removes the collections with all their descendants in one transaction; every bookmark in them
   * moves to Trash. Returns how many bookmarks moved.
   */
  removeWithDescendants(ids: number[]): Promise<{
    collections: number;
    bookmarksMoved: number;
  }>;
  /**
   * Removes exactly the listed collections (DELETE /collections). Nested collections that are not
   * listed are kept: each moves under its nearest ancestor that survives, or to the root.
   * Bookmarks of removed collections move to Trash.
   */
  removeListed(ids: number[]): Promise<{
    collections: number;
    bookmarksMoved: number;
  }>;
  /** Deletes every bookmark in the user's Trash for good (highlights and tags cascade). */
  emptyTrash(userId: number): Promise<number>;
  /**
   * Rewrites `sort` of all the user's collections so that, within each parent, they list in the
   * asked order: `title` A to Z, `-title` Z to A, `-count` most bookmarks first (then by title).
   */
  reorderAll(userId: number, order: CollectionSort): Promise<void>;
  /** Expands or collapses all of the user's collections. */
  setExpandedAll(userId: number, expanded: boolean): Promise<void>;
  /**
   * Merges the listed collections into `to` (a collection id, or -1 Unsorted): their bookmarks move
   * to `to`, their child collections that are not listed move under `to` (to the root when `to` is
   * Unsorted), after `to`'s existing children, and the listed collections are removed.
   * Returns how many bookmarks moved.
   */
  merge(userId: number, to: number, ids: number[]): Promise<number>;
  /**
   * Removes all of the user's collections that hold no bookmarks and have no descendant that holds
   * any. Returns how many collections were removed.
   */
  clean(userId: number): Promise<number>;
}
