// THE message protocol of the extension: every runtime message between the popup, the options page,
// content scripts and the background, and every command from the background to a page's highlighter.
// Payload types are derived from the TypeBox schemas in lib/messaging/schemas.ts (which also say who
// may send each message); the background (lib/messaging/router.ts) checks what arrives against them.
import type { Static } from '@sinclair/typebox';
import type { Article, ArticleState, Bookmark, HighlightListItem as ApiHighlightListItem, Tag } from '../api/types.js';
import type { BulkResult, LibraryCollection, LibraryPage, ReaderHighlights, SavedCopy } from '../library/types.js';
import type { HighlightColor } from '../api/constants.js';
import type { Account, BookmarkDraft, CollectionOption, FailedWrite, QueuedWrite } from '../model.js';
import type { BookmarkRef } from '../bookmark-ref.js';
import type { MESSAGES, TAB_COMMANDS } from './schemas.js';

export type { AnchorStatus, HighlighterPart, HighlightOutcome, SenderKind } from './schemas.js';

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
   * to the stored ones when sent), never a replacement of fields it never saw. `serverUrl`, when
   * queued because the server could not be reached (now, or when the page was queued earlier): that
   * server (the popup names it); not set when the save only waits behind earlier writes.
   */
  | { state: 'saved'; bookmark: BookmarkDraft; created: boolean; queued: boolean; offline?: boolean; partial?: boolean; titleCutAt?: number; serverUrl?: string };

/** The server's new state of a page's text after it was sent, and where the page was cut to fit the upload limit (0: whole). */
export type TextSent = ArticleState & { cutAt: number };

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

interface StatusView {
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

interface Message<Data, Result> {
  data: Data;
  result: Result;
}

/** Per message to the background: what it answers. Its payload is declared in schemas.ts (MESSAGES). */
interface Results {
  getStatus: StatusView;
  /** The popup opened on tab `tabId`: find or create its bookmark. */
  popupOpened: PopupOpenResult;
  /** The popup's Save button (when "save on open" is off). */
  saveTab: PopupOpenResult;
  /** `append`: the popup's draft is partial (see PopupOpenResult): tags and note are additions. */
  /** `label`: how the offline queue names the write (the bookmark's title). */
  updateBookmark: WriteResult;
  removeBookmark: WriteResult;
  /** Undo of Remove: moves the bookmark back out of Trash. */
  restoreBookmark: WriteResult;
  listCollections: CollectionsView;
  createCollection: CollectionOption;
  listTags: Tag[];
  suggestTags: string[];
  getQueue: QueueView;
  /** Send queued writes now. */
  drainQueue: QueueView;
  /** Forget the list of queued writes the server refused (after the user has read it). */
  dismissFailures: QueueView;
  signIn: Account;
  useTestToken: Account;
  signOut: null;
  // --- highlighting (content script -> background) ---
  /** The loader asks for the highlighter (anchoring, painting) to be injected into its frame. */
  loadHighlighter: null;
  /** The highlighter asks for one of its on-demand parts (lib/highlighter/parts.ts) to be injected into its frame. */
  loadHighlighterPart: null;
  pageHighlights: PageHighlightsView;
  /** Saves the page first when it is not saved. `restore`: a highlight removed just now (Undo) whose note comes back. */
  addHighlight: PageHighlightsView & { key: string };
  changeHighlight: PageHighlightsView;
  removeHighlight: PageHighlightsView;
  /** "Edit note" on the page's toolbar: notes are edited in the popup only. */
  editHighlightNote: { opened: boolean };
  // --- highlighting (popup -> background) ---
  listHighlights: HighlightListView;
  setHighlightNote: HighlightListView;
  showHighlight: boolean;
  /** The user answered the automatic-painting question (true: granted). */
  autoPaintAnswered: null;
  // --- the side panel (page -> background) ---
  /** The panel follows tab `tabId`: its bookmark and highlights, or why there are none. */
  panelState: PanelView;
  setHighlightColor: HighlightListView;
  deleteHighlight: HighlightListView;
  /** Undo of deleteHighlight: the highlight comes back with its note. */
  restoreHighlight: HighlightListView;
  /** The page's toolbar asks for the side panel (opened while the user's click lasts). */
  openSidePanel: { opened: boolean };
  // --- the library's reader (page -> background) ---
  readerBookmark: Bookmark;
  readerHighlights: ReaderHighlights;
  readerAddHighlight: ReaderHighlights & { key: string };
  readerChangeHighlight: ReaderHighlights;
  // --- the library page (page -> background) ---
  libraryList: LibraryPage;
  libraryCollections: { items: LibraryCollection[]; offline: boolean };
  libraryHighlights: ApiHighlightListItem[];
  libraryBulk: BulkResult;
  /** Reverses the last bulk change: `before` holds the bookmarks as they were. */
  libraryUndo: BulkResult;
  libraryBulkMatching: BulkResult;
  libraryUndoMatching: BulkResult;
  libraryEmptyTrash: number;
  /** A created collection's id, else null. */
  libraryCollectionOp: number | null;
  /** Opens the bookmark's page in a new tab and scrolls to the highlight; false when it could not be shown there. */
  libraryOpenHighlight: boolean;
  /** A bookmark's permanent copy (HTML and the server's CSP) for the sandboxed saved-copy page. */
  librarySavedCopy: SavedCopy;
  // --- the page's text (library and popup -> background) ---
  /** The bookmark's extracted text and its state (lib/api/schemas/article.ts). */
  libraryArticle: Article;
  /** The server fetches the page's text again; its new state. */
  libraryRetryArticle: ArticleState;
  /** "Update text" in the popup: the tab's page serialised again and sent; the server's new state, and where the page was cut (0: whole). */
  updateArticleText: TextSent;
}

// Keyed by MESSAGES (a schema without a result fails here) and read by Results' keys (a result
// without a schema fails in DataOf): the two lists cannot differ.
type ProtocolMap = { [K in keyof typeof MESSAGES]: Message<Static<(typeof MESSAGES)[K]['data']>, Results[K]> };
export type MessageType = keyof Results;
export type DataOf<K extends MessageType> = ProtocolMap[K]['data'];
export type ResultOf<K extends MessageType> = ProtocolMap[K]['result'];

/** Background -> a page's highlighter: command -> payload -> answer (schemas in schemas.ts, TAB_COMMANDS). */
export type TabCommandType = keyof typeof TAB_COMMANDS;
export type TabDataOf<K extends TabCommandType> = Static<(typeof TAB_COMMANDS)[K]['data']>;
export type TabResultOf<K extends TabCommandType> = Static<(typeof TAB_COMMANDS)[K]['result']>;
/** A command on the wire (tabs.sendMessage). */
export interface TabCommand<K extends TabCommandType = TabCommandType> {
  tidemark: K;
  data: TabDataOf<K>;
}

/** Answers carry errors as data: thrown errors lose their kind on the way through the browser. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: { message: string; kind: string } };

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
