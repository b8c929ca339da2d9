import type { Bookmark, Highlight, HighlightListItem } from '../../../lib/api/types.js';
import type { BookmarkType, HighlightColor } from '../../../lib/api/constants.js';
import type { Db } from '../../db/open.js';
import type { BookmarkRow } from '../types.js';

/** A `highlights` table row. */
export interface HighlightRow {
  id: string;
  bookmark_id: number;
  user_id: number;
  text: string;
  note: string;
  color: string;
  position: number | null;
  prefix: string | null;
  suffix: string | null;
  created: string;
  last_update: string;
}

export function toHighlight(row: HighlightRow): Highlight {
  const h: Highlight = {
    _id: row.id,
    text: row.text,
    note: row.note,
    color: row.color as HighlightColor,
    created: row.created,
    lastUpdate: row.last_update,
  };
  if (row.position !== null) h.position = row.position;
  if (row.prefix !== null) h.prefix = row.prefix;
  if (row.suffix !== null) h.suffix = row.suffix;
  return h;
}

export function toHighlightListItem(row: HighlightRow & { link: string; title: string; tags: string }): HighlightListItem {
  return { ...toHighlight(row), tags: JSON.parse(row.tags), link: row.link, title: row.title, bookmarkRef: row.bookmark_id };
}

/** The uploaded file a bookmark links to, and its permanent copy, when it has them. */
export interface BookmarkAttachments {
  file?: { name: string; size: number; type: string };
  cache?: { status: string; size: number };
}

export function toBookmark(row: BookmarkRow, highlights: HighlightRow[], extra: BookmarkAttachments = {}): Bookmark {
  return {
    ...extra,
    _id: row.id,
    link: row.link,
    title: row.title,
    excerpt: row.excerpt,
    note: row.note,
    type: row.type as BookmarkType,
    cover: row.cover,
    media: JSON.parse(row.media),
    tags: JSON.parse(row.tags),
    important: !!row.important,
    collection: { $id: row.collection_id },
    collectionId: row.collection_id,
    domain: row.domain,
    created: row.created,
    lastUpdate: row.last_update,
    sort: row.sort_order,
    highlights: highlights.map(toHighlight),
    removed: !!row.removed,
    user: { $id: row.user_id },
    creatorRef: row.creator_id,
  };
}

/**
 * Loads bookmarks with their highlights in two queries, keeping the order of `ids`.
 * Shared by the write and read repositories so both answer the same shape.
 */
export function loadBookmarks(db: Db, ids: number[]): Bookmark[] {
  if (ids.length === 0) return [];
  const out: Bookmark[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const marks = chunk.map(() => '?').join(',');
    const rows = db.prepare(`SELECT * FROM bookmarks WHERE id IN (${marks})`).all(...chunk) as BookmarkRow[];
    const hl = db
      .prepare(`SELECT * FROM highlights WHERE bookmark_id IN (${marks}) ORDER BY created, rowid`)
      .all(...chunk) as HighlightRow[];
    const byBookmark = new Map<number, HighlightRow[]>();
    for (const h of hl) {
      const list = byBookmark.get(h.bookmark_id);
      if (list) list.push(h);
      else byBookmark.set(h.bookmark_id, [h]);
    }
    const attachments = new Map<number, BookmarkAttachments>();
    const attached = db
      .prepare(
        `SELECT 'file' AS what, bookmark_id, name, size, mime FROM files WHERE kind = 'file' AND bookmark_id IN (${marks})
         UNION ALL
         SELECT 'cache', bookmark_id, '', size, '' FROM bookmark_caches WHERE bookmark_id IN (${marks})`,
      )
      .all(...chunk, ...chunk) as { what: 'file' | 'cache'; bookmark_id: number; name: string; size: number; mime: string }[];
    for (const a of attached) {
      const prev = attachments.get(a.bookmark_id) ?? {};
      if (a.what === 'file') prev.file = { name: a.name, size: a.size, type: a.mime };
      else prev.cache = { status: 'ready', size: a.size };
      attachments.set(a.bookmark_id, prev);
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of chunk) {
      const row = byId.get(id);
      if (row) out.push(toBookmark(row, byBookmark.get(id) ?? [], attachments.get(id)));
    }
  }
  return out;
}
