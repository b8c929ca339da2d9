// Shapes the library page and the background exchange (lib/messaging/protocol.ts declares the messages).
import type { Bookmark } from '../api/types.js';

/** A collection as the library's sidebar shows it. */
export interface LibraryCollection {
  id: number;
  title: string;
  parentId: number | null;
  count: number;
  /** 4 owner, 3 member, 2 viewer, 1 public read-only. */
  level: number;
  /** Shared with someone (or with the caller by someone else). */
  shared: boolean;
  /** Owned by someone else. */
  foreign: boolean;
  expanded: boolean;
  sort: number;
}

export interface LibraryListQuery {
  collectionId: number;
  search: string;
  sort: string;
  page: number;
  /** One library tab's list: its newer first page cancels its older list request still on the way. */
  channel?: string;
}

export interface LibraryPage {
  items: Bookmark[];
  count: number;
  /** Answered from the last copy kept on this device: the server could not be reached. */
  offline: boolean;
  /** When that copy was loaded (epoch ms); null when fresh. */
  cachedAt: number | null;
}

/** A bulk change: move, append tags, remove one tag, set favourite, to Trash, restore from Trash. */
export type BulkAction =
  | { kind: 'move'; to: number }
  | { kind: 'tag'; tags: string[] }
  | { kind: 'untag'; tag: string }
  | { kind: 'favourite'; value: boolean }
  | { kind: 'trash' }
  | { kind: 'restore' }
  | { kind: 'delete-forever' };

/** The bookmarks a bulk change acts on, as the page knows them (their state before the change, for Undo). */
export interface BulkTarget {
  id: number;
  collectionId: number;
  tags: string[];
  important: boolean;
}

export interface BulkResult {
  modified: number;
  /** Sent later: the server was unreachable (everything but deleting for good is queued). */
  queued: boolean;
  /** Whether Undo can reverse it. */
  undoable: boolean;
}

export type LibraryCollectionOp =
  | { op: 'create'; title: string; parentId: number | null }
  | { op: 'rename'; id: number; title: string }
  | { op: 'move'; id: number; parentId: number | null }
  | { op: 'delete'; id: number }
  | { op: 'merge'; ids: number[]; to: number }
  | { op: 'sort'; sort: string }
  | { op: 'share'; id: number; emails: string[]; role: 'member' | 'viewer' };


/** A bookmark's permanent copy as the background hands it to the saved-copy page. */
export interface SavedCopy {
  /** The sanitised HTML the server keeps (nothing in it runs: the page shows it in a sandboxed frame too). */
  html: string;
  /** The Content-Security-Policy the server serves the copy with. */
  csp: string;
  /** The address the copy was taken from. */
  pageUrl: string;
  /** When it was taken (ISO), when the server says. */
  savedAt: string | null;
}
