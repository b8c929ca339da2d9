// The library's reader: a bookmark, its highlights with their notes, and highlights made, changed or
// deleted there. They go through the same service as the highlighter's (the local copy, the offline
// queue), so the live page and the side panel agree; tabs showing that page repaint.
import { browser } from 'wxt/browser';
import { normalizeUrl } from '../../api/url.js';
import { emit } from '../../messaging/client.js';
import type { Handlers } from '../../messaging/router.js';
import type { ReaderHighlights } from '../../library/types.js';
import { colorChoice } from '../highlight-colors.js';
import { tabCommand } from '../highlighter-injection.js';
import { cachedPage, type Page } from '../highlights-cache.js';
import { userError } from '../server-answers.js';
import type { Services } from './services.js';

type ReaderMessages = 'readerBookmark' | 'readerHighlights' | 'readerAddHighlight' | 'readerChangeHighlight' | 'readerRemoveHighlight';

async function view(page: Page): Promise<ReaderHighlights> {
  return { items: page.items, ...(await colorChoice()) };
}

/** After a change: the side panel and popup re-read, and open tabs of that page repaint. */
async function changed(link: string): Promise<void> {
  emit('highlightsChanged', { tabId: null });
  const key = normalizeUrl(link);
  // Tabs whose address the extension may not read have no `url` here, and no highlighter to refresh.
  const tabs = await browser.tabs.query({}).catch(() => []);
  for (const tab of tabs) {
    // A tab without the highlighter has nothing to repaint: it paints the new state when it loads.
    if (tab.id !== undefined && tab.url && normalizeUrl(tab.url) === key) void tabCommand(tab.id, 'refresh', null).catch(() => {});
  }
}

export function readerHandlers({ api, highlights }: Services): Pick<Handlers, ReaderMessages> {
  return {
    readerBookmark: ({ bookmarkId }) => api.getBookmark(bookmarkId).catch((err: unknown) => Promise.reject(userError(err))),
    readerHighlights: async ({ bookmarkId, link }) => view(await highlights.page(link, bookmarkId)),
    readerAddHighlight: async ({ bookmarkId, link, ...h }) => {
      const { key } = await highlights.add(-1, link, h, bookmarkId);
      // The add left the page's highlights, with their notes, in the local copy.
      const items = (await cachedPage(normalizeUrl(link) ?? ''))?.items ?? [];
      await changed(link);
      return { items, ...(await colorChoice()), key };
    },
    readerChangeHighlight: async ({ bookmarkId, link, key, color, note }) => {
      const page = await highlights.change(link, key, { ...(color ? { color } : {}), ...(note !== undefined ? { note } : {}) }, bookmarkId);
      await changed(link);
      return view(page);
    },
    readerRemoveHighlight: async ({ bookmarkId, link, key }) => {
      const page = await highlights.remove(link, key, bookmarkId);
      await changed(link);
      return view(page);
    },
  };
}
