// How stored bookmark and highlight rows become API records, and the rules of bookmark writes that
// do not depend on the database: the same on every backend, so both answer and change alike.
import type { Bookmark, Highlight, HighlightChange, HighlightListItem, Media } from '../../lib/api/types.js';
import { DEFAULT_HIGHLIGHT_COLOR, type BookmarkType, type HighlightColor } from '../../lib/api/constants.js';
import type { Clock } from '../clock.js';
import { badRequest } from '../errors.js';
import { objectId } from '../domain/secrets.js';
import type { BookmarkChanges, BookmarkRow, BulkChanges, NewBookmark, NewHighlight } from './types/index.js';
import { TRASH } from '../../lib/api/constants.js';

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

function toHighlight(row: HighlightRow): Highlight {
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
interface BookmarkAttachments {
  file?: { name: string; size: number; type: string };
  cache?: { status: string; size: number };
}

/** An uploaded file or a permanent copy of a bookmark, as the attachment query reads them. */
export interface AttachmentRow {
  what: 'file' | 'cache';
  bookmark_id: number;
  name: string;
  size: number;
  mime: string;
}

function toBookmark(row: BookmarkRow, highlights: HighlightRow[], extra: BookmarkAttachments = {}): Bookmark {
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
 * Bookmarks in the order of `ids` from their rows, their highlights (in display order) and their
 * attachments; ids without a row are left out.
 */
export function assembleBookmarks(ids: number[], rows: BookmarkRow[], highlights: HighlightRow[], attached: AttachmentRow[]): Bookmark[] {
  const byBookmark = new Map<number, HighlightRow[]>();
  for (const h of highlights) {
    const list = byBookmark.get(h.bookmark_id);
    if (list) list.push(h);
    else byBookmark.set(h.bookmark_id, [h]);
  }
  const attachments = new Map<number, BookmarkAttachments>();
  for (const a of attached) {
    const prev = attachments.get(a.bookmark_id) ?? {};
    if (a.what === 'file') prev.file = { name: a.name, size: a.size, type: a.mime };
    else prev.cache = { status: 'ready', size: a.size };
    attachments.set(a.bookmark_id, prev);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: Bookmark[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) out.push(toBookmark(row, byBookmark.get(id) ?? [], attachments.get(id)));
  }
  return out;
}

/** How many ids one lookup asks for at most. */
const ID_CHUNK = 500;

export function chunks<T>(list: T[], size = ID_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * ORDER BY clauses of the bookmark sorts over `bookmarks b`; ties always fall back to newest first
 * and then id, so pages never overlap. `caseless(col)` orders text ignoring ASCII case (SQLite's
 * NOCASE), `bytes(col)` by code point, as each backend spells them.
 */
export function bookmarkOrders(caseless: (col: string) => string, bytes: (col: string) => string): Record<string, string> {
  return {
    '-created': `${bytes('b.created')} DESC, b.id DESC`,
    created: `${bytes('b.created')} ASC, b.id ASC`,
    // Manual order: `order`/sort 0 comes first.
    '-sort': `b.sort_order ASC, ${bytes('b.created')} DESC, b.id DESC`,
    sort: `b.sort_order DESC, ${bytes('b.created')} ASC, b.id ASC`,
    title: `${caseless('b.title')} ASC, ${bytes('b.created')} DESC, b.id DESC`,
    '-title': `${caseless('b.title')} DESC, ${bytes('b.created')} DESC, b.id DESC`,
    domain: `${bytes('b.domain')} ASC, ${bytes('b.created')} DESC, b.id DESC`,
    '-domain': `${bytes('b.domain')} DESC, ${bytes('b.created')} DESC, b.id DESC`,
    '-lastUpdate': `${bytes('b.last_update')} DESC, b.id DESC`,
  };
}

/** Rows for new highlights of a bookmark, in the order sent (their ids sort in that order too). */
export function newHighlightRows(bookmarkId: number, ownerId: number, list: NewHighlight[], now: string, clock: Clock): HighlightRow[] {
  // Same time prefix, so sorting the batch keeps `created, id` order equal to the order sent.
  const ids = list.map(() => objectId(clock.now())).sort();
  return list.map((h, i) => ({
    id: ids[i],
    bookmark_id: bookmarkId,
    user_id: ownerId,
    text: h.text,
    note: h.note ?? '',
    color: h.color ?? DEFAULT_HIGHLIGHT_COLOR,
    position: h.position ?? null,
    prefix: h.prefix ?? null,
    suffix: h.suffix ?? null,
    created: now,
    last_update: now,
  }));
}

/** What a list of highlight changes does to a bookmark's highlights. */
interface HighlightPlan {
  remove: string[];
  /** Existing highlights with their new values (each id once). */
  update: HighlightRow[];
  add: NewHighlight[];
}

/**
 * Works out add / update / remove from the changes, applied in the order sent, against the
 * bookmark's current highlights. Throws a 400 ApiError naming the entry (`highlights.N`) for an
 * `_id` the bookmark does not have (or no longer has, removed by an earlier entry), or a blank text.
 */
export function planHighlightChanges(bookmarkId: number, current: HighlightRow[], changes: HighlightChange[], now: string): HighlightPlan {
  const live = new Map(current.map((h) => [h.id, h]));
  const updated = new Map<string, HighlightRow>();
  const remove: string[] = [];
  const add: NewHighlight[] = [];
  changes.forEach((change, i) => {
    const field = `highlights.${i}`;
    if (!change._id) {
      if (change.text === undefined || change.text.trim() === '') {
        throw badRequest(`${field}.text is required to add a highlight: send the highlighted text (or an _id to change an existing one)`);
      }
      add.push(change as NewHighlight);
      return;
    }
    const row = live.get(change._id);
    if (!row) {
      throw badRequest(`${field}._id ${change._id} is not a highlight of bookmark ${bookmarkId}: leave _id out to add a new one`);
    }
    if (change.text === '') {
      live.delete(row.id);
      updated.delete(row.id);
      remove.push(row.id);
      return;
    }
    if (change.text !== undefined && change.text.trim() === '') {
      throw badRequest(`${field}.text must not be blank: send the text, or "" to remove the highlight`);
    }
    const next: HighlightRow = {
      ...row,
      text: change.text ?? row.text,
      note: change.note ?? row.note,
      color: change.color ?? row.color,
      position: change.position ?? row.position,
      prefix: change.prefix ?? row.prefix,
      suffix: change.suffix ?? row.suffix,
      last_update: now,
    };
    live.set(row.id, next);
    updated.set(row.id, next);
  });
  return { remove, update: [...updated.values()], add };
}

/** The tags of `add` a bookmark with `tags` does not carry yet (exact spelling), in the order given. */
export function tagsToAppend(tags: string[], add: string[]): string[] {
  const have = new Set(tags);
  return add.filter((t) => !have.has(t));
}

/** The media of `add` (by link) a bookmark with `media` does not have yet. */
export function mediaToAppend(media: Media[], add: Media[]): Media[] {
  const have = new Set(media.map((m) => m.link));
  return add.filter((m) => !have.has(m.link));
}

/** The bookmark columns a change of its fields sets, with the values to store (`last_update` and placement aside). */
export function changedColumns(changes: BookmarkChanges): [column: string, value: unknown][] {
  const out: [string, unknown][] = [];
  if (changes.link) out.push(['link', changes.link.link], ['link_key', changes.link.linkKey], ['domain', changes.link.domain]);
  if (changes.title !== undefined) out.push(['title', changes.title]);
  if (changes.excerpt !== undefined) out.push(['excerpt', changes.excerpt]);
  if (changes.note !== undefined) out.push(['note', changes.note]);
  if (changes.type !== undefined) out.push(['type', changes.type]);
  if (changes.cover !== undefined) out.push(['cover', changes.cover]);
  if (changes.media !== undefined) out.push(['media', JSON.stringify(changes.media)]);
  if (changes.important !== undefined) out.push(['important', changes.important ? 1 : 0]);
  if (changes.created !== undefined) out.push(['created', changes.created]);
  if (changes.tags !== undefined) out.push(['tags', JSON.stringify(changes.tags)]);
  return out;
}

/** A new bookmark's stored columns (its id, `broken` and `lang` aside: the database gives those). */
type BookmarkInsert = Omit<BookmarkRow, 'id' | 'broken' | 'lang'>;

export function bookmarkInsert(item: NewBookmark, sort: number, now: string): BookmarkInsert {
  return {
    user_id: item.ownerId,
    creator_id: item.creatorId,
    collection_id: item.collectionId,
    link: item.link,
    link_key: item.linkKey,
    domain: item.domain,
    title: item.title,
    excerpt: item.excerpt,
    note: item.note,
    type: item.type,
    cover: item.cover,
    media: JSON.stringify(item.media),
    tags: JSON.stringify(item.tags),
    important: item.important ? 1 : 0,
    sort_order: sort,
    removed: item.collectionId === TRASH ? 1 : 0,
    created: item.created ?? now,
    last_update: item.lastUpdate ?? now,
  };
}

/**
 * The SET list (`?` placeholders) and values a bulk change writes to every bookmark alike:
 * last_update, favourite, cover, and emptied tags or media (`[]`). Appending is per bookmark.
 */
export function bulkSet(changes: BulkChanges, now: string): { set: string; values: unknown[] } {
  const columns: [string, unknown][] = [['last_update', now]];
  if (changes.important !== undefined) columns.push(['important', changes.important ? 1 : 0]);
  if (changes.cover !== undefined) columns.push(['cover', changes.cover]);
  if (changes.tags?.length === 0) columns.push(['tags', '[]']);
  if (changes.media?.length === 0) columns.push(['media', '[]']);
  return { set: columns.map(([c]) => `${c} = ?`).join(', '), values: columns.map(([, v]) => v) };
}
