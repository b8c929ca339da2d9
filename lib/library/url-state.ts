// What the library shows, kept in the page's address (?c=&q=&sort=&view=&tab=&color=&read=) so back,
// forward, reload and links (the omnibox, "Open library") all land on the same view. Pure.
import { BOOKMARK_SORTS, HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';

export type LibraryView = 'list' | 'compact';
type LibraryTab = 'bookmarks' | 'highlights';

export interface LibraryState {
  /** 0 all, -1 Unsorted, -99 Trash, else a collection id. */
  collectionId: number;
  search: string;
  /** '' = the default order (newest first; relevance while searching). */
  sort: string;
  view: LibraryView;
  tab: LibraryTab;
  /** The highlights view's colour filter. */
  color: HighlightColor | null;
  /** The bookmark open in the reader, over the list; null when none. */
  read: number | null;
}

export const DEFAULT_STATE: LibraryState = { collectionId: 0, search: '', sort: '', view: 'list', tab: 'bookmarks', color: null, read: null };

/** Reads the state from a query string (`location.search`); anything unknown falls back to the default. */
export function parseState(query: string): LibraryState {
  const p = new URLSearchParams(query);
  // `collection=` is the long spelling of `c=` (links written by hand, or by other apps).
  const c = Number(p.get('c') ?? p.get('collection') ?? '0');
  const sort = p.get('sort') ?? '';
  const color = p.get('color');
  const read = Number(p.get('read'));
  return {
    collectionId: Number.isInteger(c) && (c >= -1 || c === -99) ? c : 0,
    search: (p.get('q') ?? '').slice(0, 2000),
    sort: (BOOKMARK_SORTS as readonly string[]).includes(sort) ? sort : '',
    view: p.get('view') === 'compact' ? 'compact' : 'list',
    tab: p.get('tab') === 'highlights' ? 'highlights' : 'bookmarks',
    color: color && (HIGHLIGHT_COLORS as readonly string[]).includes(color) ? (color as HighlightColor) : null,
    read: Number.isSafeInteger(read) && read > 0 ? read : null,
  };
}

/** The query string for a state (`?...`, or '' for the default); default values are left out. */
export function formatState(state: Partial<LibraryState>): string {
  const s = { ...DEFAULT_STATE, ...state };
  const p = new URLSearchParams();
  if (s.collectionId !== 0) p.set('c', String(s.collectionId));
  if (s.search) p.set('q', s.search);
  if (s.sort) p.set('sort', s.sort);
  if (s.view !== 'list') p.set('view', s.view);
  if (s.tab !== 'bookmarks') p.set('tab', s.tab);
  if (s.color) p.set('color', s.color);
  if (s.read) p.set('read', String(s.read));
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** The library page's address showing `state`. */
export function libraryUrl(page: string, state: Partial<LibraryState>): string {
  return page.replace(/[?#].*$/, '') + formatState(state);
}

/**
 * Whether moving from `a` to `b` should be a new history entry (a different place: collection,
 * tab, the reader opened or closed) or replace the current one (typing a search, switching the view).
 */
export function isNewPlace(a: LibraryState, b: LibraryState): boolean {
  return a.collectionId !== b.collectionId || a.tab !== b.tab || a.read !== b.read;
}

/** The sort the server should use: the chosen one, else relevance while searching, else newest first. */
export function effectiveSort(state: Pick<LibraryState, 'search' | 'sort'>): string {
  if (state.sort === 'score' && !state.search.trim()) return '-created';
  return state.sort || (state.search.trim() ? 'score' : '-created');
}
