// Shapes the library page and the background exchange (lib/messaging/protocol.ts declares the messages).
import type { HighlightColor } from '../api/constants.js';
import type { Bookmark } from '../api/types.js';
import type { StoredHighlight } from '../model.js';

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

/** The bookmark the reader shows, named by its id and its address (the extension keeps highlights by address). */
export interface ReaderTarget {
  bookmarkId: number;
  link: string;
}

/** A bookmark's highlights as the reader paints and lists them (with their notes), and the toolbar's colours. */
export interface ReaderHighlights {
  /** `key`: the server's id, or in the extension a local key for one made offline and not yet delivered. */
  items: StoredHighlight[];
  /** All colours, the most used first. */
  colors: HighlightColor[];
  lastColor: HighlightColor;
}

/** A new highlight from the reader: described as the highlighter describes one (lib/anchoring). */
export interface NewReaderHighlight {
  text: string;
  position?: number;
  prefix?: string;
  suffix?: string;
  color: HighlightColor;
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
