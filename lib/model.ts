// Shapes the extension keeps and passes around (background <-> popup/options). Server resource
// types come from lib/api/types.ts; these are the extension's own views of them.
import type { Bookmark, BookmarkCreate, BookmarkUpdate, Highlight } from './api/types.js';
import type { BookmarkChanges } from './messaging/schemas.js';
import { refOf, type BookmarkRef } from './bookmark-ref.js';

/** A background job's failure, as the options page shows it. */
export interface BackgroundError {
  /** What failed, in words ("saved-link index sync"). */
  job: string;
  message: string;
  /** Date.now() of the failure. */
  at: number;
}

/** The signed-in account as shown in the UI (no secrets). */
export interface Account {
  userId: number;
  name: string;
  email: string;
  serverUrl: string;
  method: 'oauth' | 'test-token';
}

/** The long-lived credential, kept in the extension's IndexedDB (trusted contexts only). */
export type Credential =
  | { kind: 'oauth'; serverUrl: string; refreshToken: string }
  | { kind: 'test-token'; serverUrl: string; token: string };

/** The short-lived access token, in storage.session (trusted contexts only, gone on browser exit). */
export interface SessionToken {
  serverUrl: string;
  token: string;
  /** Epoch ms; null for test tokens, which do not expire. */
  expiresAt: number | null;
}

/** A collection as the picker shows it. */
export interface CollectionOption {
  id: number;
  title: string;
  /** Titles from the root down, e.g. ["Work", "Reading"]. */
  path: string[];
  parentId: number | null;
  count: number;
}

/** What the popup's form edits: the bookmark's fields it shows, named by `ref`. */
export type BookmarkDraft = { ref: BookmarkRef } & Pick<
  Bookmark,
  'link' | 'title' | 'excerpt' | 'note' | 'tags' | 'important' | 'collectionId' | 'cover' | 'removed'
>;

export function draftOf(b: Bookmark): BookmarkDraft {
  return {
    ref: refOf(b._id),
    link: b.link,
    title: b.title,
    excerpt: b.excerpt,
    note: b.note,
    tags: b.tags,
    important: b.important,
    collectionId: b.collectionId,
    cover: b.cover,
    removed: b.removed,
  };
}

/** Fields the popup changes on a bookmark (declared with the messages that carry them). */
export type { BookmarkChanges };

export function toUpdateBody(changes: BookmarkChanges): BookmarkUpdate {
  const { collectionId, ...rest } = changes;
  const body: BookmarkUpdate = { ...rest };
  if (collectionId !== undefined) body.collection = { $id: collectionId };
  return body;
}

/**
 * Additions to a bookmark whose stored fields are not known here (edited offline before the popup
 * ever saw it): tags are added to the server's tags, a note is added below the server's note. Never
 * a replacement of what was not seen. Merged with what the server has when the write is sent.
 */
export interface AppendChanges {
  tags?: string[];
  note?: string;
}

/** One write waiting in the offline queue. */
export type QueuedWrite =
  | { seq: number; op: 'create'; ref: `l:${string}`; body: BookmarkCreate; key: string; userId: number; serverUrl: string; label: string; queuedAt: number; attempts: number }
  | { seq: number; op: 'update'; ref: BookmarkRef; body: BookmarkUpdate; append?: AppendChanges; key: string; userId: number; serverUrl: string; label: string; queuedAt: number; attempts: number }
  | { seq: number; op: 'remove'; ref: BookmarkRef; key: string; userId: number; serverUrl: string; label: string; queuedAt: number; attempts: number }
  /** A library bulk change (PUT/DELETE /bookmarks/{collectionId} for `ids`); `ref` names its first bookmark. */
  | { seq: number; op: 'bulk'; ref: BookmarkRef; method: 'PUT' | 'DELETE'; collectionId: number; ids: number[]; body: Record<string, unknown>; key: string; userId: number; serverUrl: string; label: string; queuedAt: number; attempts: number };

/** A queued write the server refused for good (shown to the user, then dropped). */
export interface FailedWrite {
  op: QueuedWrite['op'];
  label: string;
  message: string;
  at: number;
}

export interface QueueState {
  nextSeq: number;
  entries: QueuedWrite[];
  /** Local ref -> server id, once the queued create went through. */
  resolved: Record<string, number>;
  failures: FailedWrite[];
}

export const EMPTY_QUEUE: QueueState = { nextSeq: 1, entries: [], resolved: {}, failures: [] };

/** The persisted saved-link index (see lib/background/saved-index.ts). */
export interface SavedIndexSnapshot {
  serverUrl: string;
  userId: number;
  /** The URL key version its keys were made with (lib/api/url.ts); absent in snapshots before it: 1. */
  keyVersion?: number;
  cursor: number;
  syncedAt: number;
  hashes: Float64Array;
  ids: Int32Array;
  collections: Int32Array;
}

/** A highlight as the background keeps it (the server's fields; `key` is its _id, or `l:<uuid>` while queued). */
export type StoredHighlight = { key: string } & Pick<Highlight, 'text' | 'color' | 'note' | 'position' | 'prefix' | 'suffix'>;

/** The local copy of one page's highlights. */
export interface HighlightsCacheEntry {
  ref: BookmarkRef;
  items: StoredHighlight[];
  at: number;
}
