// The library page's side of the background: listings, the collection tree, highlights, bulk
// changes with their undo, collection management and exports. The page never sees a token: it
// asks here through typed messages (lib/messaging/protocol.ts).
import { defineItem } from '../storage/item.js';
import type { TidemarkApi } from '../api/client/index.js';
import { ApiClientError } from '../api/client/index.js';
import { apiBase } from '../api/client/http.js';
import { ALL_COLLECTIONS, TRASH } from '../api/constants.js';
import type { Bookmark, HighlightListItem } from '../api/types.js';
import type { Account } from '../model.js';
import { markList } from '../library/timing.js';
import { collectionOp, matchingCall, sendCall, tagCount } from '../library/api-calls.js';
import { bulkCalls, destinationOf, exactTagCalls, labelOf, queueForm, removeTagCalls, toLibraryCollection, undoCalls, withoutTag, type Call } from '../library/bulk-calls.js';
import { applyToCounts, applyToPages, statesAfter, type BookmarkState } from '../library/offline-copy.js';
import { EXPORT_PIECE_CHARS, pieces, type ExportPortMessage } from '../library/export-transfer.js';
import type { BulkAction, BulkResult, BulkTarget, LibraryCollection, LibraryCollectionOp, LibraryListQuery, LibraryPage, SavedCopy } from '../library/types.js';
import { savedCopyFrom } from '../library/saved-copy.js';

export type * from '../library/types.js';

const LIBRARY_PAGE_SIZE = 50;

/** The last answers the library saw, per query, for showing offline (a few dozen pages at most). */
const listCache = defineItem<Record<string, { at: number; owner: string; page: { items: Bookmark[]; count: number } }>>(
  'local:libraryListCache',
  { fallback: {} },
);
const collectionsCache = defineItem<{ owner: string; items: LibraryCollection[] } | null>('local:libraryCollectionsCache', {
  fallback: null,
});
/** Pages kept for offline use: the first two of the last queries (the cache is rewritten on every answer, so it stays small). */
const MAX_CACHED_PAGES = 12;
const CACHED_PAGE_NUMBERS = 2;

interface LibraryDeps {
  api: TidemarkApi;
  account: () => Promise<Account | null>;
  accessToken: () => Promise<string | null>;
  /** Queues a bulk write for when the server is reachable again. */
  enqueueBulk?: (write: { method: 'PUT' | 'DELETE'; collectionId: number; ids: number[]; body: Record<string, unknown>; label: string }) => Promise<void>;
  /** Something in the library changed (the saved-link index and badge may need a refresh). */
  onChanged?: () => void;
}

const offlineError = (err: unknown) => err instanceof ApiClientError && err.kind === 'network';

export class LibraryService {
  readonly #deps: LibraryDeps;

  constructor(deps: LibraryDeps) {
    this.#deps = deps;
  }

