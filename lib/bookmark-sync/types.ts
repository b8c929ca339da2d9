// The shapes the bookmark sync works on. Pure data: the planning code (plan.ts, first-sync.ts) never
// calls a browser or the server, so it is tested in vitest; lib/background/bookmark-sync applies plans.

/** One node of the browser's bookmarks tree, as `bookmarks.getSubTree` gives it (the fields used). */
export interface BrowserNode {
  id: string;
  title: string;
  url?: string;
  /** When it was added (epoch ms): the first sync's later-wins rule for titles. */
  dateAdded?: number;
  /** Firefox: 'bookmark' | 'folder' | 'separator'. */
  type?: string;
  children?: BrowserNode[];
}

/** What the sync mirrors: every collection (the root folder's loose bookmarks are Unsorted), or one collection and those below it. */
export type SyncScope = { kind: 'all' } | { kind: 'collection'; id: number };

/** The Unsorted collection's id: where loose bookmarks of the folder go when all collections are mirrored. */
export const UNSORTED = -1;

/** A bookmark as last synced: what both sides agreed on. `ref` is `b:<server id>`, or `l:<uuid>` while its create waits in the queue. */
export interface MirroredBookmark {
  ref: string;
  url: string;
  /** normalizeUrl(url): compared with the server's link keys. */
  key: string;
  title: string;
  /** The browser folder it is in (the root folder's id for loose bookmarks). */
  parent: string;
}

/** A folder as last synced, and its collection. */
export interface MirroredFolder {
  collectionId: number;
  title: string;
  parent: string;
}

/** The per-device mapping of browser ids to Tidemark ids, with the last synced values (the base of three-way merging). */
export interface Mirror {
  /** `serverUrl|userId`: a mirror of another account is never used. */
  owner: string;
  rootId: string;
  scope: SyncScope;
  /** The `/links?since=` cursor of this mirror (its own: the badge's index keeps another). */
  cursor: number;
  bookmarks: Record<string, MirroredBookmark>;
  folders: Record<string, MirroredFolder>;
  /** Collections whose folder was deleted in the browser, to remove on the server once the queue is sent. */
  collectionRemovals: number[];
  /**
   * Server ids the first sync just created in batches: the next pull does not fetch them again when
   * the feed shows them where they were made (thousands of requests otherwise).
   */
  echoes?: number[];
}

/** A bookmark as the server has it now. */
export interface RemoteBookmark {
  id: number;
  link: string;
  key: string;
  title: string;
  collectionId: number;
  /** Epoch ms of its last change (the server's `lastUpdate`). */
  updatedAt: number;
}

export interface RemoteCollection {
  id: number;
  title: string;
  /** Parent collection id; 0 for a root collection. */
  parent: number;
}

export type Side = 'browser' | 'tidemark';

/**
 * One line of the conflicts log shown in the options page (conflicts.ts words it): changed on both
 * sides (`side` is where the kept change was made), deleted on `side` but changed on the other, or a
 * removed collection's folder kept for its new bookmarks.
 */
export type ConflictEntry = { at: number; title: string } & (
  | { kind: 'both'; field: 'title' | 'address' | 'folder'; side: Side }
  | { kind: 'deleted'; side: Side }
  | { kind: 'folder-kept' }
);
