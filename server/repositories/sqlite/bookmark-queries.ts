import type { Bookmark } from '../../../lib/api/types.js';
import { DEFAULT_BOOKMARK_SORT, TRASH } from '../../../lib/api/constants.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import type { FullTextIndex } from './fts.js';
import { loadBookmarks } from './bookmark-rows.js';
import { bookmarkOrders } from '../bookmark-records.js';
import { COLLECTION_AND_DESCENDANTS } from '../collection-tree-sql.js';
import { compileSearch } from './search-sql.js';
import { type BookmarkScope, type ListOptions, type BookmarkQueriesRepository } from '../types.js';

/**
 * SQL condition over `bookmarks b` selecting the scope. With `viaFullText` the scope's columns are
 * written `+b.col`, which keeps SQLite from using their indexes: the query is then driven from
 * the full-text match (a rowid list), the fast plan when that match is small.
 */
export function scopeSql(scope: BookmarkScope, viaFullText = false): { sql: string; params: unknown[] } {
  const p = viaFullText ? '+' : '';
  switch (scope.kind) {
    case 'user': {
      let sql = scope.includeTrash ? `${p}b.user_id = ?` : `(${p}b.user_id = ? AND ${p}b.collection_id <> ${TRASH})`;
      const params: unknown[] = [scope.userId];
      const shared = scope.sharedCollectionIds ?? [];
      if (shared.length > 0) {
        sql = `(${sql} OR ${p}b.collection_id IN (${shared.map(() => '?').join(',')}))`;
        params.push(...shared);
      }
      return { sql, params };
    }
    case 'system':
      return { sql: `(${p}b.user_id = ? AND ${p}b.collection_id = ?)`, params: [scope.userId, scope.collectionId] };
    case 'collections':
      if (scope.collectionIds.length === 1) return { sql: `${p}b.collection_id = ?`, params: [scope.collectionIds[0]] };
      return {
        sql: `${p}b.collection_id IN (${scope.collectionIds.map(() => '?').join(',')})`,
        params: scope.collectionIds,
      };
  }
}

/** ORDER BY clauses; ties always fall back to newest first and then id, so pages never overlap. */
const ORDER = bookmarkOrders((col) => `${col} COLLATE NOCASE`, (col) => col);

/** Bookmark reads: listing, search, sorting, paging. */
export class SqliteBookmarkQueriesRepository implements BookmarkQueriesRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}

  /** The collection and all its descendants (ids), the collection first. */
  async withDescendants(collectionId: number): Promise<number[]> {
    const rows = this.db.prepare(COLLECTION_AND_DESCENDANTS).all(collectionId) as { id: number }[];
    return rows.length ? rows.map((r) => r.id) : [collectionId];
  }

  /**
   * One page of the scope's bookmarks matching `search`, and the total number of matches.
   *
   * Plans: when every match must match a full-text query, its size (counted in the index, under a
   * millisecond for most words) picks the plan. A small match is read from the index and its
   * rows looked up by id; a large one (a very common word) is better found by walking the
   * owner's (user_id, created) index and checking each row against the match, which for a
   * newest-first page stops after `perpage` hits.
   */
  async list(scope: BookmarkScope, opts: ListOptions): Promise<{ items: Bookmark[]; count: number }> {
    const search = compileSearch(opts.search);
    const ftsCount = search.matchFilter
      ? (this.db.prepare('SELECT count(*) AS n FROM bookmarks_fts WHERE bookmarks_fts MATCH ?').get(search.matchFilter) as { n: number }).n
      : Infinity;
    if (ftsCount === 0) return { items: [], count: 0 };

    const filter = (viaFullText: boolean) => {
      const s = scopeSql(scope, viaFullText);
      return { where: `${s.sql} AND ${search.where}`, params: [...s.params, ...search.params] };
    };

    const c = filter(ftsCount <= COUNT_VIA_FTS_MAX);
    const count = (this.db.prepare(`SELECT count(*) AS n FROM bookmarks b WHERE ${c.where}`).get(...c.params) as { n: number }).n;
    const offset = opts.page * opts.perpage;
    if (count === 0 || offset >= count) return { items: [], count };

    const sort = opts.sort && (Object.hasOwn(ORDER, opts.sort) || (opts.sort === 'score' && search.rankMatch)) ? opts.sort : DEFAULT_BOOKMARK_SORT;
    let sql: string;
    let params: unknown[];
    if (sort === 'score' && search.matchFilter) {
      const f = filter(true);
      sql = `SELECT b.id FROM bookmarks_fts f CROSS JOIN bookmarks b ON b.id = f.rowid
              WHERE bookmarks_fts MATCH ? AND ${f.where}
              ORDER BY f.rank, b.created DESC, b.id DESC LIMIT ? OFFSET ?`;
      params = [search.matchFilter, ...f.params, opts.perpage, offset];
    } else if (sort === 'score') {
      // OR mode: rows matched only by non-text terms have no rank and go last.
      const f = filter(false);
      sql = `WITH r AS MATERIALIZED (SELECT rowid AS id, rank FROM bookmarks_fts WHERE bookmarks_fts MATCH ?)
             SELECT b.id FROM bookmarks b LEFT JOIN r ON r.id = b.id
              WHERE ${f.where}
              ORDER BY r.rank IS NULL, r.rank, b.created DESC, b.id DESC LIMIT ? OFFSET ?`;
      params = [search.rankMatch, ...f.params, opts.perpage, offset];
    } else {
      // Newest/oldest first can walk the created index and stop early; other orders sort the matches.
      const walksIndex = sort === '-created' || sort === 'created';
      const f = filter(ftsCount <= (walksIndex ? PAGE_VIA_FTS_MAX : COUNT_VIA_FTS_MAX));
      sql = `SELECT b.id FROM bookmarks b WHERE ${f.where} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`;
      params = [...f.params, opts.perpage, offset];
    }
    const ids = (this.db.prepare(sql).all(...params) as { id: number }[]).map((r) => r.id);
    return { items: loadBookmarks(this.db, ids), count };
  }
}

/** Up to this many full-text matches, counting looks rows up by id rather than scanning the owner's index. */
const COUNT_VIA_FTS_MAX = 10_000;
/** Up to this many full-text matches, a created-ordered page is read from the matches (above, from the index). */
const PAGE_VIA_FTS_MAX = 1_500;
