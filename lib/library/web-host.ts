// The library's host in the web app served by the server: straight to the API with the session
// cookie (lib/api/client in cookie mode), planning bulk changes with the same pure helpers the
// extension's background uses (bulk-calls.ts, api-calls.ts). No offline queue: while the server
// cannot be reached, reads come from the service worker's last copy (web/sw.ts marks those answers)
// and changes are refused with a message saying so.
import { ApiClientError, TidemarkApi } from '../api/client/index.js';
import { ALL_COLLECTIONS, TRASH } from '../api/constants.js';
import type { HighlightListItem } from '../api/types.js';
import { t } from '../i18n.js';
import { toUpdateBody } from '../model.js';
import { collectionOp, matchingCall, sendCall, tagCount } from './api-calls.js';
import { bulkCalls, destinationOf, removeTagCalls, toLibraryCollection, undoCalls, type Call } from './bulk-calls.js';
import type { LibraryHost } from './host.js';
import type { BulkAction, BulkTarget, SavedCopy } from './types.js';
import { savedCopyFrom } from './saved-copy.js';
import { webReaderHighlights } from './web-reader-highlights.js';

const PAGE_SIZE = 50;
/** The header web/sw.ts puts on an answer it gave from its copy because the network failed: when that copy was kept (epoch ms). */
const OFFLINE_COPY_HEADER = 'x-tidemark-offline-copy';

/** The address of the sign-in page that comes back here (the whole current address) afterwards. */
function signInAddress(here: Pick<Location, 'pathname' | 'search' | 'hash'> = location): string {
  return `/signin?next=${encodeURIComponent(here.pathname + here.search + here.hash)}`;
}

/** The last API answers' freshness: set by the fetch below, read by the host after each read. */
interface Freshness {
  /** When the copy the last answers came from was kept; null when they came from the server. */
  offlineSince: number | null;
}

export interface WebHost extends LibraryHost {
  readonly api: TidemarkApi;
  /** The signed-in user's id (asked once). */
  userId(): Promise<number>;
  /** Whether the last answers came from this device's copy (the server could not be reached). */
  readonly offline: boolean;
  /** Turns a failed change into the message a person reads (offline: not saved; signed out: off to sign in). */
  writeError(err: unknown): Error;
  /** Something was saved outside the library's own views (the save form): the library loads again. */
  notifyChanged(): void;
}

export interface WebHostOptions {
  /** Where the API lives; this page's origin. */
  origin?: string;
  /** Called when the session has ended (a 401): the page goes to sign in. */
  signedOut?: () => void;
  fetch?: typeof fetch;
}

