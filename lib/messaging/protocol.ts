// THE message protocol of the extension: every runtime message between the popup, the options page,
// content scripts and the background is declared here, with who may send it and a check of its
// payload. The background (lib/messaging/router.ts) refuses anything that does not match.
import type { HighlightListItem as ApiHighlightListItem, Tag } from '../api/types.js';
import type { BulkAction, BulkResult, BulkTarget, LibraryCollection, LibraryCollectionOp, LibraryListQuery, LibraryPage, SavedCopy } from '../library/types.js';
import { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';
import type { Account, BookmarkChanges, BookmarkDraft, BookmarkRef, CollectionOption, FailedWrite, QueuedWrite } from '../model.js';
import * as v from './validate.js';

/** Who sent a message: one of the extension's own pages, or a content script in a web page. */
export type SenderKind = 'page' | 'content';

/** What the page looks like, read from its metadata (or the tab's title and URL). */
export interface PageInfo {
  url: string;
  title: string;
  excerpt: string;
  cover: string;
  /** The page's title was longer than this many characters and was cut (the popup says so). */
  titleCutAt?: number;
}

export type PopupOpenResult =
  | { state: 'signed-out'; reason: string | null }
  | { state: 'unsupported'; reason: string }
  /** Not saved and "save on open" is off: the popup offers a Save button. */
  | { state: 'unsaved'; page: PageInfo }
  /**
   * `created`: saved just now; `queued`: the server is unreachable and the save waits in the queue.
   * `offline`: the server could not be reached to read the bookmark. `partial`: its stored fields are
   * not known here, so the draft holds only what this device adds (tags and a note to add, appended
   * to the stored ones when sent), never a replacement of fields it never saw.
   */
  | { state: 'saved'; bookmark: BookmarkDraft; created: boolean; queued: boolean; offline?: boolean; partial?: boolean; titleCutAt?: number };

export type WriteResult = { state: 'saved' | 'queued'; bookmark: BookmarkDraft | null };

export interface CollectionsView {
  items: CollectionOption[];
  /** Most recently used collection ids, newest first. */
  recent: number[];
}

export interface QueueView {
  /** The signed-in account's waiting writes. */
  entries: Pick<QueuedWrite, 'op' | 'label' | 'queuedAt' | 'attempts'>[];
  failures: FailedWrite[];
  /** Writes kept for other accounts (sent when the user signs in to that account again). */
  otherAccounts: number;
}

export interface StatusView {
  account: Account | null;
  signedOutReason: string | null;
  serverUrl: string;
  queue: QueueView;
}

/** A highlight as a content script knows it: where and how to paint it, never its note. */
export interface PageHighlight {
  /**
   * The server's highlight id, or `l:<uuid>` for a highlight made offline on this device. That key
   * stays valid after delivery: the background maps it to the server id (stored, so it survives a
   * worker restart).
   */
  key: string;
  text: string;
  color: HighlightColor;
  position?: number;
  prefix?: string;
  suffix?: string;
  hasNote: boolean;
}

/** The highlights of the page a content script is on. */
export interface PageHighlightsView {
  highlights: PageHighlight[];
  /** All 12 colours, the most used first. */
  colors: HighlightColor[];
  /** The colour of the last highlight made (the keyboard command uses it). */
  lastColor: HighlightColor;
}

/** A highlight as the popup lists it (with its note), and where it was found on the page. */
export interface HighlightListItem {
  key: string;
  text: string;
  color: HighlightColor;
  note: string;
  /** 'unknown': the page could not be asked (no access to the tab). */
  status: 'anchored' | 'orphan' | 'ambiguous' | 'unknown';
}

export interface HighlightListView {
  /** Anchored highlights in page order. */
  found: HighlightListItem[];
  /** "Not found on this page". */
  notFound: HighlightListItem[];
  /** The popup should ask (once) for the optional host permission for automatic painting. */
  askAutoPaint: boolean;
  /** A highlight to open the note editor for ("Highlight with note"). */
  editNoteOf: string | null;
}

/** What the side panel shows for the tab it follows. */
export type PanelView =
  | { state: 'signed-out'; reason: string | null }
  /** The tab's page cannot be read: a browser page, or a site Tidemark has no access to yet. */
  | { state: 'no-access'; reason: string; canAsk: boolean }
  | { state: 'unsupported'; reason: string }
  | { state: 'unsaved'; page: PageInfo }
  | { state: 'saved'; bookmark: BookmarkDraft; offline: boolean; partial: boolean; highlights: HighlightListView };

/** Background -> content script (tabs.sendMessage). */
/** The highlighter's scripts injected only when needed: the selection editor (toolbar, creating and changing highlights) and approximate anchoring. */
export const HIGHLIGHTER_PARTS = ['editor', 'approximate'] as const;
export type HighlighterPart = (typeof HIGHLIGHTER_PARTS)[number];

export type TabCommand =
  | { tidemark: 'highlight'; color: HighlightColor | null; withNote: boolean }
  | { tidemark: 'status' }
  | { tidemark: 'show'; key: string }
  | { tidemark: 'refresh' };

export interface AnchorStatus {
  key: string;
  status: 'anchored' | 'orphan' | 'ambiguous';
  /** Offset in the page's text (page order). */
  start: number;
}

interface Message<Data, Result> {
  data: Data;
  result: Result;
}

export interface ProtocolMap {
  getStatus: Message<null, StatusView>;
  /** The popup opened on tab `tabId`: find or create its bookmark. */
  popupOpened: Message<{ tabId: number }, PopupOpenResult>;
  /** The popup's Save button (when "save on open" is off). */
  saveTab: Message<{ tabId: number }, PopupOpenResult>;
  /** `append`: the popup's draft is partial (see PopupOpenResult): tags and note are additions. */
  /** `label`: how the offline queue names the write (the bookmark's title). */
  updateBookmark: Message<{ ref: BookmarkRef; changes: BookmarkChanges; append?: boolean; label?: string }, WriteResult>;
  removeBookmark: Message<{ ref: BookmarkRef }, WriteResult>;
  /** Undo of Remove: moves the bookmark back out of Trash. */
  restoreBookmark: Message<{ ref: BookmarkRef; collectionId: number }, WriteResult>;
  listCollections: Message<{ refresh: boolean }, CollectionsView>;
  createCollection: Message<{ title: string; parentId: number | null }, CollectionOption>;
  listTags: Message<null, Tag[]>;
  suggestTags: Message<{ ref: BookmarkRef }, string[]>;
  getQueue: Message<null, QueueView>;
  /** Send queued writes now. */
  drainQueue: Message<null, QueueView>;
  /** Forget the list of queued writes the server refused (after the user has read it). */
  dismissFailures: Message<null, QueueView>;
  signIn: Message<{ serverUrl: string }, Account>;
  useTestToken: Message<{ serverUrl: string; token: string }, Account>;
  signOut: Message<null, null>;
  // --- highlighting (content script -> background) ---
  /** The loader asks for the highlighter (anchoring, painting) to be injected into its frame. */
  loadHighlighter: Message<{ paint: boolean }, null>;
  /** The highlighter asks for one of its on-demand parts (lib/highlighter/parts.ts) to be injected into its frame. */
  loadHighlighterPart: Message<{ part: HighlighterPart }, null>;
  pageHighlights: Message<null, PageHighlightsView>;
  /** Saves the page first when it is not saved. `restore`: a highlight removed just now (Undo) whose note comes back. */
  addHighlight: Message<
    { text: string; position?: number; prefix?: string; suffix?: string; color: HighlightColor; restore?: string; withNote?: boolean },
    PageHighlightsView & { key: string }
  >;
  changeHighlight: Message<{ key: string; color: HighlightColor }, PageHighlightsView>;
  removeHighlight: Message<{ key: string }, PageHighlightsView>;
  /** "Edit note" on the page's toolbar: notes are edited in the popup only. */
  editHighlightNote: Message<{ key: string }, { opened: boolean }>;
  // --- highlighting (popup -> background) ---
  listHighlights: Message<{ tabId: number }, HighlightListView>;
  setHighlightNote: Message<{ tabId: number; key: string; note: string }, HighlightListView>;
  showHighlight: Message<{ tabId: number; key: string }, boolean>;
  /** The user answered the automatic-painting question (true: granted). */
  autoPaintAnswered: Message<{ granted: boolean }, null>;
  // --- the side panel (page -> background) ---
  /** The panel follows tab `tabId`: its bookmark and highlights, or why there are none. */
  panelState: Message<{ tabId: number }, PanelView>;
  setHighlightColor: Message<{ tabId: number; key: string; color: HighlightColor }, HighlightListView>;
  deleteHighlight: Message<{ tabId: number; key: string }, HighlightListView>;
  /** Undo of deleteHighlight: the highlight comes back with its note. */
  restoreHighlight: Message<{ tabId: number; key: string }, HighlightListView>;
  /** The page's toolbar asks for the side panel (opened while the user's click lasts). */
  openSidePanel: Message<null, { opened: boolean }>;
  // --- the library page (page -> background) ---
  libraryList: Message<LibraryListQuery, LibraryPage>;
  libraryCollections: Message<null, { items: LibraryCollection[]; offline: boolean }>;
  libraryHighlights: Message<{ collectionId: number; page: number }, ApiHighlightListItem[]>;
  libraryBulk: Message<{ action: BulkAction; targets: BulkTarget[] }, BulkResult>;
  /** Reverses the last bulk change: `before` holds the bookmarks as they were. */
  libraryUndo: Message<{ action: BulkAction; before: BulkTarget[]; queued?: boolean }, BulkResult>;
  libraryEmptyTrash: Message<null, number>;
  libraryCollectionOp: Message<LibraryCollectionOp, unknown>;
  libraryExport: Message<{ collectionId: number; format: 'html' | 'csv' | 'md'; search: string }, { name: string; type: string; text: string }>;
  /** Opens the bookmark's page in a new tab and scrolls to the highlight; false when it could not be shown there. */
  libraryOpenHighlight: Message<{ link: string; highlightId: string }, boolean>;
  /** A bookmark's permanent copy (HTML and the server's CSP) for the sandboxed saved-copy page. */
  librarySavedCopy: Message<{ bookmarkId: number }, SavedCopy>;
}

export type MessageType = keyof ProtocolMap;
export type DataOf<K extends MessageType> = ProtocolMap[K]['data'];
export type ResultOf<K extends MessageType> = ProtocolMap[K]['result'];

/** The envelope on the wire. */
export interface Envelope<K extends MessageType = MessageType> {
  type: K;
  data: DataOf<K>;
}

/** Answers carry errors as data: thrown errors lose their kind on the way through the browser. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: { message: string; kind: string } };

const changes = v.object({
  title: v.optional(v.str(10_000)),
  excerpt: v.optional(v.str(100_000)),
  note: v.optional(v.str(100_000)),
  tags: v.optional(v.array(v.str(200, 1), 500)),
  important: v.optional(v.bool),
  collectionId: v.optional(v.int()),
});
const tabId = v.object({ tabId: v.int(0) });
const color = v.oneOf(...HIGHLIGHT_COLORS);
const highlightKey = v.str(64, 1);
const bulkTarget = v.object({ id: v.int(1), collectionId: v.int(), tags: v.array(v.str(200), 500), important: v.bool });
const bulkAction = v.tagged('kind', {
  move: v.object({ kind: v.str(20), to: v.int() }),
  tag: v.object({ kind: v.str(20), tags: v.array(v.str(200, 1), 100) }),
  untag: v.object({ kind: v.str(20), tag: v.str(200, 1) }),
  favourite: v.object({ kind: v.str(20), value: v.bool }),
  trash: v.object({ kind: v.str(20) }),
  restore: v.object({ kind: v.str(20) }),
  'delete-forever': v.object({ kind: v.str(20) }),
});

/** Per message: which senders may send it and what its payload must look like. */
export const RULES: { [K in MessageType]: { from: readonly SenderKind[]; data: v.Check } } = {
  getStatus: { from: ['page'], data: v.nothing },
  popupOpened: { from: ['page'], data: tabId },
  saveTab: { from: ['page'], data: tabId },
  updateBookmark: { from: ['page'], data: v.object({ ref: v.bookmarkRef, changes, append: v.optional(v.bool), label: v.optional(v.str(500)) }) },
  removeBookmark: { from: ['page'], data: v.object({ ref: v.bookmarkRef }) },
  restoreBookmark: { from: ['page'], data: v.object({ ref: v.bookmarkRef, collectionId: v.int() }) },
  listCollections: { from: ['page'], data: v.object({ refresh: v.bool }) },
  createCollection: { from: ['page'], data: v.object({ title: v.str(500, 1), parentId: v.nullable(v.int(1)) }) },
  listTags: { from: ['page'], data: v.nothing },
  suggestTags: { from: ['page'], data: v.object({ ref: v.bookmarkRef }) },
  getQueue: { from: ['page'], data: v.nothing },
  drainQueue: { from: ['page'], data: v.nothing },
  dismissFailures: { from: ['page'], data: v.nothing },
  signIn: { from: ['page'], data: v.object({ serverUrl: v.httpUrl }) },
  useTestToken: { from: ['page'], data: v.object({ serverUrl: v.httpUrl, token: v.str(500, 8) }) },
  signOut: { from: ['page'], data: v.nothing },
  loadHighlighter: { from: ['content'], data: v.object({ paint: v.bool }) },
  loadHighlighterPart: { from: ['content'], data: v.object({ part: v.oneOf(...HIGHLIGHTER_PARTS) }) },
  pageHighlights: { from: ['content'], data: v.nothing },
  addHighlight: {
    from: ['content'],
    data: v.object({
      text: v.str(10_000, 1),
      position: v.optional(v.int(0)),
      prefix: v.optional(v.str(200)),
      suffix: v.optional(v.str(200)),
      color,
      restore: v.optional(highlightKey),
      withNote: v.optional(v.bool),
    }),
  },
  changeHighlight: { from: ['content'], data: v.object({ key: highlightKey, color }) },
  removeHighlight: { from: ['content'], data: v.object({ key: highlightKey }) },
  editHighlightNote: { from: ['content'], data: v.object({ key: highlightKey }) },
  listHighlights: { from: ['page'], data: tabId },
  setHighlightNote: { from: ['page'], data: v.object({ tabId: v.int(0), key: highlightKey, note: v.str(10_000) }) },
  showHighlight: { from: ['page'], data: v.object({ tabId: v.int(0), key: highlightKey }) },
  autoPaintAnswered: { from: ['page'], data: v.object({ granted: v.bool }) },
  panelState: { from: ['page'], data: tabId },
  setHighlightColor: { from: ['page'], data: v.object({ tabId: v.int(0), key: highlightKey, color }) },
  deleteHighlight: { from: ['page'], data: v.object({ tabId: v.int(0), key: highlightKey }) },
  restoreHighlight: { from: ['page'], data: v.object({ tabId: v.int(0), key: highlightKey }) },
  openSidePanel: { from: ['content'], data: v.nothing },
  libraryList: {
    from: ['page'],
    data: v.object({ collectionId: v.int(), search: v.str(2000), sort: v.str(20), page: v.int(0, 100_000), channel: v.optional(v.str(64)) }),
  },
  libraryCollections: { from: ['page'], data: v.nothing },
  libraryHighlights: { from: ['page'], data: v.object({ collectionId: v.int(), page: v.int(0, 100_000) }) },
  libraryBulk: { from: ['page'], data: v.object({ action: bulkAction, targets: v.array(bulkTarget, 10_000) }) },
  libraryUndo: { from: ['page'], data: v.object({ action: bulkAction, before: v.array(bulkTarget, 10_000), queued: v.optional(v.bool) }) },
  libraryEmptyTrash: { from: ['page'], data: v.nothing },
  libraryCollectionOp: {
    from: ['page'],
    data: v.tagged('op', {
      create: v.object({ op: v.str(10), title: v.str(500, 1), parentId: v.nullable(v.int(1)) }),
      rename: v.object({ op: v.str(10), id: v.int(1), title: v.str(500, 1) }),
      move: v.object({ op: v.str(10), id: v.int(1), parentId: v.nullable(v.int(1)) }),
      delete: v.object({ op: v.str(10), id: v.int(1) }),
      merge: v.object({ op: v.str(10), ids: v.array(v.int(1), 100), to: v.int(-1) }),
      sort: v.object({ op: v.str(10), sort: v.oneOf('title', '-title', '-count') }),
      share: v.object({ op: v.str(10), id: v.int(1), emails: v.array(v.str(320, 3), 10), role: v.oneOf('member', 'viewer') }),
    }),
  },
  libraryExport: { from: ['page'], data: v.object({ collectionId: v.int(), format: v.oneOf('html', 'csv', 'md'), search: v.str(2000) }) },
  libraryOpenHighlight: { from: ['page'], data: v.object({ link: v.httpUrl, highlightId: highlightKey }) },
  librarySavedCopy: { from: ['page'], data: v.object({ bookmarkId: v.int(1) }) },
};

/** Background -> pages notifications (broadcast; pages re-read what changed). */
export interface EventMap {
  authChanged: { account: Account | null; signedOutReason: string | null };
  queueChanged: QueueView;
  /** A write finished: the popup updates its Saving/Saved/Queued state. */
  bookmarkWritten: { ref: BookmarkRef; result: WriteResult };
  collectionsChanged: CollectionsView;
  /** Highlights changed (on the page, in the panel or the popup): `tabId` when one tab's page, else null. */
  highlightsChanged: { tabId: number | null };
}

export interface EventEnvelope<E extends keyof EventMap = keyof EventMap> {
  event: E;
  data: EventMap[E];
}

export function isEnvelope(x: unknown): x is { type: string; data: unknown } {
  return !!x && typeof x === 'object' && typeof (x as { type?: unknown }).type === 'string' && Object.hasOwn(RULES, (x as { type: string }).type);
}

export function isEventEnvelope(x: unknown): x is EventEnvelope {
  return !!x && typeof x === 'object' && typeof (x as { event?: unknown }).event === 'string';
}
