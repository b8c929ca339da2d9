// The library page's state changes, pure so they are unit-tested without a browser: the selection
// (click, Ctrl/Shift-click, "select all matching"), what a bulk change acts on and how it is undone,
// moving between places (history entries), and what a key does. The components hold the values and
// call these; the host (lib/library/host.ts) carries the changes out.
import { ALL_COLLECTIONS } from '../api/constants.js';
import type { Bookmark } from '../api/types.js';
import type { LibraryHost } from './host.js';
import type { BulkAction, BulkResult, BulkTarget } from './types.js';
import { isNewPlace, type LibraryState } from './url-state.js';

/** "Select all matching" loads at most this many (then says so). */
export const SELECT_ALL_MAX = 5000;

/** "All N matching" selected: the change goes to the server as one call by search, not by ids. */
export interface Matching {
  collectionId: number;
  search: string;
  count: number;
}

export interface Selection {
  ids: ReadonlySet<number>;
  /** The row a Shift-click selects from. */
  anchor: number | null;
  /** Every match of the search is selected, not only the rows. */
  matching: Matching | null;
}

export const NO_SELECTION: Selection = { ids: new Set(), anchor: null, matching: null };

/** Rows picked by hand: no longer "all matching". */
const rows = (ids: Iterable<number>, anchor: number | null): Selection => ({ ids: new Set(ids), anchor, matching: null });

/** What a click on a row leaves selected, and the row to open in the detail pane (null: none). */
export interface RowClick {
  selection: Selection;
  open: number | null;
}

/**
 * A click on row `id`: Shift adds the rows from the anchor to it, Ctrl (or Cmd) toggles it, a plain
 * click opens it and makes it the anchor. Where the person cannot edit there is no selection.
 */
export function clickRow(sel: Selection, items: Bookmark[], id: number, keys: { shift: boolean; ctrl: boolean }, readOnly: boolean): RowClick {
  if (keys.shift && sel.anchor !== null && !readOnly) {
    const a = items.findIndex((x) => x._id === sel.anchor);
    const z = items.findIndex((x) => x._id === id);
    if (a >= 0 && z >= 0) {
      const [from, to] = a < z ? [a, z] : [z, a];
      return { selection: rows([...sel.ids, ...items.slice(from, to + 1).map((x) => x._id)], sel.anchor), open: null };
    }
  }
  if (keys.ctrl && !readOnly) return { selection: toggleRow(sel, id), open: null };
  return { selection: { ...sel, anchor: id }, open: id };
}

/** The row's checkbox (or Space): flips it and makes it the anchor. */
export function toggleRow(sel: Selection, id: number): Selection {
  const next = new Set(sel.ids);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return rows(next, id);
}

/** The bulk bar's checkbox: every loaded row, or none. */
export function selectLoaded(items: Bookmark[], on: boolean): Selection {
  return on ? rows(items.map((b) => b._id), null) : NO_SELECTION;
}

/**
 * "Select all N matching". Inside one collection the server changes every match in one call by the
 * search, so the loaded rows are marked and nothing more is loaded. Everywhere (All) there is no such
 * call: null, and the caller loads up to SELECT_ALL_MAX rows and selects them (`selectLoaded`).
 */
export function selectMatching(state: Pick<LibraryState, 'collectionId' | 'search'>, items: Bookmark[], count: number): Selection | null {
  if (state.collectionId === ALL_COLLECTIONS) return null;
  return { ids: new Set(items.map((b) => b._id)), anchor: null, matching: { collectionId: state.collectionId, search: state.search, count } };
}

/** How many bookmarks the bulk bar's actions change. */
export const chosenCount = (sel: Selection): number => (sel.matching ? sel.matching.count : sel.ids.size);

export const targetOf = (b: Bookmark): BulkTarget => ({ id: b._id, collectionId: b.collectionId, tags: b.tags, important: b.important });

/** What a bulk change by rows acts on: the selected rows, else the opened bookmark, as they are now. */
export function bulkTargets(items: Bookmark[], sel: Selection, opened: Bookmark | null): BulkTarget[] {
  const chosen = items.filter((b) => sel.ids.has(b._id));
  return (chosen.length ? chosen : opened ? [opened] : []).map(targetOf);
}