  async #owner(): Promise<string> {
    const acc = await this.#deps.account();
    if (!acc) throw new ApiClientError('unauthorized', 'You are signed out. Open Tidemark\'s options and sign in.');
    return `${acc.serverUrl}|${acc.userId}`;
  }

  /** The list request of each library tab (channel) still on the way, to cancel when a newer query starts. */
  #listing = new Map<string, AbortController>();

  async list(q: LibraryListQuery): Promise<LibraryPage> {
    markList('tidemark:list-received', q.search);
    let cancel: AbortController | null = null;
    if (q.channel && q.page === 0) {
      // Typing sends one query after another: the older one's answer would be dropped, so it stops here.
      this.#listing.get(q.channel)?.abort(new ApiClientError('http', 'A newer search replaced this one.'));
      cancel = new AbortController();
      this.#listing.set(q.channel, cancel);
    }
    // Who is signed in is read while the request is on its way, not before it (storage reads cost time).
    const whose = this.#owner();
    whose.catch(() => undefined); // awaited below; this only keeps a failure from being reported twice
    const key = JSON.stringify([q.collectionId, q.search, q.sort, q.page]);
    try {
      const res = await this.#deps.api.listBookmarks(
        q.collectionId,
        { search: q.search || undefined, sort: q.sort || undefined, page: q.page, perpage: LIBRARY_PAGE_SIZE },
        { signal: cancel?.signal },
      );
      markList('tidemark:list-fetched', q.search);
      const owner = await whose;
      const page = { items: res.items, count: res.count };
      if (q.page < CACHED_PAGE_NUMBERS) void this.#remember(key, owner, page).catch((err: unknown) => console.warn(`Tidemark: the library's offline copy was not kept: ${(err as Error).message}`));
      return { ...page, offline: false, cachedAt: null };
    } catch (err) {
      if (!offlineError(err)) throw err;
      const owner = await whose;
      const cached = this.#pending.get(key) ?? (await listCache.getValue())[key];
      if (cached && cached.owner === owner) return { ...cached.page, offline: true, cachedAt: cached.at };
      throw err;
    } finally {
      if (cancel && this.#listing.get(q.channel!) === cancel) this.#listing.delete(q.channel!);
    }
  }

  #pending = new Map<string, { at: number; owner: string; page: { items: Bookmark[]; count: number } }>();
  #flushTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * Keeps the answer for offline use. Written a moment later in one go, so storing it never
   * delays the answers the page waits for (typing sends one query after another).
   */
  #remember(key: string, owner: string, page: { items: Bookmark[]; count: number }): Promise<void> {
    this.#pending.set(key, { at: Date.now(), owner, page });
    if (this.#flushTimer === null) {
      this.#flushTimer = setTimeout(() => {
        this.#flushTimer = null;
        void this.#serially(() => this.#flush()).catch((err: unknown) => console.warn(`Tidemark: the library's offline copy was not kept: ${(err as Error).message}`));
      }, 800);
    }
    return Promise.resolve();
  }

  /** The offline copy's read-modify-writes, one after another (a write must not undo another's). */
  #copyWrites: Promise<unknown> = Promise.resolve();
  #serially(write: () => Promise<void>): Promise<void> {
    const next = this.#copyWrites.then(write);
    this.#copyWrites = next.catch(() => undefined); // the failure is the caller's to report; the chain goes on
    return next;
  }

  async #flush(): Promise<void> {
    const fresh = [...this.#pending.entries()];
    this.#pending.clear();
    const all = { ...(await listCache.getValue()) };
    for (const [key, entry] of fresh) all[key] = entry;
    const keys = Object.keys(all);
    if (keys.length > MAX_CACHED_PAGES) {
      keys.sort((a, b) => all[a]!.at - all[b]!.at);
      for (const k of keys.slice(0, keys.length - MAX_CACHED_PAGES)) delete all[k];
    }
    await listCache.setValue(all);
  }

  /**
   * A change that waits in the offline queue shows in the offline copy at once (the lists and the
   * sidebar's counts), so the library shows it as it will be once sent. Kept pages the change does
   * not touch stay as they are; the next answer from the server replaces them all.
   */
  async #showInOfflineCopy(before: BookmarkState[], after: BookmarkState[]): Promise<void> {
    try {
      this.#pending = new Map(Object.entries(withStates(Object.fromEntries(this.#pending), after)));
      await this.#serially(async () => {
        await listCache.setValue(withStates(await listCache.getValue(), after));
        const sidebar = await collectionsCache.getValue();
        if (sidebar) await collectionsCache.setValue({ ...sidebar, items: applyToCounts(sidebar.items, before, after) });
      });
    } catch (err) {
      // The change is queued all the same; only what the library shows offline lags behind it.
      console.warn(`Tidemark: the library's offline copy was not updated with a queued change: ${(err as Error).message}`);
    }
  }

  async collections(): Promise<{ items: LibraryCollection[]; offline: boolean }> {
    const owner = await this.#owner();
    const acc = (await this.#deps.account())!;
    try {
      const items = (await this.#deps.api.getCollections({ retries: 1 })).map((c) => toLibraryCollection(c, acc.userId));
      await collectionsCache.setValue({ owner, items });
      return { items, offline: false };
    } catch (err) {
      if (!offlineError(err)) throw err;
      const cached = await collectionsCache.getValue();
      if (cached?.owner === owner) return { items: cached.items, offline: true };
      throw err;
    }
  }

  async highlights(collectionId: number, page: number): Promise<HighlightListItem[]> {
    await this.#owner();
    return this.#deps.api.listHighlights(collectionId, page, LIBRARY_PAGE_SIZE);
  }

  /**
   * Applies `action` to `targets` with one bulk call per source collection (one call in total
   * when they all are in one collection, as in a collection's own listing), at most 100 ids each.
   * Removing a tag takes the fewest calls the API allows (see `removeTagCalls`). When the server
   * cannot be reached the calls left wait in the offline queue, in order.
   */
  async bulk(action: BulkAction, targets: BulkTarget[]): Promise<BulkResult> {
    await this.#owner();
    const calls = action.kind === 'untag' ? await this.#removeTagCalls(action.tag, targets) : bulkCalls(action, targets);
    const { modified, queued } = await this.#run(calls, action, { queueable: action.kind !== 'delete-forever', queueOnly: false });
    if (queued) await this.#showInOfflineCopy(targets, statesAfter(action, targets));
    this.#deps.onChanged?.();
    return { modified, queued, undoable: action.kind !== 'delete-forever' };
  }

  /**
   * Reverses a bulk change made with `action` on `before` (the bookmarks as they were): moves and
   * Trash go back to each one's collection; favourites back to each one's value; an added tag comes
   * off the bookmarks that did not have it; a removed tag goes back on those that had it. When the
   * change itself went to the offline queue (`queued`), its reversal is queued after it.
   */
  async undo(action: BulkAction, before: BulkTarget[], queued = false): Promise<BulkResult> {
    await this.#owner();
    // A queued change's reversal is queued behind it, so it is planned without asking the server.
    const calls = await undoCalls(action, before, async (tag, targets) => (queued ? exactTagCalls(targets, (t) => withoutTag(t.tags, tag)) : this.#removeTagCalls(tag, targets)));
    const result = await this.#run(calls, action, { queueable: true, queueOnly: queued });
    if (result.queued) await this.#showInOfflineCopy(statesAfter(action, before), before);
    this.#deps.onChanged?.();
    return { ...result, undoable: false };
  }

  /**
   * Applies `action` to every bookmark of `collectionId` matching `search` (every one of it when the
   * search is empty) in one call, without listing them first: the "Select all matching" of a list
   * longer than the page has loaded. Undo is offered only where reversing by the same search is
   * exact: a move, Trash or restore whose destination held no match before (one count asked first).
   * Taking a tag off works this way only for a whole collection (`DELETE /tags/{collectionId}`).
   * Not queued offline: the change needs the server to know what matches.
   */
  async bulkMatching(action: BulkAction, collectionId: number, search: string): Promise<BulkResult> {
    await this.#owner();
    const api = this.#deps.api;
    if (collectionId === ALL_COLLECTIONS) throw new ApiClientError('http', 'Changing every match works inside one collection: open a collection (or Unsorted) and search there.');
    const s = search.trim() || undefined;
    const to = destinationOf(action, collectionId);
    const undoable = to !== null && (await api.listBookmarks(to, { search: s, page: 0, perpage: 1 })).count === 0;
    const modified = await matchingCall(this.#deps.api, action, collectionId, s);
    this.#deps.onChanged?.();
    return { modified, queued: false, undoable };
  }

  /** Reverses a `bulkMatching` change that said it can be undone: the matches go back where they were. */
  async undoMatching(action: BulkAction, collectionId: number, search: string): Promise<BulkResult> {
    await this.#owner();
    const to = destinationOf(action, collectionId);
    if (to === null) throw new Error('This change cannot be undone.');
    const back: BulkAction = collectionId === TRASH ? { kind: 'trash' } : { kind: 'move', to: collectionId };
    const modified = await matchingCall(this.#deps.api, back, to, search.trim() || undefined);
    this.#deps.onChanged?.();
    return { modified, queued: false, undoable: false };
  }

  /** The fewest calls taking `tag` off `targets` (lib/library/bulk-calls.ts); offline, without the whole-collection call. */
  #removeTagCalls(tag: string, targets: BulkTarget[]): Promise<Call[]> {
    return removeTagCalls(tag, targets, async (collectionId) => {
      try {
        return await tagCount(this.#deps.api, collectionId, tag);
      } catch (err) {
        // Offline: the calls are planned in the form the queue takes.
        if (!offlineError(err)) throw err;
        return null;
      }
    });
  }

  /**
   * Sends `calls` in order. When the server cannot be reached (or `queueOnly`), the calls left go
   * to the offline queue instead, in the bulk form the queue takes, and are sent in order later.
   */
  async #run(calls: Call[], action: BulkAction, opts: { queueable: boolean; queueOnly: boolean }): Promise<{ modified: number; queued: boolean }> {
    let modified = 0;
    for (const [i, call] of calls.entries()) {
      try {
        if (opts.queueOnly) throw new ApiClientError('network', 'queued after the change it reverses');
        modified += await sendCall(this.#deps.api, call);
      } catch (err) {
        if (!offlineError(err) || !this.#deps.enqueueBulk || !opts.queueable) throw err;
        for (const rest of calls.slice(i).flatMap(queueForm)) {
          await this.#deps.enqueueBulk({ ...rest, label: labelOf(action, rest.ids.length) });
          modified += rest.method === 'PUT' && Array.isArray(rest.body.tags) && rest.body.tags.length > 0 ? 0 : rest.ids.length;
        }
        return { modified, queued: true };
      }
    }
    return { modified, queued: false };
  }

  /** Empty Trash: everything in it deleted for good. */
  async emptyTrash(): Promise<number> {
    await this.#owner();
    const modified = await this.#deps.api.bulkRemove(TRASH, undefined);
    this.#deps.onChanged?.();
    return modified;
  }

  /** Carries out a collection change; a created collection's id, else null. */
  async collectionOp(op: LibraryCollectionOp): Promise<number | null> {
    await this.#owner();
    return collectionOp(this.#deps.api, op);
  }

  /**
   * Streams the export file to the library page in pieces (`post`), as the server streams it: the
   * background never holds the whole file, and no message nears the browser's size limit. Ends with
   * an `end` (or an `error` saying what happened); `signal` stops it when the page goes away.
   */
  async exportStream(q: { collectionId: number; format: 'html' | 'csv' | 'md'; search: string }, post: (m: ExportPortMessage) => void, signal: AbortSignal): Promise<void> {
    const query = new URLSearchParams();
    if (q.search) query.set('search', q.search);
    if (q.collectionId > 0) query.set('nested', 'true');
    try {
      const res = await this.#fetchOk(`/bookmarks/${q.collectionId}/export.${q.format}?${query}`, { offline: 'to export', failed: 'The export failed' }, signal);
      const disposition = res.headers.get('content-disposition') ?? '';
      post({ kind: 'start', name: /filename="([^"]+)"/.exec(disposition)?.[1] ?? `tidemark.${q.format}`, type: res.headers.get('content-type') ?? 'text/plain' });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let chars = 0;
      let waiting = '';
      for (;;) {
        const { done, value } = await reader.read();
        waiting += done ? decoder.decode() : decoder.decode(value, { stream: true });
        if (waiting.length >= EXPORT_PIECE_CHARS || (done && waiting)) {
          for (const text of pieces(waiting)) post({ kind: 'piece', text });
          chars += waiting.length;
          waiting = '';
        }
        if (done) break;
      }
      post({ kind: 'end', chars });
    } catch (err) {
      if (signal.aborted) return; // the page went away: nobody to tell
      post({ kind: 'error', message: err instanceof Error ? err.message : 'The export failed.' });
    }
  }

  /**
   * The bookmark's permanent copy (sanitised HTML) and the Content-Security-Policy the server serves
   * it with, for the saved-copy page to show in a sandboxed frame. The token stays here.
   */
  async savedCopy(bookmarkId: number): Promise<SavedCopy> {
    const { res, text } = await this.#fetchText(`/bookmark/${bookmarkId}/cache`, { offline: 'to open the saved copy', failed: 'The saved copy could not be opened' });
    return savedCopyFrom(res, text);
  }

  /** GET `path` of the API with the token, as text; a failure says what happened in the server's words. */
  async #fetchText(path: string, words: { offline: string; failed: string }): Promise<{ res: Response; text: string }> {
    const res = await this.#fetchOk(path, words);
    return { res, text: await res.text() };
  }

  /** GET `path` of the API with the token; a failure says what happened in the server's words. */
  async #fetchOk(path: string, words: { offline: string; failed: string }, signal?: AbortSignal): Promise<Response> {
    const acc = await this.#deps.account();
    const token = await this.#deps.accessToken();
    if (!acc || !token) throw new ApiClientError('unauthorized', 'You are signed out. Open Tidemark\'s options and sign in.');
    let res: Response;
    try {
      res = await fetch(`${apiBase(acc.serverUrl)}${path}`, { headers: { authorization: `Bearer ${token}` }, signal });
    } catch {
      throw new ApiClientError('network', `Could not reach the Tidemark server at ${new URL(acc.serverUrl).origin} ${words.offline}. Try again when you are online.`);
    }
    if (res.ok) return res;
    const text = await res.text();
    let message = `${words.failed} (HTTP ${res.status}).`;
    try {
      message = (JSON.parse(text) as { errorMessage?: string }).errorMessage ?? message;
    } catch {
      /* not the JSON error envelope: keep the status message */
    }
    throw new ApiClientError(res.status === 401 ? 'unauthorized' : 'http', message, res.status);
  }
}

function withStates<E extends { page: { items: Bookmark[]; count: number } }>(entries: Record<string, E>, states: BookmarkState[]): Record<string, E> {
  const pages = applyToPages(Object.fromEntries(Object.entries(entries).map(([key, e]) => [key, e.page])), states);
  return Object.fromEntries(Object.entries(entries).map(([key, e]) => [key, pages[key] === e.page ? e : { ...e, page: pages[key]! }]));
}
