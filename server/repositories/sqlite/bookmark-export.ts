import type { Db } from '../../db/open.js';
import { BookmarkExportReads } from '../bookmark-export-reads.js';
import { loadBookmarks } from './bookmark-rows.js';
import { compileSearch } from './search-sql.js';

/** Reads for exports on SQLite: the shared keyset-paged reads over this connection. */
export class SqliteBookmarkExportRepository extends BookmarkExportReads {
  constructor(db: Db) {
    super({
      rows: async <T>(sql: string, params: unknown[]) => db.prepare(sql).all(...params) as T[],
      compileSearch: (expr) => compileSearch(expr),
      load: async (ids) => loadBookmarks(db, ids),
    });
  }
}