export function createWebHost(options: WebHostOptions = {}): WebHost {
  const origin = options.origin ?? location.origin;
  const signedOut = options.signedOut ?? (() => location.assign(signInAddress()));
  const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const freshness: Freshness = { offlineSince: null };
  const api = new TidemarkApi({
    serverUrl: () => origin,
    fetch: async (input, init) => {
      const res = await baseFetch(input, init);
      const copy = res.headers.get(OFFLINE_COPY_HEADER);
      freshness.offlineSince = copy ? Number(copy) || Date.now() : null;
      return res;
    },
  });

  let user: Promise<number> | null = null;
  const userId = () => {
    user ??= api.getUser().then(
      (u) => u._id,
      (err: unknown) => {
        user = null;
        throw err;
      },
    );
    return user;
  };

  /** Every failure passes here: a 401 sends the page to sign in (the error still rejects, for the caller's state). */
  const read = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof ApiClientError && err.kind === 'unauthorized') signedOut();
      throw err;
    }
  };
  const offlineWrite = () => new ApiClientError('network', t('webOfflineEdit'));
  const writeError = (err: unknown): Error => {
    if (err instanceof ApiClientError && err.kind === 'unauthorized') signedOut();
    if (err instanceof ApiClientError && err.kind === 'network') return offlineWrite();
    return err instanceof Error ? err : new Error(String(err));
  };
  /** A change: refused at once when the browser knows it is offline, and its failure in words a person can act on. */
  const write = async <T>(run: () => Promise<T>): Promise<T> => {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) throw offlineWrite();
    try {
      return await run();
    } catch (err) {
      throw writeError(err);
    }
  };

  /** Highlight texts seen in answers, for a text fragment that scrolls the opened page to one. */
  const highlightTexts = new Map<string, string>();
  const remember = (items: { _id: string; text: string }[]) => {
    for (const h of items) highlightTexts.set(h._id, h.text);
    // A long session reads many pages: the oldest go first.
    while (highlightTexts.size > 5000) highlightTexts.delete(highlightTexts.keys().next().value!);
  };

  const listing = new Map<string, AbortController>();
  const reloaders = new Set<() => void>();
  const send = (calls: Call[]) => calls.reduce<Promise<number>>(async (sum, call) => (await sum) + (await sendCall(api, call)), Promise.resolve(0));
  const untag = (tag: string, targets: BulkTarget[]) => removeTagCalls(tag, targets, (collectionId) => tagCount(api, collectionId, tag));

  /** GET `path` of the API with the cookie; a failure says what happened in the server's words. */
  const fetchOk = async (path: string, words: { offline: string; failed: string }): Promise<Response> => {
    let res: Response;
    try {
      res = await baseFetch(`${origin}/rest/v1${path}`, { credentials: 'same-origin' });
    } catch {
      throw new ApiClientError('network', t('webCannotReach', words.offline));
    }
    if (res.ok && !res.headers.get(OFFLINE_COPY_HEADER)) return res;
    if (res.ok) throw new ApiClientError('network', t('webCannotReach', words.offline));
    const text = await res.text();
    let message = `${words.failed} (HTTP ${res.status}).`;
    try {
      message = (JSON.parse(text) as { errorMessage?: string }).errorMessage ?? message;
    } catch {
      /* not the JSON error envelope: keep the status message */
    }
    if (res.status === 401) signedOut();
    throw new ApiClientError(res.status === 401 ? 'unauthorized' : 'http', message, res.status);
  };

  const host: WebHost = {
    api,
    userId,
    get offline() {
      return freshness.offlineSince !== null;
    },
    writeError,
    notifyChanged: () => reloaders.forEach((cb) => cb()),
    queuesOffline: false,
    firstSaveHint: t('libFirstSaveWeb'),

    list: (q) =>
      read(async () => {
        let cancel: AbortController | null = null;
        if (q.channel && q.page === 0) {
          // Typing sends one query after another: the older one's answer would be dropped, so it stops here.
          listing.get(q.channel)?.abort(new ApiClientError('http', 'A newer search replaced this one.'));
          cancel = new AbortController();
          listing.set(q.channel, cancel);
        }
        try {
          const res = await api.listBookmarks(
            q.collectionId,
            { search: q.search || undefined, sort: q.sort || undefined, page: q.page, perpage: PAGE_SIZE },
            { signal: cancel?.signal },
          );
          const cachedAt = freshness.offlineSince;
          for (const b of res.items) remember(b.highlights);
          return { items: res.items, count: res.count, offline: cachedAt !== null, cachedAt };
        } finally {
          if (cancel && listing.get(q.channel!) === cancel) listing.delete(q.channel!);
        }
      }),

    collections: () =>
      read(async () => {
        const [id, items] = await Promise.all([userId(), api.getCollections({ retries: 1 })]);
        return { items: items.map((c) => toLibraryCollection(c, id)), offline: freshness.offlineSince !== null };
      }),

    tags: () => read(() => api.getTags()),

    highlights: (collectionId, page) =>
      read(async () => {
        const items: HighlightListItem[] = await api.listHighlights(collectionId, page, PAGE_SIZE);
        remember(items);
        return items;
      }),

    ...webReaderHighlights(api, read, write),

    updateBookmark: (id, changes) =>
      write(async () => {
        await api.updateBookmark(id, toUpdateBody(changes), { retries: 1 });
        return { queued: false };
      }),

    bulk: (action, targets) =>
      write(async () => {
        const calls = action.kind === 'untag' ? await untag(action.tag, targets) : bulkCalls(action, targets);
        return { modified: await send(calls), queued: false, undoable: action.kind !== 'delete-forever' };
      }),

    undo: (action, before) =>
      write(async () => {
        const calls = await undoCalls(action, before, untag);
        return { modified: await send(calls), queued: false, undoable: false };
      }),

    bulkMatching: (action: BulkAction, collectionId: number, search: string) =>
      write(async () => {
        if (collectionId === ALL_COLLECTIONS) throw new ApiClientError('http', t('webMatchingNeedsCollection'));
        const s = search.trim() || undefined;
        const to = destinationOf(action, collectionId);
        // Undo by the same search is exact only when the destination held no match before.
        const undoable = to !== null && (await api.listBookmarks(to, { search: s, page: 0, perpage: 1 })).count === 0;
        return { modified: await matchingCall(api, action, collectionId, s), queued: false, undoable };
      }),

    undoMatching: (action, collectionId, search) =>
      write(async () => {
        const to = destinationOf(action, collectionId);
        if (to === null) throw new Error(t('webCannotUndo'));
        const back: BulkAction = collectionId === TRASH ? { kind: 'trash' } : { kind: 'move', to: collectionId };
        return { modified: await matchingCall(api, back, to, search.trim() || undefined), queued: false, undoable: false };
      }),

    emptyTrash: () => write(() => api.bulkRemove(TRASH, undefined)),

    collectionOp: (op) => write(() => collectionOp(api, op)),

    exportFile: (request) =>
      read(async () => {
        const query = new URLSearchParams();
        if (request.search) query.set('search', request.search);
        if (request.collectionId > 0) query.set('nested', 'true');
        const res = await fetchOk(`/bookmarks/${request.collectionId}/export.${request.format}?${query}`, { offline: t('webToExport'), failed: t('webExportFailed') });
        const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `tidemark.${request.format}`;
        return { name, blob: await res.blob() };
      }),

    savedCopy: (bookmarkId) =>
      read(async (): Promise<SavedCopy> => {
        const res = await fetchOk(`/bookmark/${bookmarkId}/cache`, { offline: t('webToOpenCopy'), failed: t('webCopyFailed') });
        return {
          ...savedCopyFrom(res, await res.text()),
          // The frame loads it again from the same address (the browser's cache), under the server's own policy.
          frameUrl: `/rest/v1/bookmark/${bookmarkId}/cache`,
        };
      }),

    article: (bookmarkId) => read(() => api.getArticle(bookmarkId, { retries: 1 })),
    retryArticle: (bookmarkId) => write(() => api.retryArticle(bookmarkId, { retries: 1 })),

    // The saved-copy page is the app's own index.html (the only page the server serves it at), told by `copy`.
    savedCopyUrl: (bookmarkId) => `/?copy=1&id=${bookmarkId}`,

    openHighlight: (link, highlightId) => {
      // No extension to paint it: the browser's text fragment scrolls to the highlight's words and marks them.
      const text = highlightTexts.get(highlightId);
      window.open(text ? `${link.split('#')[0]}#:~:text=${textFragment(text)}` : link, '_blank', 'noopener');
      return Promise.resolve(!!text);
    },

    onAccountChange: (cb) => {
      // Another tab may sign out or switch accounts: checked when this one comes back into view.
      let last = 0;
      const check = () => {
        if (document.visibilityState !== 'visible' || Date.now() - last < 30_000 || !user) return;
        last = Date.now();
        const before = user;
        user = null;
        void Promise.all([before, userId()]).then(
          ([a, b]) => a !== b && cb(),
          (err: unknown) => {
            // Signed out elsewhere: off to sign in. Offline or a server hiccup: the next look asks again.
            if (err instanceof ApiClientError && err.kind === 'unauthorized') signedOut();
          },
        );
      };
      document.addEventListener('visibilitychange', check);
      reloaders.add(cb);
      return () => {
        document.removeEventListener('visibilitychange', check);
        reloaders.delete(cb);
      };
    },

    signIn: {
      get label() {
        return t('webSignIn');
      },
      open: () => location.assign(signInAddress()),
    },
  };
  return host;
}

/** A text fragment directive's value for `text`: whole when short, else its first and last words (start,end). */
export function textFragment(text: string): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const enc = (s: string) => encodeURIComponent(s).replace(/-/g, '%2D').replace(/,/g, '%2C');
  if (words.length <= 8) return enc(words.join(' '));
  return `${enc(words.slice(0, 4).join(' '))},${enc(words.slice(-4).join(' '))}`;
}
