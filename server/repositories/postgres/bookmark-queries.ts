import type pg from 'pg';
import type { Bookmark } from '../../../lib/api/types.js';
import { DEFAULT_BOOKMARK_SORT, TRASH } from '../../../lib/api/constants.js';
import { bookmarkOrders } from '../bookmark-records.js';
import { COLLECTION_AND_DESCENDANTS } from '../collection-tree-sql.js';
import type { BookmarkQueriesRepository, BookmarkScope, ListOptions } from '../types/index.js';
import { loadBookmarks } from './bookmark-rows.js';
import { all, one } from './query.js';
import { compilePgSearch } from './search-sql.js';

/** ASCII letters folded, nothing else (SQLite's NOCASE), then compared by code point. */
const caseless = (col: string) => `translate(${col}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE "C"`;
/** Compared by code point, as SQLite compares text, whatever the database's collation. */
const bytewise = (col: string) => `${col} COLLATE "C"`;

/** ORDER BY clauses; ties always fall back to newest first and then id, so pages never overlap. */
const ORDER = bookmarkOrders(caseless, bytewise);

/** The scope as a condition over `bookmarks b` (`?` placeholders; id lists as one array). */
export function scopeCondition(scope: BookmarkScope): { sql: string; params: unknown[] } {
  if (scope.kind === 'system') return { sql: '(b.user_id = ? AND b.collection_id = ?)', params: [scope.userId, scope.collectionId] };
  if (scope.kind === 'collections') return { sql: 'b.collection_id = ANY(?::bigint[])', params: [scope.collectionIds] };
  const own = scope.includeTrash ? 'b.user_id = ?' : `(b.user_id = ? AND b.collection_id <> ${TRASH})`;
  const shared = scope.sharedCollectionIds ?? [];
  if (shared.length === 0) return { sql: own, params: [scope.userId] };
  return { sql: `(${own} OR b.collection_id = ANY(?::bigint[]))`, params: [scope.userId, shared] };
}

/**
 * Bookmark reads on PostgreSQL: listing, search (the `tsvector` column and its GIN index),
 * sorting and paging, with the same records and order as on SQLite. `score` ranks with `ts_rank`
 * over the weighted document (title above tags above text above link).
 */
export class PgBookmarkQueriesRepository implements BookmarkQueriesRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The collection and all its descendants (ids), the collection first. */
  async withDescendants(collectionId: number): Promise<number[]> {
    const rows = await all<{ id: number }>(this.pool, COLLECTION_AND_DESCENDANTS, [collectionId]);
    return rows.length ? rows.map((r) => r.id) : [collectionId];
  }

  /**
   * One page of the scope's bookmarks matching `search`, and the total number of matches: the
   * page and the count in one statement (one snapshot), a second count only past the last page.
   */
  async list(scope: BookmarkScope, opts: ListOptions): Promise<{ items: Bookmark[]; count: number }> {
    const search = compilePgSearch(opts.search);
    const s = scopeCondition(scope);
    const where = `${s.sql} AND ${search.where}`;
    const params = [...s.params, ...search.params];
    const sort = opts.sort && (Object.hasOwn(ORDER, opts.sort) || (opts.sort === 'score' && search.rank)) ? opts.sort : DEFAULT_BOOKMARK_SORT;
    let order = ORDER[sort];
    const orderParams: unknown[] = [];
    if (sort === 'score') {
      // OR mode: rows matched only by non-text terms do not match the ranked query and go last.
      order = `(b.search @@ to_tsquery('tidemark', ?)) DESC, ts_rank(b.search, to_tsquery('tidemark', ?), 1) DESC, ${ORDER[DEFAULT_BOOKMARK_SORT]}`;
      orderParams.push(search.rank, search.rank);
    }
    const rows = await all<{ id: number; total: number }>(
      this.pool,
      `SELECT b.id, count(*) OVER ()::int AS total FROM bookmarks b WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, ...orderParams, opts.perpage, opts.page * opts.perpage],
    );
    if (rows.length === 0) {
      const counted = await one<{ n: number }>(this.pool, `SELECT count(*)::int AS n FROM bookmarks b WHERE ${where}`, params);
      return { items: [], count: counted?.n ?? 0 };
    }
    return { items: await loadBookmarks(this.pool, rows.map((r) => r.id)), count: rows[0].total };
  }
}
