// The library's reader: a bookmark, its highlights with their notes, and highlights made, changed or
// deleted there. They go through the same service as the highlighter's (the local copy, the offline
// queue), so the live page and the side panel agree; open tabs of that page repaint. Small: the
// background has a byte budget.
import { browser } from 'wxt/browser';
import { normalizeUrl } from '../../api/url.js';
import { emit } from '../../messaging/client.js';
import type { Handlers } from '../../messaging/router.js';
import type { ReaderHighlights } from '../../library/types.js';
import type { StoredHighlight } from '../../model.js';
import { colorChoice } from '../highlight-colors.js';
import { tabCommand } from '../highlighter-injection.js';
import { cachedPage } from '../highlights-cache.js';
import type { Services } from './services.js';

type ReaderMessages = 'readerBookmark' | 'readerHighlights' | 'readerAddHighlight' | 'readerChangeHighlight';

/** The page's highlights now; after a change, the side panel and popup re-read and tabs of the page (whose address the extension may read) repaint. */
async function view(link: string, items: StoredHighlight[], change = true): Promise<ReaderHighlights> {
  if (change) {
    emit('highlightsChanged', { tabId: null });
    for (const tab of await browser.tabs.query({})) {
      // A tab without the highlighter has nothing to repaint: it paints the new state when it loads.
      if (tab.url && normalizeUrl(tab.url) === normalizeUrl(link)) tabCommand(tab.id!, 'refresh', null).catch(() => {});
    }
  }
  return { items, ...(await colorChoice()) };
}

export function readerHandlers({ api, highlights }: Services): Pick<Handlers, ReaderMessages> {
  return {
    readerBookmark: ({ bookmarkId }) => api.getBookmark(bookmarkId),
    readerHighlights: async ({ bookmarkId, link }) => view(link, (await highlights.page(link, bookmarkId)).items, false),
    readerAddHighlight: async ({ bookmarkId, link, highlight }) => {
      const { key } = await highlights.add(-1, link, highlight, bookmarkId);
      // The add left the page's highlights, with their notes, in the local copy.
      return { ...(await view(link, (await cachedPage(normalizeUrl(link)!))!.items)), key };
    },
    // `fields` null: the highlight is deleted.
    readerChangeHighlight: async ({ bookmarkId, link, key, fields }) =>
      view(link, (await (fields ? highlights.change(link, key, fields, bookmarkId) : highlights.remove(link, key, bookmarkId))).items),
  };
}
