// The payloads of the extension's runtime messages as TypeBox schemas: THE declaration of each
// message's shape. Their types (lib/messaging/protocol.ts) are derived from these, and the background
// checks what arrives against the same schemas (lib/messaging/check.ts reads their JSON), so the
// type and the check cannot drift apart.
//
// Imported as values only by the background: content scripts and pages import types from here.
// Built with typebox-lite.ts (TypeBox's schemas and types, without its builders' clone machinery);
// TypeBox's `Type` namespace and compiler would add 12-16 KB gzipped to the background.
import { Bool, Integer, List, Literal, Null, Obj, Optional, Str, Union, Unsafe, type Static, type TSchema } from './typebox-lite.js';
import { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';
import type { BookmarkRef } from '../bookmark-ref.js';

/** Who sent a message: one of the extension's own pages, or a content script in a web page. */
export type SenderKind = 'page' | 'content';

const int = (minimum = -(2 ** 31), maximum = 2 ** 31 - 1) => Integer({ minimum, maximum });
const text = (maxLength: number, minLength = 0) => Str({ minLength, maxLength });
const oneOf = <T extends string>(values: readonly T[]) => Union(values.map((v) => Literal(v)));
const nullable = <T extends TSchema>(s: T) => Union([s, Null()]);
/** `b:<positive id>` or `l:<local id>`. */
const bookmarkRef = Unsafe<BookmarkRef>(Str({ maxLength: 70, description: 'a bookmark reference', pattern: '^(?:b:[1-9]\\d{0,15}|l:[\\w-]{1,64})$' }));
/** An http(s) URL of at most 2048 characters (check.ts knows the format). */
const httpUrl = Str({ maxLength: 2048, format: 'http-url' });
const color = oneOf<HighlightColor>(HIGHLIGHT_COLORS);
const highlightKey = text(64, 1);
const tabId = Obj({ tabId: int(0) });
const tabKey = Obj({ tabId: int(0), key: highlightKey });

/** Fields the popup changes on a bookmark. */
export const BookmarkChanges = Obj({
  title: Optional(text(10_000)),
  excerpt: Optional(text(100_000)),
  note: Optional(text(100_000)),
  tags: Optional(List(text(200, 1), { maxItems: 500 })),
  important: Optional(Bool()),
  collectionId: Optional(int()),
});
export type BookmarkChanges = Static<typeof BookmarkChanges>;

export const LibraryListQuery = Obj({
  collectionId: int(),
  search: text(2000),
  sort: text(20),
  page: int(0, 100_000),
  /** One library tab's list: its newer first page cancels its older list request still on the way. */
  channel: Optional(text(64)),
});
export type LibraryListQuery = Static<typeof LibraryListQuery>;

/** A bulk change: move, append tags, remove one tag, set favourite, to Trash, restore from Trash. */
export const BulkAction = Union([
  Obj({ kind: Literal('move'), to: int() }),
  Obj({ kind: Literal('tag'), tags: List(text(200, 1), { maxItems: 100 }) }),
  Obj({ kind: Literal('untag'), tag: text(200, 1) }),
  Obj({ kind: Literal('favourite'), value: Bool() }),
  Obj({ kind: Literal('trash') }),
  Obj({ kind: Literal('restore') }),
  Obj({ kind: Literal('delete-forever') }),
]);
export type BulkAction = Static<typeof BulkAction>;

/** The bookmarks a bulk change acts on, as the page knows them (their state before the change, for Undo). */
export const BulkTarget = Obj({ id: int(1), collectionId: int(), tags: List(text(200), { maxItems: 500 }), important: Bool() });
export type BulkTarget = Static<typeof BulkTarget>;

/** What the library page asks to export, on the export port (lib/background/export-port.ts). */
export const ExportRequest = Obj({ collectionId: int(), format: oneOf(['html', 'csv', 'md'] as const), search: text(2000) });
export type ExportRequest = Static<typeof ExportRequest>;

export const LibraryCollectionOp = Union([
  Obj({ op: Literal('create'), title: text(500, 1), parentId: nullable(int(1)) }),
  Obj({ op: Literal('rename'), id: int(1), title: text(500, 1) }),
  Obj({ op: Literal('move'), id: int(1), parentId: nullable(int(1)) }),
  Obj({ op: Literal('delete'), id: int(1) }),
  Obj({ op: Literal('merge'), ids: List(int(1), { maxItems: 100 }), to: int(-1) }),
  Obj({ op: Literal('sort'), sort: oneOf(['title', '-title', '-count'] as const) }),
  Obj({ op: Literal('share'), id: int(1), emails: List(text(320, 3), { maxItems: 10 }), role: oneOf(['member', 'viewer'] as const) }),
]);
export type LibraryCollectionOp = Static<typeof LibraryCollectionOp>;

/**
 * The highlighter's scripts injected only when needed: the selection editor (toolbar, creating and
 * changing highlights), approximate anchoring, and the text index's patcher (long pages).
 */
const HighlighterPart = oneOf(['editor', 'approximate', 'index-patch', 'scope-marks', 'fallback-painter'] as const);
export type HighlighterPart = Static<typeof HighlighterPart>;

const rule = <S extends TSchema>(from: readonly SenderKind[], data: S) => ({ from, data });
const pages = <S extends TSchema>(data: S) => rule(['page'], data);
const contentScripts = <S extends TSchema>(data: S) => rule(['content'], data);

/**
 * Per message to the background: which senders may send it and its payload's schema. The results
 * are declared with the messages in lib/messaging/protocol.ts (the background makes them; nobody checks them).
 */
export const MESSAGES = {
  getStatus: pages(Null()),
  popupOpened: pages(tabId),
  saveTab: pages(tabId),
  updateBookmark: pages(Obj({ ref: bookmarkRef, changes: BookmarkChanges, append: Optional(Bool()), label: Optional(text(500)) })),
  removeBookmark: pages(Obj({ ref: bookmarkRef })),
  restoreBookmark: pages(Obj({ ref: bookmarkRef, collectionId: int() })),
  listCollections: pages(Obj({ refresh: Bool() })),
  createCollection: pages(Obj({ title: text(500, 1), parentId: nullable(int(1)) })),
  listTags: pages(Null()),
  suggestTags: pages(Obj({ ref: bookmarkRef })),
  getQueue: pages(Null()),
  drainQueue: pages(Null()),
  dismissFailures: pages(Null()),
  signIn: pages(Obj({ serverUrl: httpUrl })),
  useTestToken: pages(Obj({ serverUrl: httpUrl, token: text(500, 8) })),
  signOut: pages(Null()),
  loadHighlighter: contentScripts(Obj({ paint: Bool() })),
  loadHighlighterPart: contentScripts(Obj({ part: HighlighterPart })),
  pageHighlights: contentScripts(Null()),
  addHighlight: contentScripts(
    Obj({
      text: text(10_000, 1),
      position: Optional(int(0)),
      prefix: Optional(text(200)),
      suffix: Optional(text(200)),
      color,
      restore: Optional(highlightKey),
      withNote: Optional(Bool()),
    }),
  ),
  changeHighlight: contentScripts(Obj({ key: highlightKey, color })),
  removeHighlight: contentScripts(Obj({ key: highlightKey })),
  editHighlightNote: contentScripts(Obj({ key: highlightKey })),
  listHighlights: pages(tabId),
  setHighlightNote: pages(Obj({ tabId: int(0), key: highlightKey, note: text(10_000) })),
  showHighlight: pages(tabKey),
  autoPaintAnswered: pages(Obj({ granted: Bool() })),
  panelState: pages(tabId),
  setHighlightColor: pages(Obj({ tabId: int(0), key: highlightKey, color })),
  deleteHighlight: pages(tabKey),
  restoreHighlight: pages(tabKey),
  openSidePanel: contentScripts(Null()),
  /** The library's reader (one bookmark, named by id and address): the bookmark, its highlights with notes, and changes to them (`fields` null: deleted). */
  readerBookmark: pages(Obj({ bookmarkId: int(1) })),
  readerHighlights: pages(Obj({ bookmarkId: int(1), link: httpUrl })),
  readerAddHighlight: pages(Obj({ bookmarkId: int(1), link: httpUrl, highlight: Obj({ text: text(10_000, 1), position: Optional(int(0)), prefix: Optional(text(200)), suffix: Optional(text(200)), color }) })),
  readerChangeHighlight: pages(Obj({ bookmarkId: int(1), link: httpUrl, key: highlightKey, fields: nullable(Obj({ color: Optional(color), note: Optional(text(10_000)) })) })),
  libraryList: pages(LibraryListQuery),
  libraryCollections: pages(Null()),
  libraryHighlights: pages(Obj({ collectionId: int(), page: int(0, 100_000) })),
  libraryBulk: pages(Obj({ action: BulkAction, targets: List(BulkTarget, { maxItems: 10_000 }) })),
  /** `queued`: the change waits in the offline queue, so its reversal is queued after it. */
  libraryUndo: pages(Obj({ action: BulkAction, before: List(BulkTarget, { maxItems: 10_000 }), queued: Optional(Bool()) })),
  /** Every bookmark of a collection matching `search` (all when empty), in one call: larger selections than the page loads. */
  libraryBulkMatching: pages(Obj({ action: BulkAction, collectionId: int(), search: text(2000) })),
  /** Reverses a `libraryBulkMatching` change that said it can be undone. */
  libraryUndoMatching: pages(Obj({ action: BulkAction, collectionId: int(), search: text(2000) })),
  libraryEmptyTrash: pages(Null()),
  libraryCollectionOp: pages(LibraryCollectionOp),
  libraryOpenHighlight: pages(Obj({ link: httpUrl, highlightId: highlightKey })),
  librarySavedCopy: pages(Obj({ bookmarkId: int(1) })),
  libraryArticle: pages(Obj({ bookmarkId: int(1) })),
  libraryRetryArticle: pages(Obj({ bookmarkId: int(1) })),
  updateArticleText: pages(Obj({ tabId: int(0), bookmarkId: int(1) })),
};

// --- background -> content script (tabs.sendMessage to the injected highlighter) ---

/** Where a highlight was found (for the popup's list in page order). */
export const AnchorStatus = Obj({
  key: highlightKey,
  status: oneOf(['anchored', 'orphan', 'ambiguous'] as const),
  /** Rank in page order among the placed highlights (0 first); -1 when not anchored. */
  start: int(-1),
});
export type AnchorStatus = Static<typeof AnchorStatus>;

/** What making a highlight from the selection came to. */
export const HighlightOutcome = Union([Obj({ ok: Literal(true), key: Str({ maxLength: 64 }) }), Obj({ ok: Literal(false), error: text(2000) })]);
export type HighlightOutcome = Static<typeof HighlightOutcome>;

/**
 * Per command to the page's highlighter: its payload and its answer. The background checks the
 * answer (the page's process is less trusted than the background); the highlighter trusts the
 * payload, which only the extension itself can send (tabs.sendMessage) and the compiler has typed.
 */
export const TAB_COMMANDS = {
  /** Highlight the selection (context menu, keyboard command); color null: the last colour used. */
  highlight: { data: Obj({ color: nullable(color), withNote: Bool() }), result: HighlightOutcome },
  /** Where each of the page's highlights was found. */
  status: { data: Null(), result: List(AnchorStatus, { maxItems: 100_000 }) },
  /** Scroll to a highlight and flash it; false when it is not on the page. */
  show: { data: Obj({ key: highlightKey }), result: Bool() },
  /** Ask the background for the page's highlights again and repaint. */
  refresh: { data: Null(), result: Literal(true) },
};
