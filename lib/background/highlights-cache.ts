// The local copy of pages' highlights (storage.local), kept for the last CACHE_PAGES pages used:
// what is painted and listed while the server cannot be reached.
import type { HighlightsCacheEntry, StoredHighlight } from '../model.js';
import type { BookmarkRef } from '../bookmark-ref.js';
import { highlightsCacheItem } from '../storage/items.js';

const CACHE_PAGES = 300;

/** One page's bookmark (null: not saved) and highlights, by its URL key. */
export interface Page {
  key: string;
  ref: BookmarkRef | null;
  items: StoredHighlight[];
}

export async function cachedPage(key: string): Promise<HighlightsCacheEntry | undefined> {
  return (await highlightsCacheItem.getValue())[key];
}

export async function rememberPage(page: Page): Promise<void> {
  if (!page.ref) return;
  // A copy: the storage item hands out its fallback object itself when nothing is stored.
  const all = { ...(await highlightsCacheItem.getValue()) };
  all[page.key] = { ref: page.ref, items: page.items, at: Date.now() };
  const keys = Object.keys(all);
  if (keys.length > CACHE_PAGES) {
    keys.sort((a, b) => all[a].at - all[b].at);
    for (const k of keys.slice(0, keys.length - CACHE_PAGES)) delete all[k];
  }
  await highlightsCacheItem.setValue(all);
}

export async function forgetPages(): Promise<void> {
  await highlightsCacheItem.setValue({});
}
