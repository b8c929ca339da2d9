// The background's services as main.ts wires them, handed to each domain's handlers.
import type { Account } from '../../model.js';
import type { Auth } from '../auth.js';
import type { BadgeService } from '../badge.js';
import type { BookmarksService } from '../bookmarks.js';
import type { CollectionsService } from '../collections.js';
import type { ExistsBatcher } from '../exists-batcher.js';
import type { HighlightsService } from '../highlights.js';
import type { SavedIndexService } from '../index-sync.js';
import type { LibraryService } from '../library.js';
import type { PagePrefetch } from '../page-prefetch.js';
import type { WriteQueue } from '../queue.js';

export interface Services {
  auth: Auth;
  api: Auth['api'];
  account: () => Promise<Account | null>;
  queue: WriteQueue;
  index: SavedIndexService;
  exists: ExistsBatcher;
  collections: CollectionsService;
  badge: BadgeService;
  bookmarks: BookmarksService;
  highlights: HighlightsService;
  library: LibraryService;
  /** A page's highlights asked for while the highlighter is being injected to paint them. */
  pagePrefetch: PagePrefetch<Awaited<ReturnType<HighlightsService['page']>>>;
}
