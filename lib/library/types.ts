// Shapes the library page and the background exchange (lib/messaging/protocol.ts declares the messages).
import type { Bookmark } from '../api/types.js';

// Declared with the messages that carry them (TypeBox schemas, checked on arrival).
export type { BulkAction, BulkTarget, LibraryCollectionOp, LibraryListQuery } from '../messaging/schemas.js';

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

export interface LibraryPage {
  items: Bookmark[];
  count: number;
  /** Answered from the last copy kept on this device: the server could not be reached. */
  offline: boolean;
  /** When that copy was loaded (epoch ms); null when fresh. */
  cachedAt: number | null;
}

export interface BulkResult {
  modified: number;
  /** Sent later: the server was unreachable (everything but deleting for good is queued). */
  queued: boolean;
  /** Whether Undo can reverse it. */
  undoable: boolean;
}



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
  /**
   * Where the frame loads the copy itself from, when the page can (the web app: the API's address on
   * its own origin, served with the server's policy). A srcdoc frame would take the embedding page's
   * policy, and the web app's forbids the copy's own styles.
   */
  frameUrl?: string;
}
