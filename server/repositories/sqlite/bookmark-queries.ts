import type { Bookmark } from '../../../lib/api/types.js';
import { DEFAULT_BOOKMARK_SORT, TRASH } from '../../../lib/api/constants.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import type { FullTextIndex } from './fts.js';
import { loadBookmarks } from './bookmark-rows.js';
import { bookmarkOrders } from '../bookmark-records.js';
import { COLLECTION_AND_DESCENDANTS } from '../collection-tree-sql.js';
import { compileSearch, type CompiledSearch, type SqlPart } from './search-sql.js';
import { type BookmarkScope, type ListOptions, type BookmarkQueriesRepository } from '../types/index.js';

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

/** Up to this many full-text matches, they are read from the index once and looked up by id. */
const FEW_MATCHES_MAX = 10_000;
/** Up to this many full-text matches, a created-ordered page is read from the matches (above, by walking the created index). */
const PAGE_VIA_MATCHES_MAX = 1_500;

/** Bookmark reads: listing, search, sorting, paging. */
export class SqliteBookmarkQueriesRepository implements BookmarkQueriesRepository {
  constructor(
    protected db: Db,
    protected clock: Clock,
    protected fts: FullTextIndex,
    /** Where the plans switch (see `list`); other values only in tests, which check every plan answers alike. */
    private plans = { fewMatchesMax: FEW_MATCHES_MAX, pageViaMatchesMax: PAGE_VIA_MATCHES_MAX },
  ) {}

  /** The collection and all its descendants (ids), the collection first. */
  async withDescendants(collectionId: number): Promise<number[]> {
    const rows = this.db.prepare(COLLECTION_AND_DESCENDANTS).all(collectionId) as { id: number }[];
    return rows.length ? rows.map((r) => r.id) : [collectionId];
  }

  /**
   * One page of the scope's bookmarks matching `search`, and the total number of matches.
   *
   * Plans: when every match must match a full-text query (AND mode with a full-text term), the
   * index is read once. Up to `fewMatchesMax` (10,000) matches (most searches: a word is rarely in more
   * than a tenth of a library), their ids (and ranks, for `score`) are kept, and the count and the
   * page are read from those rows by id: the full-text query, whose cost is reading the posting
   * lists of its words (tens of ms for a word in every title), is not run again for the count,
   * the page and the rank. A larger match (a very common word) is better found by walking the
   * owner's (user_id, created) index and checking each row against the match, which for a
   * newest-first page stops after `perpage` hits.
   */
  async list(scope: BookmarkScope, opts: ListOptions): Promise<{ items: Bookmark[]; count: number }> {
    const search = compileSearch(opts.search);
    const sort = opts.sort && (Object.hasOwn(ORDER, opts.sort) || (opts.sort === 'score' && search.rankSql)) ? opts.sort : DEFAULT_BOOKMARK_SORT;
    if (search.matchSql) {
      const matches = this.fewMatches(search.matchSql, sort === 'score');
      if (matches) return this.listMatches(scope, search, matches, sort, opts);
    }

    const filter = () => {
      const s = scopeSql(scope);
      return { where: `${s.sql} AND ${search.where}`, params: [...s.params, ...search.params] };
    };
    const c = filter();
    const count = (this.db.prepare(`SELECT count(*) AS n FROM bookmarks b WHERE ${c.where}`).get(...c.params) as { n: number }).n;
    const offset = opts.page * opts.perpage;
    if (count === 0 || offset >= count) return { items: [], count };

    let sql: string;
    let params: unknown[];
    if (sort === 'score' && search.matchSql) {
      const s = scopeSql(scope, true);
      sql = `SELECT b.id FROM (${search.matchSql.sql}) f CROSS JOIN bookmarks b ON b.id = f.id
              WHERE ${s.sql} AND ${search.rest.where}
              ORDER BY f.rank, b.created DESC, b.id DESC LIMIT ? OFFSET ?`;
      params = [...search.matchSql.params, ...s.params, ...search.rest.params, opts.perpage, offset];
    } else if (sort === 'score') {
      // OR mode: rows matched only by non-text terms have no rank and go last.
      sql = `WITH r AS MATERIALIZED (${search.rankSql!.sql})
             SELECT b.id FROM bookmarks b LEFT JOIN r ON r.id = b.id
              WHERE ${c.where}
              ORDER BY r.rank IS NULL, r.rank, b.created DESC, b.id DESC LIMIT ? OFFSET ?`;
      params = [...search.rankSql!.params, ...c.params, opts.perpage, offset];
    } else {
      sql = `SELECT b.id FROM bookmarks b WHERE ${c.where} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`;
      params = [...c.params, opts.perpage, offset];
    }
    const ids = (this.db.prepare(sql).all(...params) as { id: number }[]).map((r) => r.id);
    return { items: loadBookmarks(this.db, ids), count };
  }

