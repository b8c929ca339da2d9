import type { Bookmark } from '../../../lib/api/types.js';
import { TRASH, UNSORTED } from '../../../lib/api/constants.js';
import type { Db } from '../../db/open.js';
import { loadBookmarks } from './bookmark-rows.js';
import type { BookmarkExportRepository, BookmarkScope, ExportFolder } from '../types.js';
import { compileSearch } from './search-sql.js';

/**
 * Reads for exports (GET /bookmarks/{id}/export.*): the folders of a scope, then its bookmarks
 * one collection at a time in keyset-paged batches, so a 100k-bookmark export never holds more
 * than one batch. Portable SQL only (no SQLite-only syntax), so another backend can run it as is.
 */
export class SqliteBookmarkExportRepository implements BookmarkExportRepository {
  constructor(protected db: Db) {}

  /**
   * The collections the scope covers, in listing order (sort descending, then id), each with its
   * parent when that parent is in the scope too (otherwise null: a top folder of the export).
   */
  async folders(scope: BookmarkScope): Promise<ExportFolder[]> {
    let rows: { id: number; title: string; parent_id: number | null }[];
    if (scope.kind === 'system') return [];
    if (scope.kind === 'user') {
      const shared = scope.sharedCollectionIds ?? [];
      const sharedSql = shared.length ? ` OR id IN (${shared.map(() => '?').join(',')})` : '';
      rows = this.db
        .prepare(`SELECT id, title, parent_id FROM collections WHERE user_id = ?${sharedSql} ORDER BY sort DESC, id ASC`)
        .all(scope.userId, ...shared) as typeof rows;
    } else {
      rows = [];
      for (let i = 0; i < scope.collectionIds.length; i += 500) {
        const chunk = scope.collectionIds.slice(i, i + 500);
        rows.push(
          ...(this.db
            .prepare(`SELECT id, title, parent_id FROM collections WHERE id IN (${chunk.map(() => '?').join(',')}) ORDER BY sort DESC, id ASC`)
            .all(...chunk) as typeof rows),
        );
      }
    }
    const ids = new Set(rows.map((r) => r.id));
    return rows.map((r) => ({ id: r.id, title: r.title, parentId: r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null }));
  }

  /**
   * The bookmarks of one collection of the scope matching `search`, newest first, in batches of
   * `batchSize` read by keyset (created, id), each batch with highlights and attachments.
   * `collectionId` is a collection id from `folders`, or -1 / -99 for the owner's Unsorted / Trash.
   */
  async *bookmarksOf(
    collectionId: number,
    opts: { ownerId?: number; search?: string; batchSize?: number },
  ): AsyncGenerator<Bookmark[]> {
    const search = compileSearch(opts.search);
    const system = collectionId === UNSORTED || collectionId === TRASH;
    if (system && opts.ownerId === undefined) throw new Error('bookmarksOf: a system collection needs ownerId');
    const scopeSql = system ? 'b.user_id = ? AND b.collection_id = ?' : 'b.collection_id = ?';
    const scopeParams: unknown[] = system ? [opts.ownerId, collectionId] : [collectionId];
    const limit = opts.batchSize ?? 500;
    const first = this.db.prepare(
      `SELECT b.id, b.created FROM bookmarks b WHERE ${scopeSql} AND ${search.where}
        ORDER BY b.created DESC, b.id DESC LIMIT ?`,
    );
    const next = this.db.prepare(
      `SELECT b.id, b.created FROM bookmarks b WHERE ${scopeSql} AND ${search.where}
          AND (b.created < ? OR (b.created = ? AND b.id < ?))
        ORDER BY b.created DESC, b.id DESC LIMIT ?`,
    );
    let after: { id: number; created: string } | null = null;
    for (;;) {
      const rows = (
        after === null
          ? first.all(...scopeParams, ...search.params, limit)
          : next.all(...scopeParams, ...search.params, after.created, after.created, after.id, limit)
      ) as { id: number; created: string }[];
      if (rows.length === 0) return;
      yield loadBookmarks(this.db, rows.map((r) => r.id));
      if (rows.length < limit) return;
      after = rows[rows.length - 1]!;
    }
  }
}
