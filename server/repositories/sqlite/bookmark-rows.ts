import type { Bookmark } from '../../../lib/api/types.js';
import type { Db } from '../../db/open.js';
import { assembleBookmarks, chunks, type AttachmentRow, type HighlightRow } from '../bookmark-records.js';
import type { BookmarkRow } from '../types/index.js';

/**
 * Loads bookmarks with their highlights in two queries, keeping the order of `ids`.
 * Shared by the write and read repositories so both answer the same shape.
 */
export function loadBookmarks(db: Db, ids: number[]): Bookmark[] {
  const out: Bookmark[] = [];
  for (const chunk of chunks(ids)) {
    const marks = chunk.map(() => '?').join(',');
    const rows = db.prepare(`SELECT * FROM bookmarks WHERE id IN (${marks})`).all(...chunk) as BookmarkRow[];
    const hl = db
      .prepare(`SELECT * FROM highlights WHERE bookmark_id IN (${marks}) ORDER BY created, rowid`)
      .all(...chunk) as HighlightRow[];
    const attached = db
      .prepare(
        `SELECT 'file' AS what, bookmark_id, name, size, mime FROM files WHERE kind = 'file' AND bookmark_id IN (${marks})
         UNION ALL
         SELECT 'cache', bookmark_id, '', size, '' FROM bookmark_caches WHERE bookmark_id IN (${marks})`,
      )
      .all(...chunk, ...chunk) as AttachmentRow[];
    out.push(...assembleBookmarks(chunk, rows, hl, attached));
  }
  return out;
}