  /**
   * The rows matching the full-text query, with their rank when asked, or null when there are
   * more than `fewMatchesMax` (reading stops there).
   */
  private fewMatches(match: SqlPart, withRank: boolean): { ids: number[]; rank: Map<number, number> | null } | null {
    const rows = this.db
      .prepare(`SELECT id${withRank ? ', rank' : ''} FROM (${match.sql}) LIMIT ${this.plans.fewMatchesMax + 1}`)
      .raw()
      .all(...match.params) as [number, number?][];
    if (rows.length > this.plans.fewMatchesMax) return null;
    const ids = rows.map((r) => r[0]);
    const rank = withRank ? new Map(rows.map((r) => [r[0], r[1]!])) : null;
    return { ids, rank };
  }

  /** The count and the page from the rows of a small full-text match (`fewMatches`), by id. */
  private listMatches(
    scope: BookmarkScope,
    search: CompiledSearch,
    matches: { ids: number[]; rank: Map<number, number> | null },
    sort: string,
    opts: ListOptions,
  ): { items: Bookmark[]; count: number } {
    if (matches.ids.length === 0) return { items: [], count: 0 };
    const offset = opts.page * opts.perpage;
    const ids = JSON.stringify(matches.ids);
    // The rows by id; scope and the other terms checked on each (their indexes unused: `+b.col`).
    const byId = () => {
      const s = scopeSql(scope, true);
      return { where: `b.id IN (SELECT value FROM json_each(?)) AND ${s.sql} AND ${search.rest.where}`, params: [ids, ...s.params, ...search.rest.params] };
    };
    if (matches.rank) {
      // Relevance: best rank first, then newest, then id (as the index-driven plan orders them).
      const rank = matches.rank;
      const f = byId();
      const rows = this.db.prepare(`SELECT b.id, b.created FROM bookmarks b WHERE ${f.where}`).raw().all(...f.params) as [number, string][];
      rows.sort((a, b) => rank.get(a[0])! - rank.get(b[0])! || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0) || b[0] - a[0]);
      return { items: loadBookmarks(this.db, rows.slice(offset, offset + opts.perpage).map((r) => r[0])), count: rows.length };
    }
    const c = byId();
    const count = (this.db.prepare(`SELECT count(*) AS n FROM bookmarks b WHERE ${c.where}`).get(...c.params) as { n: number }).n;
    if (count === 0 || offset >= count) return { items: [], count };
    // Newest/oldest first over many matches: walking the created index (checking each row's id
    // against the matches) stops after a page; otherwise the matches are looked up and sorted.
    const walk = (sort === '-created' || sort === 'created') && count > this.plans.pageViaMatchesMax;
    const s = scopeSql(scope, !walk);
    const where = `${walk ? '+b.id' : 'b.id'} IN (SELECT value FROM json_each(?)) AND ${s.sql} AND ${search.rest.where}`;
    const sql = `SELECT b.id FROM bookmarks b WHERE ${where} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`;
    const page = (this.db.prepare(sql).all(ids, ...s.params, ...search.rest.params, opts.perpage, offset) as { id: number }[]).map((r) => r.id);
    return { items: loadBookmarks(this.db, page), count };
  }
}
