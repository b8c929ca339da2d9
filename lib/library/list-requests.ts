// The library page's requests for list pages, through its host. A first page can be asked
// for before the page renders (when the page opens, or at the end of the typing pause) and taken
// by the list when it starts over for the same query, instead of asking again. Two scripts of the
// page use this file (the early one, entrypoints/library-first-page/index.ts, and the app), each with
// its own copy: what they share lives in one slot of the page's global object.
import type { LibraryHost } from './host.js';
import type { LibraryPage } from './types.js';
import { markList } from './timing.js';
import { effectiveSort, type LibraryState } from './url-state.js';

interface Shared {
  /** One id for this tab's list requests: the host cancels an older one still on its way. */
  channel: string;
  early: { key: string; answer: Promise<LibraryPage> } | null;
}
const SLOT = Symbol.for('tidemark.libraryListRequests');
const shared: Shared = ((globalThis as { [SLOT]?: Shared })[SLOT] ??= { channel: crypto.randomUUID(), early: null });

type ListQuery = ReturnType<typeof listQuery>;

export function listQuery(s: LibraryState) {
  return { collectionId: s.collectionId, search: s.search, sort: effectiveSort(s), channel: shared.channel };
}

/** One page of the list; a first page's request and answer are marked (bench/extension reads them). */
export function askList(host: Pick<LibraryHost, 'list'>, q: ListQuery, page: number): Promise<LibraryPage> {
  if (page > 0) return host.list({ ...q, page });
  markList('tidemark:list-request', q.search);
  const answer = host.list({ ...q, page });
  // Only marks the moment: whoever takes `answer` awaits it and shows its error.
  answer.then(() => markList('tidemark:list-answer', q.search), () => undefined);
  return answer;
}

/** Asks for the first page of `q` now; the list takes the answer with `takeFirstPage`. */
export function askFirstPage(host: Pick<LibraryHost, 'list'>, q: ListQuery): void {
  const answer = askList(host, q, 0);
  // Not dropped: the list awaits this promise and shows its error. Only an answer nobody takes
  // (the place changed before the list started over) would otherwise be reported as unhandled.
  answer.catch(() => undefined);
  shared.early = { key: JSON.stringify(q), answer };
}

/** The first page asked for early, if it was for `q` (taken once; anything older is dropped). */
export function takeFirstPage(q: ListQuery): Promise<LibraryPage> | null {
  const answer = shared.early?.key === JSON.stringify(q) ? shared.early.answer : null;
  shared.early = null;
  return answer;
}
