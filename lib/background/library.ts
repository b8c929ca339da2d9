// The library page's side of the background: listings, the collection tree, highlights, bulk
// changes with their undo, collection management and exports. The page never sees a token: it
// asks here through typed messages (lib/messaging/protocol.ts).
import { storage } from 'wxt/utils/storage';
import type { TidemarkApi } from '../api/client/index.js';
import { ApiClientError } from '../api/client/index.js';
import { apiBase } from '../api/client/http.js';
import { LIMITS, TRASH, UNSORTED } from '../api/constants.js';
import type { Bookmark, Collection, HighlightListItem } from '../api/types.js';
import type { Account } from '../model.js';
import type { BulkAction, BulkResult, BulkTarget, LibraryCollection, LibraryCollectionOp, LibraryListQuery, LibraryPage, SavedCopy } from '../library/types.js';

export type * from '../library/types.js';

export const LIBRARY_PAGE_SIZE = 50;

/** The last answers the library saw, per query, for showing offline (a few dozen pages at most). */
const listCache = storage.defineItem<Record<string, { at: number; owner: string; page: { items: Bookmark[]; count: number } }>>(
  'local:libraryListCache',
  { fallback: {} },
);
const collectionsCache = storage.defineItem<{ owner: string; items: LibraryCollection[] } | null>('local:libraryCollectionsCache', {
  fallback: null,
});
/** Pages kept for offline use: the first two of the last queries (the cache is rewritten on every answer, so it stays small). */
const MAX_CACHED_PAGES = 12;
const CACHED_PAGE_NUMBERS = 2;

export interface LibraryDeps {
  api: TidemarkApi;
  account: () => Promise<Account | null>;
  accessToken: () => Promise<string | null>;
  /** Queues a bulk write for when the server is reachable again. */
  enqueueBulk?: (write: { method: 'PUT' | 'DELETE'; collectionId: number; ids: number[]; body: Record<string, unknown>; label: string }) => Promise<void>;
  /** Something in the library changed (the saved-link index and badge may need a refresh). */
  onChanged?: () => void;
}

const offlineError = (err: unknown) => err instanceof ApiClientError && err.kind === 'network';

function toLibraryCollection(c: Collection, userId: number): LibraryCollection {
  return {
    id: c._id,
    title: c.title,
    parentId: c.parent?.$id ?? null,
    count: c.count,
    level: c.access.level,
    shared: !!c.collaborators || c.user.$id !== userId,
    foreign: c.user.$id !== userId,
    expanded: c.expanded,
    sort: c.sort,
  };
}

