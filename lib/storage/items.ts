// Every piece of state the extension stores, declared once. storage items (item.ts) for extension storage;
// two IndexedDB records (lib/storage/idb.ts) for what only trusted contexts may read and for typed arrays.
import { SESSION_AREA } from '../browser-differences.js';
import { DEFAULT_SERVER_URL } from '../extension-id.js';
import type { Tag } from '../api/types.js';
import type { HighlightColor } from '../api/constants.js';
import { EMPTY_QUEUE, type Account, type BackgroundError, type CollectionOption, type Credential, type QueueState, type SavedIndexSnapshot, type SessionToken, type HighlightsCacheEntry } from '../model.js';
import { AUTO_PAINT_ASKED_KEY } from './auto-paint-asked.js';
import { idbRecord } from './idb.js';
import { defineItem } from './item.js';
import { memoItem } from './memo.js';
import type { BookmarkSyncDecision, BookmarkSyncSettings, BookmarkSyncStatus } from '../bookmark-sync/settings.js';
import type { Mirror } from '../bookmark-sync/types.js';

// --- settings (options page) ---
export const serverUrlItem = memoItem(defineItem<string>('local:serverUrl', { fallback: DEFAULT_SERVER_URL }));
/** Opening the popup on an unsaved page saves it at once; when off, the popup shows a Save button. */
export const saveOnOpenItem = memoItem(defineItem<boolean>('local:saveOnOpen', { fallback: true }));
export const badgeEnabledItem = memoItem(defineItem<boolean>('local:badgeEnabled', { fallback: true }));
/** Where new bookmarks go: a collection id, or null for "the last one used". */
export const defaultCollectionItem = memoItem(defineItem<number | null>('local:defaultCollection', { fallback: null }));

// --- account and tokens ---
export const accountItem = memoItem(defineItem<Account | null>('local:account', { fallback: null }));
/** Why the user was signed out without asking (expired sign-in), shown until the next sign-in. */
export const signedOutReasonItem = memoItem(defineItem<string | null>('local:signedOutReason', { fallback: null }));
/** The access token: storage.session is readable by trusted contexts only and cleared when the browser closes. */
export const sessionTokenItem = memoItem(defineItem<SessionToken | null>(`${SESSION_AREA}:accessToken`, { fallback: null }));
/** The refresh token (or a pasted test token): IndexedDB of the extension origin, trusted contexts only. */
export const credentialRecord = idbRecord<Credential>('credential');

// --- working state ---
export const lastCollectionItem = memoItem(defineItem<number>('local:lastCollection', { fallback: -1 }));
/** Most recently used collection ids, newest first. */
export const recentCollectionsItem = memoItem(defineItem<number[]>('local:recentCollections', { fallback: [] }));
export const collectionsCacheItem = memoItem(defineItem<{ owner: string; items: CollectionOption[]; fetchedAt: number } | null>(
  'local:collectionsCache',
  { fallback: null },
));
export const tagsCacheItem = defineItem<{ owner: string; items: Tag[]; fetchedAt: number } | null>('local:tagsCache', {
  fallback: null,
});
/** The offline queue: writes made while the server was unreachable, in order. */
export const queueItem = memoItem(defineItem<QueueState>('local:queue', { fallback: EMPTY_QUEUE }));
/** The saved-link index behind the badge. */
export const savedIndexRecord = idbRecord<SavedIndexSnapshot>('savedIndex');

// --- highlighting ---
/** The local copy of pages' highlights (with notes), by normalised link: extension storage, which web pages cannot read. */
export const highlightsCacheItem = defineItem<Record<string, HighlightsCacheEntry>>('local:highlightsCache', { fallback: {} });
/** A highlight made offline: the server's id of it once its queued write was delivered. */
export interface HighlightIdEntry {
  id: string;
  /** When it was delivered (epoch ms); the oldest are forgotten first. */
  at: number;
}
/**
 * Local highlight key (`l:<uuid>`) -> server id, for highlights made offline. Written by the offline
 * queue when it delivers their write (before the write leaves the queue), read when a later queued
 * change names the local key and when pages are shown, so the key a page painted keeps working
 * after delivery and after the service worker restarts.
 */
export const highlightIdsItem = memoItem(defineItem<Record<string, HighlightIdEntry>>('local:highlightIds', { fallback: {} }));
/** How often each colour was used, and the last one (the keyboard command's colour). */
export const highlightColorsItem = memoItem(
  defineItem<{ counts: Partial<Record<HighlightColor, number>>; last: HighlightColor }>('local:highlightColors', {
    fallback: { counts: {}, last: 'yellow' },
  }),
);
/** The automatic-painting question was answered (asked once). */
/** The last failure of a background job nobody waited for (sync, queue drain...): shown in the options page. */
export const lastBackgroundErrorItem = defineItem<BackgroundError | null>('local:lastBackgroundError', { fallback: null });

// Its key is declared apart (auto-paint-asked.ts) for the popup's first script, which reads it alone.
export const autoPaintAskedItem = memoItem(defineItem<boolean>(`local:${AUTO_PAINT_ASKED_KEY}`, { fallback: false }));

// --- sync with the browser's bookmarks (lib/background/bookmark-sync) ---
/** The options page's choices: on or off, the folder, what it mirrors. */
export const bookmarkSyncSettingsItem = defineItem<BookmarkSyncSettings>('local:bookmarkSync', { fallback: { enabled: false, folderId: null, scope: { kind: 'all' } } });
/** What the options page shows: last sync, pending changes, conflicts, the failsafe's question. */
export const bookmarkSyncStatusItem = defineItem<BookmarkSyncStatus | null>('local:bookmarkSyncStatus', { fallback: null });
/** The user's answer to the failsafe's question (the background takes it and clears it). */
export const bookmarkSyncDecisionItem = defineItem<BookmarkSyncDecision | null>('local:bookmarkSyncDecision', { fallback: null });
/** This device's mapping of browser ids to Tidemark ids and the last synced values (IndexedDB: it can be large). */
export const bookmarkSyncMirrorRecord = idbRecord<Mirror>('bookmarkSyncMirror');
