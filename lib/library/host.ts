// The library page's one seam to its data. The same Preact UI runs in the extension (through the
// background: token, offline queue, offline copy) and in the web app served by the server (straight
// to the API with the session cookie); only the host differs. Components get it from context
// (components/library/host-context.ts) and never reach for messaging or the API themselves.
import type { HighlightColor } from '../api/constants.js';
import type { Article, ArticleState, Bookmark, HighlightListItem, Tag } from '../api/types.js';
import type { BookmarkChanges, ExportRequest } from '../messaging/schemas.js';
import type { BulkAction, BulkResult, BulkTarget, LibraryCollection, LibraryCollectionOp, LibraryListQuery, LibraryPage, NewReaderHighlight, ReaderHighlights, ReaderTarget, SavedCopy } from './types.js';

/** The library's collections as the sidebar shows them; `offline` when read from this device's last copy. */
export interface LibraryCollections {
  items: LibraryCollection[];
  offline: boolean;
}

/**
 * What the library asks of its host. Every method rejects with an Error whose message is for the
 * user; a rejection carrying `kind: 'unauthorized'` means signed out (the page shows `signIn`).
 */
export interface LibraryHost {
  /**
   * Changes made while the server cannot be reached wait in a queue and are sent later (answers
   * then say `queued: true`); when false they fail with a message saying so.
   */
  readonly queuesOffline: boolean;
  /** What an empty library says about how to save a first page here (the toolbar button, the + button...). */
  readonly firstSaveHint: string;

  /**
   * One page (50) of a listing. A newer first page with the same `channel` may cancel an older one
   * still on its way (the older one then rejects; its answer would be dropped anyway).
   */
  list(query: LibraryListQuery): Promise<LibraryPage>;
  collections(): Promise<LibraryCollections>;
  /** Every tag of the account with its count (search suggestions, the detail pane's tag input). */
  tags(): Promise<Tag[]>;
  /** One page (50) of highlights, of every collection (0) or of one. */
  highlights(collectionId: number, page: number): Promise<HighlightListItem[]>;

  /** One bookmark as the server has it (the reader opened by its address, before the list has it). */
  bookmark(id: number): Promise<Bookmark>;
  /** The reader's highlights of a bookmark, with their notes; in the extension with those made offline. */
  readerHighlights(target: ReaderTarget): Promise<ReaderHighlights>;
  /** Highlights made, recoloured, noted or deleted in the reader: stored like the highlighter's (the live page paints them). */
  addHighlight(target: ReaderTarget, highlight: NewReaderHighlight): Promise<ReaderHighlights & { key: string }>;
  changeHighlight(target: ReaderTarget, key: string, fields: { color?: HighlightColor; note?: string }): Promise<ReaderHighlights>;
  removeHighlight(target: ReaderTarget, key: string): Promise<ReaderHighlights>;

  /** One bookmark's fields changed from the detail pane. */
  updateBookmark(id: number, changes: BookmarkChanges): Promise<{ queued: boolean }>;
  /** A bulk change of the given bookmarks (their state before it, for Undo). */
  bulk(action: BulkAction, targets: BulkTarget[]): Promise<BulkResult>;
  /** Reverses `bulk(action, before)`; `queued` when that change waits in the offline queue. */
  undo(action: BulkAction, before: BulkTarget[], queued: boolean): Promise<BulkResult>;
  /** A change of every bookmark of one collection matching `search`, by the search (not by ids). */
  bulkMatching(action: BulkAction, collectionId: number, search: string): Promise<BulkResult>;
  undoMatching(action: BulkAction, collectionId: number, search: string): Promise<BulkResult>;
  /** Deletes everything in Trash for good; how many were deleted. */
  emptyTrash(): Promise<number>;
  /** A collection created, renamed, moved, deleted, merged, sorted or shared; a created one's id. */
  collectionOp(op: LibraryCollectionOp): Promise<number | null>;

  /** The export file, whole, ready to be offered as a download. */
  exportFile(request: ExportRequest): Promise<{ name: string; blob: Blob }>;
  /** A bookmark's permanent copy (sanitised HTML and the server's policy) for the saved-copy page. */
  savedCopy(bookmarkId: number): Promise<SavedCopy>;
  /** The page's extracted text (the reader view) and its state: indexed, pending, failed (with why) or none. */
  article(bookmarkId: number): Promise<Article>;
  /** Asks the server to fetch the page's text again (after a failure); the new state. */
  retryArticle(bookmarkId: number): Promise<ArticleState>;
  /** The address of the page that shows a bookmark's permanent copy. */
  savedCopyUrl(bookmarkId: number): string;
  /** Opens the highlight's page scrolled to it; false when it could not be shown there (the page says so). */
  openHighlight(link: string, highlightId: string): Promise<boolean>;

  /** Calls `cb` when the signed-in account changes (signed in, out, or another account); returns the unsubscribe. */
  onAccountChange(cb: () => void): () => void;
  /** Where a signed-out person goes to sign in, and the button's words. */
  readonly signIn: { label: string; open(): void };
}

/** Whether an error from the host means the person is signed out. */
export function isSignedOut(err: unknown): boolean {
  const e = err as { kind?: string; message?: string };
  return e.kind === 'unauthorized' || /signed out|sign in/i.test(e.message ?? '');
}