/** Bookmarks grouped by the collection they are in (bulk calls are per source collection). */
function bySource(targets: BulkTarget[]): Map<number, BulkTarget[]> {
  const groups = new Map<number, BulkTarget[]>();
  for (const t of targets) {
    const list = groups.get(t.collectionId);
    if (list) list.push(t);
    else groups.set(t.collectionId, [t]);
  }
  return groups;
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export class LibraryService {
  constructor(private deps: LibraryDeps) {}

  private async owner(): Promise<string> {
    const acc = await this.deps.account();
    if (!acc) throw new ApiClientError('unauthorized', 'You are signed out. Open Tidemark\'s options and sign in.');
    return `${acc.serverUrl}|${acc.userId}`;
  }

  async list(q: LibraryListQuery): Promise<LibraryPage> {
    const owner = await this.owner();
    const key = JSON.stringify([q.collectionId, q.search, q.sort, q.page]);
    try {
      const res = await this.deps.api.listBookmarks(q.collectionId, {
        search: q.search || undefined,
        sort: q.sort || undefined,
        page: q.page,
        perpage: LIBRARY_PAGE_SIZE,
      });
      const page = { items: res.items, count: res.count };
      if (q.page < CACHED_PAGE_NUMBERS) void this.remember(key, owner, page).catch((err: unknown) => console.warn(`Tidemark: the library's offline copy was not kept: ${(err as Error).message}`));
      return { ...page, offline: false, cachedAt: null };
    } catch (err) {
      if (!offlineError(err)) throw err;
      const cached = this.pending.get(key) ?? (await listCache.getValue())[key];
      if (cached && cached.owner === owner) return { ...cached.page, offline: true, cachedAt: cached.at };
      throw err;
    }
  }

  private pending = new Map<string, { at: number; owner: string; page: { items: Bookmark[]; count: number } }>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * Keeps the answer for offline use. Written a moment later in one go, so storing it never
   * delays the answers the page waits for (typing sends one query after another).
   */
  private remember(key: string, owner: string, page: { items: Bookmark[]; count: number }): Promise<void> {
    this.pending.set(key, { at: Date.now(), owner, page });
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      void this.flush().catch((err: unknown) => console.warn(`Tidemark: the library's offline copy was not kept: ${(err as Error).message}`));
    }, 800);
    return Promise.resolve();
  }

  private async flush(): Promise<void> {
    const fresh = [...this.pending.entries()];
    this.pending.clear();
    const all = { ...(await listCache.getValue()) };
    for (const [key, entry] of fresh) all[key] = entry;
    const keys = Object.keys(all);
    if (keys.length > MAX_CACHED_PAGES) {
      keys.sort((a, b) => all[a]!.at - all[b]!.at);
      for (const k of keys.slice(0, keys.length - MAX_CACHED_PAGES)) delete all[k];
    }
    await listCache.setValue(all);
  }

  async collections(): Promise<{ items: LibraryCollection[]; offline: boolean }> {
    const owner = await this.owner();
    const acc = (await this.deps.account())!;
    try {
      const items = (await this.deps.api.getCollections({ retries: 1 })).map((c) => toLibraryCollection(c, acc.userId));
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
    await this.owner();
    return this.deps.api.listHighlights(collectionId, page, LIBRARY_PAGE_SIZE);
  }

  /**
   * Applies `action` to `targets` with one bulk call per source collection (one call in total
   * when they all are in one collection, as in a collection's own listing), at most 100 ids each.
   */
  async bulk(action: BulkAction, targets: BulkTarget[]): Promise<BulkResult> {
    await this.owner();
    const api = this.deps.api;
    let modified = 0;
    if (action.kind === 'untag') {
      // The bulk call can only append tags or clear them all: one tag comes off bookmark by bookmark.
      for (const t of targets) {
        if (!t.tags.some((x) => x.toLowerCase() === action.tag.toLowerCase())) continue;
        await api.updateBookmark(t.id, { tags: t.tags.filter((x) => x.toLowerCase() !== action.tag.toLowerCase()) });
        modified++;
      }
      this.deps.onChanged?.();
      return { modified, queued: false, undoable: true };
    }
    const calls: { method: 'PUT' | 'DELETE'; collectionId: number; ids: number[]; body: Record<string, unknown> }[] = [];
    for (const [source, group] of bySource(targets)) {
      for (const part of chunks(group.map((t) => t.id), LIMITS.idsMax)) {
        switch (action.kind) {
          case 'move':
            if (source !== action.to) calls.push({ method: 'PUT', collectionId: source, ids: part, body: { collection: { $id: action.to } } });
            break;
          case 'restore':
            calls.push({ method: 'PUT', collectionId: source, ids: part, body: { collection: { $id: UNSORTED } } });
            break;
          case 'tag':
            calls.push({ method: 'PUT', collectionId: source, ids: part, body: { tags: action.tags } });
            break;
          case 'favourite':
            calls.push({ method: 'PUT', collectionId: source, ids: part, body: { important: action.value } });
            break;
          case 'trash':
            if (source !== TRASH) calls.push({ method: 'DELETE', collectionId: source, ids: part, body: {} });
            break;
          case 'delete-forever':
            if (source === TRASH) calls.push({ method: 'DELETE', collectionId: source, ids: part, body: {} });
            break;
        }
      }
    }
    let queued = false;
    for (const [i, call] of calls.entries()) {
      try {
        modified += await this.send(call);
      } catch (err) {
        if (!offlineError(err) || !this.deps.enqueueBulk || action.kind === 'delete-forever') throw err;
        // The server cannot be reached: this call and the rest wait in the offline queue, in order.
        for (const rest of calls.slice(i)) {
          await this.deps.enqueueBulk({ ...rest, label: labelOf(action, rest.ids.length) });
          modified += rest.ids.length;
        }
        queued = true;
        break;
      }
    }
    this.deps.onChanged?.();
    return { modified, queued, undoable: action.kind !== 'delete-forever' };
  }

  private async send(call: { method: 'PUT' | 'DELETE'; collectionId: number; ids: number[]; body: Record<string, unknown> }): Promise<number> {
    if (call.method === 'DELETE') return this.deps.api.bulkRemove(call.collectionId, call.ids, undefined, { retries: 1 });
    return this.deps.api.bulkUpdate(call.collectionId, { ...call.body, ids: call.ids }, undefined, { retries: 1 });
  }

  /**
   * Reverses a bulk change made with `action` on `before` (the bookmarks as they were): moves and
   * Trash go back to each one's collection; favourites back to each one's value; tags back to
   * each one's own list.
   */
  async undo(action: BulkAction, before: BulkTarget[]): Promise<BulkResult> {
    await this.owner();
    const api = this.deps.api;
    let modified = 0;
    if (action.kind === 'tag' || action.kind === 'untag') {
      for (const t of before) {
        await api.updateBookmark(t.id, { tags: t.tags });
        modified++;
      }
    } else if (action.kind === 'favourite') {
      for (const value of [true, false]) {
        const ids = before.filter((t) => t.important === value).map((t) => t.id);
        // Where they are now: favourites do not move bookmarks.
        for (const [source, group] of bySource(before.filter((t) => ids.includes(t.id)))) {
          for (const part of chunks(group.map((t) => t.id), LIMITS.idsMax)) {
            modified += await api.bulkUpdate(source, { ids: part, important: value });
          }
        }
      }
    } else if (action.kind === 'move' || action.kind === 'trash' || action.kind === 'restore') {
      const now = action.kind === 'move' ? action.to : action.kind === 'trash' ? TRASH : UNSORTED;
      for (const [original, group] of bySource(before)) {
        if (original === now) continue;
        for (const part of chunks(group.map((t) => t.id), LIMITS.idsMax)) {
          modified += await api.bulkUpdate(now, { ids: part, collection: { $id: original } });
        }
      }
    } else {
      throw new Error('Deleting for good cannot be undone.');
    }
    this.deps.onChanged?.();
    return { modified, queued: false, undoable: false };
  }

  /** Empty Trash: everything in it deleted for good. */
  async emptyTrash(): Promise<number> {
    await this.owner();
    const modified = await this.deps.api.bulkRemove(TRASH, undefined);
    this.deps.onChanged?.();
    return modified;
  }

  /** Carries out a collection change; a created collection's id, else null. */
  async collectionOp(op: LibraryCollectionOp): Promise<number | null> {
    await this.owner();
    const api = this.deps.api;
    switch (op.op) {
      case 'create':
        return (await api.createCollection({ title: op.title, ...(op.parentId ? { parent: { $id: op.parentId } } : {}) }))._id;
      case 'rename':
        await api.updateCollection(op.id, { title: op.title });
        return null;
      case 'move':
        // `parent: null` makes it a root collection again.
        await api.updateCollection(op.id, { parent: op.parentId ? { $id: op.parentId } : null });
        return null;
      case 'delete':
        await api.removeCollection(op.id);
        return null;
      case 'merge':
        await api.mergeCollections(op.ids, op.to);
        return null;
      case 'sort':
        await api.sortCollections(op.sort);
        return null;
      case 'share':
        await api.inviteToCollection(op.id, { emails: op.emails, role: op.role });
        return null;
    }
  }

  /** The export file as text (the page turns it into a download). */
  async exportFile(collectionId: number, format: 'html' | 'csv' | 'md', search: string): Promise<{ name: string; type: string; text: string }> {
    const query = new URLSearchParams();
    if (search) query.set('search', search);
    if (collectionId > 0) query.set('nested', 'true');
    const { res, text } = await this.fetchText(`/bookmarks/${collectionId}/export.${format}?${query}`, { offline: 'to export', failed: 'The export failed' });
    const disposition = res.headers.get('content-disposition') ?? '';
    const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `tidemark.${format}`;
    return { name, type: res.headers.get('content-type') ?? 'text/plain', text };
  }

  /**
   * The bookmark's permanent copy (sanitised HTML) and the Content-Security-Policy the server serves
   * it with, for the saved-copy page to show in a sandboxed frame. The token stays here.
   */
  async savedCopy(bookmarkId: number): Promise<SavedCopy> {
    const { res, text } = await this.fetchText(`/bookmark/${bookmarkId}/cache`, { offline: 'to open the saved copy', failed: 'The saved copy could not be opened' });
    const modified = res.headers.get('last-modified');
    let pageUrl = res.headers.get('x-copy-url') ?? '';
    try {
      pageUrl = decodeURI(pageUrl);
    } catch {
      // Not valid percent-encoding: show the address as the server sent it.
    }
    return {
      html: text,
      csp: res.headers.get('content-security-policy') ?? '',
      pageUrl,
      savedAt: modified ? new Date(modified).toISOString() : null,
    };
  }

  /** GET `path` of the API with the token, as text; a failure says what happened in the server's words. */
  private async fetchText(path: string, words: { offline: string; failed: string }): Promise<{ res: Response; text: string }> {
    const acc = await this.deps.account();
    const token = await this.deps.accessToken();
    if (!acc || !token) throw new ApiClientError('unauthorized', 'You are signed out. Open Tidemark\'s options and sign in.');
    let res: Response;
    try {
      res = await fetch(`${apiBase(acc.serverUrl)}${path}`, { headers: { authorization: `Bearer ${token}` } });
    } catch {
      throw new ApiClientError('network', `Could not reach the Tidemark server at ${new URL(acc.serverUrl).origin} ${words.offline}. Try again when you are online.`);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = `${words.failed} (HTTP ${res.status}).`;
      try {
        message = (JSON.parse(text) as { errorMessage?: string }).errorMessage ?? message;
      } catch {
        /* not the JSON error envelope: keep the status message */
      }
      throw new ApiClientError(res.status === 401 ? 'unauthorized' : 'http', message, res.status);
    }
    return { res, text };
  }
}

function labelOf(action: BulkAction, n: number): string {
  const what = `${n} bookmark${n === 1 ? '' : 's'}`;
  switch (action.kind) {
    case 'move':
      return `Move ${what}`;
    case 'tag':
      return `Tag ${what}`;
    case 'favourite':
      return `${action.value ? 'Favourite' : 'Unfavourite'} ${what}`;
    case 'trash':
      return `Move ${what} to Trash`;
    case 'restore':
      return `Restore ${what}`;
    default:
      return `Change ${what}`;
  }
}
