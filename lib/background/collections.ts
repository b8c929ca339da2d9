// The collection list for the popup's picker: cached in extension storage so the popup can show it
// on its first paint, refreshed from the server in the background.
import type { TidemarkApi } from '../api/client/index.js';
import type { Collection } from '../api/types.js';
import { UNSORTED } from '../api/constants.js';
import type { Account, CollectionOption } from '../model.js';
import type { CollectionsView } from '../messaging/protocol.js';
import { collectionsCacheItem, recentCollectionsItem } from '../storage/items.js';

const RECENT_MAX = 8;

/** Flat options with full paths ("Work / Reading"), sorted by path; Unsorted first. */
function toOptions(collections: Collection[], unsortedTitle = 'Unsorted'): CollectionOption[] {
  const byId = new Map(collections.map((c) => [c._id, c]));
  const pathOf = (c: Collection): string[] => {
    const path: string[] = [];
    const seen = new Set<number>();
    for (let cur: Collection | undefined = c; cur && !seen.has(cur._id); cur = cur.parent?.$id ? byId.get(cur.parent.$id) : undefined) {
      seen.add(cur._id);
      path.unshift(cur.title);
    }
    return path;
  };
  const items = collections.map((c) => ({
    id: c._id,
    title: c.title,
    path: pathOf(c),
    parentId: c.parent?.$id ?? null,
    count: c.count,
  }));
  items.sort((a, b) => a.path.join('\u0000').localeCompare(b.path.join('\u0000'), undefined, { sensitivity: 'base' }));
  return [{ id: UNSORTED, title: unsortedTitle, path: [unsortedTitle], parentId: null, count: 0 }, ...items];
}

interface CollectionsDeps {
  api: TidemarkApi;
  account: () => Promise<Account | null>;
  now?: () => number;
  unsortedTitle?: () => string;
  onChange?: (view: CollectionsView) => void;
}

export class CollectionsService {
  #refreshing: Promise<CollectionOption[]> | null = null;
  #again: Promise<CollectionOption[]> | null = null;

  readonly #deps: CollectionsDeps;

  constructor(deps: CollectionsDeps) {
    this.#deps = deps;
  }

  #now() {
    return (this.#deps.now ?? Date.now)();
  }

  private static owner(a: Account) {
    return `${a.serverUrl}|${a.userId}`;
  }

  /**
   * The cached list at once (fetching only when there is none); with `refresh`, a fresh list from
   * the server (the cached one when offline).
   */
  async view(refresh = false): Promise<CollectionsView> {
    const account = await this.#deps.account();
    if (!account) return { items: [], recent: [] };
    const cache = await collectionsCacheItem.getValue();
    const fresh = cache && cache.owner === CollectionsService.owner(account);
    let items: CollectionOption[];
    if (fresh && !refresh) {
      items = cache.items;
    } else {
      try {
        items = await this.refresh();
      } catch (err) {
        if (!fresh) throw err;
        items = cache.items; // offline: the last known list
      }
    }
    return { items, recent: await recentCollectionsItem.getValue() };
  }

  /**
   * A fresh list from the server. While a fetch is under way a caller gets one more fetch, started
   * after it, never the one under way: that one may have asked the server before the caller's
   * change (a collection just made elsewhere) and would answer without it.
   */
  refresh(): Promise<CollectionOption[]> {
    if (this.#refreshing) {
      this.#again ??= this.#refreshing
        .catch(() => null)
        .then(() => {
          this.#again = null;
          return this.refresh();
        });
      return this.#again;
    }
    this.#refreshing = (async () => {
      const account = await this.#deps.account();
      if (!account) return [];
      const items = toOptions(await this.#deps.api.getCollections(), this.#deps.unsortedTitle?.());
      await collectionsCacheItem.setValue({ owner: CollectionsService.owner(account), items, fetchedAt: this.#now() });
      this.#deps.onChange?.({ items, recent: await recentCollectionsItem.getValue() });
      return items;
    })().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async create(title: string, parentId: number | null): Promise<CollectionOption> {
    const created = await this.#deps.api.createCollection({ title: title.trim(), ...(parentId ? { parent: { $id: parentId } } : {}) });
    const items = await this.refresh().catch(() => null);
    return (
      items?.find((c) => c.id === created._id) ?? { id: created._id, title: created.title, path: [created.title], parentId, count: 0 }
    );
  }

  async title(id: number): Promise<string | null> {
    const cache = await collectionsCacheItem.getValue();
    return cache?.items.find((c) => c.id === id)?.path.join(' / ') ?? null;
  }

  /** Puts `id` first in the recently used list. */
  async used(id: number): Promise<void> {
    const recent = await recentCollectionsItem.getValue();
    await recentCollectionsItem.setValue([id, ...recent.filter((r) => r !== id)].slice(0, RECENT_MAX));
  }

  async forget(): Promise<void> {
    await collectionsCacheItem.setValue(null);
    await recentCollectionsItem.setValue([]);
  }
}
