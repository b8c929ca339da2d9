// The sync's settings and state as the options page and the background share them through extension storage.
import type { ConflictEntry, SyncScope } from './types.js';

export interface BookmarkSyncSettings {
  enabled: boolean;
  /** The browser folder mirrored; null: a "Tidemark" folder under "Other bookmarks" is created. */
  folderId: string | null;
  scope: SyncScope;
}

export type BookmarkSyncState = 'off' | 'syncing' | 'ok' | 'error' | 'held';

export interface BookmarkSyncStatus {
  state: BookmarkSyncState;
  /** Epoch ms of the last sync that finished. */
  lastSyncAt: number | null;
  /** Why the last pass stopped (the error's message; the options page says what happens next). */
  error: string | null;
  /** The sync turned itself off because another account signed in. */
  otherAccount: boolean;
  /** Bookmarks mirrored in the folder. */
  mirrored: number;
  conflicts: ConflictEntry[];
  /** The failsafe stopped a pass: it waits for the user's answer. */
  held: { serverRemovals: number; browserRemovals: number; mirrored: number } | null;
}

/** The failsafe's answer: go on and delete, or put the bookmarks back. */
export type BookmarkSyncDecision = 'apply' | 'keep';

export const FOLDER_TITLE = 'Tidemark';

/** The label of the sync's writes in the offline queue: the popup's list of waiting writes names them, and the options page counts them. */
export const SYNC_WRITE_LABEL = 'Browser bookmark';
