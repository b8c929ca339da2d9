import type { Bookmark } from '../../../lib/api/types.js';
import { assembleBookmarks, chunks, type AttachmentRow, type HighlightRow } from '../bookmark-records.js';
import type { BookmarkRow } from '../types/index.js';
import { all, type Queryable } from './query.js';

/** The bookmark record's columns (everything but the search document). */
export const BOOKMARK_COLUMNS =
  'id, user_id, creator_id, collection_id, link, link_key, domain, title, excerpt, note, type, cover, media, tags, important, sort_order, removed, broken, lang, created, last_update';

/** The highlight record's columns (without the insertion number). */
export const HIGHLIGHT_COLUMNS = 'id, bookmark_id, user_id, text, note, color, position, prefix, suffix, created, last_update';

/**
 * Loads bookmarks with their highlights and attachments, keeping the order of `ids` (the same
 * records as the SQLite backend's loadBookmarks). Three queries per 500 ids.
 */
export async function loadBookmarks(c: Queryable, ids: number[]): Promise<Bookmark[]> {
  const out: Bookmark[] = [];
  for (const chunk of chunks(ids)) {
    const rows = await all<BookmarkRow>(c, `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks WHERE id = ANY(?::bigint[])`, [chunk]);
    const hl = await all<HighlightRow>(
      c,
      `SELECT ${HIGHLIGHT_COLUMNS} FROM highlights WHERE bookmark_id = ANY(?::bigint[]) ORDER BY created COLLATE "C", seq`,
      [chunk],
    );
    const attached = await all<AttachmentRow>(
      c,
      `SELECT 'file' AS what, bookmark_id, name, size, mime FROM files WHERE kind = 'file' AND bookmark_id = ANY(?::bigint[])
       UNION ALL
       SELECT 'cache', bookmark_id, '', size, '' FROM bookmark_caches WHERE bookmark_id = ANY(?::bigint[])`,
      [chunk, chunk],
    );
    out.push(...assembleBookmarks(chunk, rows, hl, attached));
  }
  return out;
}
