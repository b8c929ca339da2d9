// The background's queue and highlight service for one page already saved as a bookmark, wired as
// lib/background/main.ts wires them (a delivered highlight write updates the local copy).
import type { TidemarkApi } from '../../../lib/api/client/index.js';
import { normalizeUrl } from '../../../lib/api/url.js';
import { HighlightsService } from '../../../lib/background/highlights.js';
import { WriteQueue } from '../../../lib/background/queue.js';
import type { Account } from '../../../lib/model.js';

export function highlightWorker(api: TidemarkApi, account: () => Account, page: { link: string; bookmarkId: () => number }) {
  const pageKey = normalizeUrl(page.link);
  let highlights!: HighlightsService;
  const queue = new WriteQueue({
    api,
    account: async () => account(),
    onDelivered: (write, bookmark) => {
      if (write.op === 'update' && write.body.highlights && bookmark) void highlights.noteDelivered(bookmark);
    },
  });
  highlights = new HighlightsService({
    api,
    queue,
    account: async () => account(),
    // The saved-link index knows the page.
    lookup: (key) => (key === pageKey ? { id: page.bookmarkId(), collectionId: -1 } : null),
    openForTab: async () => {
      throw new Error('the page is saved already');
    },
    onSaved: () => {},
  });
  return { queue, highlights };
}
