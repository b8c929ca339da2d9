import type pg from 'pg';
import { BookmarkExportReads } from '../bookmark-export-reads.js';
import { loadBookmarks } from './bookmark-rows.js';
import { all } from './query.js';
import { compilePgSearch } from './search-sql.js';

/**
 * Reads for exports on PostgreSQL: the shared keyset-paged reads, each batch one short query on
 * the pool (no transaction or cursor held open while the response streams to a slow client).
 */
export class PgBookmarkExportRepository extends BookmarkExportReads {
  constructor(pool: pg.Pool) {
    super({
      rows: <T>(sql: string, params: unknown[]) => all<T & pg.QueryResultRow>(pool, sql, params),
      compileSearch: (expr) => compilePgSearch(expr),
      load: (ids) => loadBookmarks(pool, ids),
    });
  }
}
