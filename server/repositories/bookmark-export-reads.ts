// Reads for exports, in plain SQL both backends run as written (`?` placeholders): each backend
// supplies how to run a query, its search compiler and its bookmark loader.
import type { Bookmark } from '../../lib/api/types.js';
import { TRASH, UNSORTED } from '../../lib/api/constants.js';
import { chunks } from './bookmark-records.js';
import type { BookmarkExportRepository, BookmarkScope, ExportFolder } from './types/index.js';

/** What a backend lends the export reads. */
interface ExportBackend {
  /** Rows of a query with `?` placeholders. */
  rows<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** A search expression as a condition over `bookmarks b`. */
  compileSearch(expr: string | undefined): { where: string; params: unknown[] };
  /** Bookmarks with highlights and attachments, in the order of `ids`. */
  load(ids: number[]): Promise<Bookmark[]>;
}

/**
 * Reads for exports (GET /bookmarks/{id}/export.*): the folders of a scope, then its bookmarks
 * one collection at a time in keyset-paged batches, so a 100k-bookmark export never holds more
 * than one batch.
 */
export class BookmarkExportReads implements BookmarkExportRepository {
  constructor(private readonly backend: ExportBackend) {}

  /**
   * The collections the scope covers, in listing order (sort descending, then id), each with its
   * parent when that parent is in the scope too (otherwise null: a top folder of the export).
   */
  async folders(scope: BookmarkScope): Promise<ExportFolder[]> {
    type Row = { id: number; title: string; parent_id: number | null };
    let rows: Row[];
    if (scope.kind === 'system') return [];
    if (scope.kind === 'user') {
      const shared = scope.sharedCollectionIds ?? [];
      const sharedSql = shared.length ? ` OR id IN (${shared.map(() => '?').join(',')})` : '';
      rows = await this.backend.rows<Row>(
        `SELECT id, title, parent_id FROM collections WHERE user_id = ?${sharedSql} ORDER BY sort DESC, id ASC`,
        [scope.userId, ...shared],
      );
    } else {
      rows = [];
      for (const chunk of chunks(scope.collectionIds)) {
        rows.push(
          ...(await this.backend.rows<Row>(
            `SELECT id, title, parent_id FROM collections WHERE id IN (${chunk.map(() => '?').join(',')}) ORDER BY sort DESC, id ASC`,
            chunk,
          )),
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
  async *bookmarksOf(collectionId: number, opts: { ownerId?: number; search?: string; batchSize?: number }): AsyncGenerator<Bookmark[]> {
    const search = this.backend.compileSearch(opts.search);
    const system = collectionId === UNSORTED || collectionId === TRASH;
    if (system && opts.ownerId === undefined) throw new Error('bookmarksOf: a system collection needs ownerId');
    const scopeSql = system ? 'b.user_id = ? AND b.collection_id = ?' : 'b.collection_id = ?';
    const scopeParams: unknown[] = system ? [opts.ownerId, collectionId] : [collectionId];
    const limit = opts.batchSize ?? 500;
    const first = `SELECT b.id, b.created FROM bookmarks b WHERE ${scopeSql} AND ${search.where}
        ORDER BY b.created DESC, b.id DESC LIMIT ?`;
    const next = `SELECT b.id, b.created FROM bookmarks b WHERE ${scopeSql} AND ${search.where}
          AND (b.created < ? OR (b.created = ? AND b.id < ?))
        ORDER BY b.created DESC, b.id DESC LIMIT ?`;
    let after: { id: number; created: string } | null = null;
    for (;;) {
      const rows: { id: number; created: string }[] =
        after === null
          ? await this.backend.rows(first, [...scopeParams, ...search.params, limit])
          : await this.backend.rows(next, [...scopeParams, ...search.params, after.created, after.created, after.id, limit]);
      if (rows.length === 0) return;
      yield await this.backend.load(rows.map((r) => r.id));
      if (rows.length < limit) return;
      after = rows[rows.length - 1]!;
    }
  }
}
