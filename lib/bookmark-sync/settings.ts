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
  /** What went wrong last, for a person (what happened and what to do). */
  error: string | null;
  /** Browser changes waiting in the offline queue. */
  pending: number;
  /** Bookmarks mirrored in the folder. */
  mirrored: number;
  /** The folder's title (shown in the options page). */
  folderTitle: string | null;
  conflicts: ConflictEntry[];
  /** The failsafe stopped a pass: it waits for the user's answer. */
  held: { serverRemovals: number; browserRemovals: number; mirrored: number } | null;
}

/** The failsafe's answer: go on and delete, or put the bookmarks back. */
export type BookmarkSyncDecision = 'apply' | 'keep';

export const FOLDER_TITLE = 'Tidemark';