/** A bulk change that can be undone, with what it needs to be reversed. */
export interface UndoEntry {
  action: BulkAction;
  /** The bookmarks as they were before (empty for a change by search). */
  before: BulkTarget[];
  /** Made on every match of a search: undone by the same search. */
  matching?: Matching;
  /** What the change did, in words (the toast says "Undone: ..."). */
  label: string;
  /** The change waits in the offline queue: its reversal is queued after it. */
  queued: boolean;
}

/** The Undo a bulk change by rows offers, when the host says it can be undone. */
export function undoOfBulk(action: BulkAction, before: BulkTarget[], label: string, r: BulkResult): UndoEntry | null {
  return r.undoable ? { action, before, label, queued: r.queued } : null;
}

/** The Undo a change of every match offers, when the host says it can be undone. */
export function undoOfMatching(action: BulkAction, matching: Matching, label: string, r: BulkResult): UndoEntry | null {
  return r.undoable ? { action, before: [], matching, label, queued: false } : null;
}

/** Reverses `entry` through the host: by the same search for a change of every match, else bookmark by bookmark. */
export function runUndo(host: LibraryHost, entry: UndoEntry): Promise<BulkResult> {
  return entry.matching
    ? host.undoMatching(entry.action, entry.matching.collectionId, entry.matching.search)
    : host.undo(entry.action, entry.before, entry.queued);
}

/** Going from `prev` with `patch`: the new state, and whether it is a new history entry (else it replaces the current one). */
export function navigate(prev: LibraryState, patch: Partial<LibraryState>): { next: LibraryState; push: boolean } {
  const next = { ...prev, ...patch };
  return { next, push: isNewPlace(prev, next) };
}

/** What a key press does on the library page (the component carries it out). */
export type KeyCommand =
  | { kind: 'none' }
  | { kind: 'blur' }
  | { kind: 'clear-selection' }
  | { kind: 'close-detail' }
  | { kind: 'focus-search' }
  /** Focus row `index`; `more`: near the end of what is loaded, load the next page. */
  | { kind: 'focus'; index: number; more: boolean }
  | { kind: 'open' }
  | { kind: 'edit' }
  | { kind: 'toggle' }
  | { kind: 'delete' };

export interface KeyContext {
  /** The key went to a text field, a select or an editable element. */
  typing: boolean;
  modifier: boolean;
  dialogOpen: boolean;
  tab: LibraryState['tab'];
  /** Rows loaded. */
  count: number;
  /** The focused row's index, -1 when none. */
  focused: number;
  hasSelection: boolean;
  readOnly: boolean;
}

export function keyCommand(key: string, c: KeyContext): KeyCommand {
  const none: KeyCommand = { kind: 'none' };
  if (key === 'Escape') {
    if (c.dialogOpen) return none;
    if (c.typing) return { kind: 'blur' };
    return c.hasSelection ? { kind: 'clear-selection' } : { kind: 'close-detail' };
  }
  if (c.typing || c.dialogOpen || c.modifier) return none;
  if (key === '/') return { kind: 'focus-search' };
  if (c.tab !== 'bookmarks' || !c.count) return none;
  if (key === 'ArrowDown' || key === 'j') return { kind: 'focus', index: Math.min(c.focused + 1, c.count - 1), more: c.focused + 1 >= c.count - 5 };
  if (key === 'ArrowUp' || key === 'k') return { kind: 'focus', index: Math.max(c.focused - 1, 0), more: false };
  if (c.focused < 0) return key === 'Delete' || key === 'Backspace' ? (c.readOnly ? none : { kind: 'delete' }) : none;
  if (key === 'Enter') return { kind: 'open' };
  if (key === 'e') return { kind: 'edit' };
  if (key === ' ') return c.readOnly ? none : { kind: 'toggle' };
  if (key === 'Delete' || key === 'Backspace') return c.readOnly ? none : { kind: 'delete' };
  return none;
}
