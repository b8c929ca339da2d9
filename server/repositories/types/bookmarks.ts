// Bookmarks: the rows and inputs of saving and editing bookmarks, and their write and read repositories.
import type { Bookmark, HighlightChange, Media } from '../../../lib/api/types.js';
import { TRASH, UNSORTED, type BookmarkType, type HighlightColor } from '../../../lib/api/constants.js';

/**
 * Which bookmarks a read looks at.
 * - `user`: every bookmark of `userId` (Trash only when `includeTrash`), plus the bookmarks of
 *   `sharedCollectionIds` (other users' collections shared with the caller);
 * - `system`: the caller's Unsorted (-1) or Trash (-99);
 * - `collections`: the bookmarks of these collections, whoever owns them (access checked by the route).
 */
export type BookmarkScope =
  | { kind: 'user'; userId: number; includeTrash: boolean; sharedCollectionIds?: number[] }
  | { kind: 'system'; userId: number; collectionId: typeof UNSORTED | typeof TRASH }
  | { kind: 'collections'; collectionIds: number[] };

export interface ListOptions {
  search?: string;
  /** One of BOOKMARK_SORTS; anything else (or `score` without a search) sorts by `-created`. */
  sort?: string;
  page: number;
  perpage: number;
}

/** A highlight to add: text is already checked to be non-blank. */
export interface NewHighlight {
  text: string;
  note?: string;
  color?: HighlightColor;
  position?: number;
  prefix?: string;
  suffix?: string;
}

/** A bookmark to insert, already validated and normalised by the caller (services/bookmarks/input.ts). */
export interface NewBookmark {
  /** Whose data it is: the owner of the target collection. */
  ownerId: number;
  /** Who created it (the caller). */
  creatorId: number;
  collectionId: number;
  link: string;
  linkKey: string;
  domain: string;
  title: string;
  excerpt: string;
  note: string;
  type: BookmarkType;
  cover: string;
  media: Media[];
  tags: string[];
  important: boolean;
  /** Position in the collection (ascending, 0 = first). Without it the bookmark goes first. */
  order?: number;
  created?: string;
  lastUpdate?: string;
  highlights: NewHighlight[];
  /**
   * `pleaseParse` was asked: the page parse is queued in the insert's own transaction, so it joins the
   * permanent-copy job the insert may queue before any job runner can take that job.
   */
  pleaseParse?: boolean;
}

/** Changes to one bookmark (PUT /bookmark/{id}); absent fields stay as they are. */
export interface BookmarkChanges {
  link?: { link: string; linkKey: string; domain: string };
  title?: string;
  excerpt?: string;
  note?: string;
  type?: BookmarkType;
  cover?: string;
  media?: Media[];
  /** Replaces all tags. */
  tags?: string[];
  important?: boolean;
  created?: string;
  /** Move into another collection (whose owner becomes the bookmark's owner). */
  move?: { collectionId: number; ownerId: number };
  /** Position in the (target) collection, ascending, 0 = first. */
  order?: number;
  /** Add / update / remove, applied in the order sent; `highlights.N` names entries in errors. */
  highlights?: HighlightChange[];
}

/** Changes applied to many bookmarks at once (PUT /bookmarks/{collectionId}). */
export interface BulkChanges {
  important?: boolean;
  /** Appended to each bookmark's tags; `[]` removes all tags. */
  tags?: string[];
  /** Appended to each bookmark's media; `[]` removes all media. */
  media?: Media[];
  cover?: string;
  move?: { collectionId: number; ownerId: number };
}

/** Which bookmarks a bulk operation acts on: one collection of one owner, narrowed by ids and a search expression. */
export interface BulkScope {
  ownerId: number;
  collectionId: number;
  ids?: number[];
  /** A `search` expression (the search language of observed-behaviour.md); compiled here. */
  search?: string;
}

/** A saved bookmark whose link matched a duplicate check. */
export interface SavedLink {
  _id: number;
  link: string;
  linkKey: string;
}

/** A `bookmarks` table row. */
export interface BookmarkRow {
  id: number;
  user_id: number;
  creator_id: number;
  collection_id: number;
  link: string;
  link_key: string;
  domain: string;
  title: string;
  excerpt: string;
  note: string;
  type: string;
  cover: string;
  media: string;
  tags: string;
  important: number;
  sort_order: number;
  removed: number;
  broken: number;
  lang: string | null;
  created: string;
  last_update: string;
}

/** Bookmark reads: listing, search, sorting, paging. */
export interface BookmarkQueriesRepository {
  /** The collection and all its descendants (ids), the collection first. */
  withDescendants(collectionId: number): Promise<number[]>;
  /**
   * One page of the scope's bookmarks matching `search`, and the total number of matches.
   *
   * Plans: when every match must match a full-text query, its size (counted in the index, under a
   * millisecond for most words) picks the plan. A small match is read from the index and its
   * rows looked up by id; a large one (a very common word) is better found by walking the
   * owner's (user_id, created) index and checking each row against the match, which for a
   * newest-first page stops after `perpage` hits.
   */
  list(scope: BookmarkScope, opts: ListOptions): Promise<{
    items: Bookmark[];
    count: number;
  }>;
}

/**
 * Bookmark writes: create (one or many), update incl. highlights, move, Trash and permanent
 * removal, bulk update/remove, and the duplicate lookup. Every write runs in one transaction,
 * sets `last_update` and keeps the full-text index in step.
 *
 * Manual order: `sort_order` ascending is the order a person arranged (`order: 0` = first).
 * A bookmark created or moved without `order` goes first in its collection.
 */
export interface BookmarksRepository {
  /** The bookmark with its highlights, or undefined. */
  get(id: number): Promise<Bookmark | undefined>;
  getMany(ids: number[]): Promise<Bookmark[]>;
  /** Inserts the bookmarks (with tags and highlights) in one transaction; returns their ids in order. */
  create(items: NewBookmark[]): Promise<number[]>;
  /**
   * Applies the changes in one transaction. Throws a 400 ApiError (nothing written) when a
   * highlight entry names an `_id` this bookmark does not have. Returns false when the bookmark is gone.
   */
  update(id: number, changes: BookmarkChanges): Promise<boolean>;
  /**
   * DELETE /bookmark/{id}: a bookmark outside Trash moves to its owner's Trash; one already in
   * Trash is removed for good. Returns what happened, or null when the bookmark is gone.
   */
  remove(id: number): Promise<'trashed' | 'deleted' | null>;
  /** Ids a bulk operation acts on, in manual order. */
  bulkTargets(scope: BulkScope): Promise<number[]>;
  /** Applies the same changes to every id (one transaction). Ids are expected from `bulkTargets`. */
  bulkUpdate(ids: number[], ownerId: number, changes: BulkChanges): Promise<number>;
  /** Moves the ids to their owner's Trash, or deletes them for good (`permanent`). One transaction. */
  bulkRemove(ids: number[], ownerId: number, permanent: boolean): Promise<number>;
  /**
   * The caller's saved (not removed) bookmarks whose `link_key` is one of `keys`, oldest first.
   * The one place that decides whose bookmarks count for duplicate checks.
   */
  findSavedByKeys(userId: number, keys: string[]): Promise<SavedLink[]>;
  /**
   * `pleaseParse: {}` on update: queues the background page parse (jobs.ts), all ids in one
   * transaction; the job runner fills the fields the owner left empty. (On create, `NewBookmark.pleaseParse`.)
   */
  onPleaseParse(bookmarkIds: number[], on: 'create' | 'update'): Promise<void>;
}
