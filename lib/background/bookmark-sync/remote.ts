// What the sync asks the server: the changes since its cursor (the incremental links feed, then only
// the bookmarks whose place or address changed and are not the sync's own echo), the collections, and
// for a first sync the full listing of the mirrored bookmarks.
import type { TidemarkApi } from '../../api/client/index.js';
import { LIMITS } from '../../api/constants.js';
import type { Bookmark, Collection } from '../../api/types.js';
import { normalizeUrl } from '../../api/url.js';
import type { RemoteBookmark, RemoteCollection, SyncScope } from '../../bookmark-sync/types.js';

/** The largest id the server's integer columns hold: asking for ids after it lists nothing but answers the cursor. */
const NO_ID = 2_147_483_647;
/** Bookmarks fetched at once while pulling changes. */
const FETCH_AT_ONCE = 4;
const PER_PAGE = 50;

const remoteOf = (b: Bookmark): RemoteBookmark => ({
  id: b._id,
  link: b.link,
  key: normalizeUrl(b.link) ?? b.link,
  title: b.title,
  collectionId: b.collectionId,
  updatedAt: Date.parse(b.lastUpdate) || 0,
});

const collectionOf = (c: Collection): RemoteCollection => ({ id: c._id, title: c.title, parent: c.parent?.$id ?? 0 });

export interface FeedChanges {
  /** [id, link key, collection id] of bookmarks changed since the cursor. */
  items: [number, string, number][];
  removed: number[];
  cursor: number;
}

/** The links feed's cursor now: later changes come with `since` it. */
export async function currentCursor(api: TidemarkApi): Promise<number> {
  return (await api.links({ after: NO_ID, limit: 1 })).cursor;
}

/** Every change since `cursor` (paged). */
export async function changesSince(api: TidemarkApi, cursor: number): Promise<FeedChanges> {
  const out: FeedChanges = { items: [], removed: [], cursor };
  for (;;) {
    const page = await api.links({ since: out.cursor, limit: LIMITS.linksPerAnswerMax });
    out.items.push(...(page.items as [number, string, number][]));
    out.removed.push(...(page.removed ?? []));
    out.cursor = page.cursor;
    if (!page.more) return out;
  }
}

/** The bookmarks `ids`, a few requests at a time. One gone meanwhile (404) is left out: the next pull reports it removed. */
export async function fetchBookmarks(api: TidemarkApi, ids: number[]): Promise<RemoteBookmark[]> {
  const out: RemoteBookmark[] = [];
  for (let i = 0; i < ids.length; i += FETCH_AT_ONCE) {
    const batch = await Promise.all(
      ids.slice(i, i + FETCH_AT_ONCE).map((id) =>
        api.getBookmark(id, { retries: 1 }).then(
          (b) => b,
          (err: { status?: number }) => {
            if (err.status === 404) return null;
            throw err;
          },
        ),
      ),
    );
    for (const b of batch) if (b && !b.removed) out.push(remoteOf(b));
  }
  return out;
}

export async function allCollections(api: TidemarkApi): Promise<RemoteCollection[]> {
  return (await api.getCollections({ retries: 1 })).map(collectionOf);
}

/** Every bookmark the scope mirrors (first sync): all of them but Trash, or the chosen collection and those below it. */
export async function listInScope(api: TidemarkApi, scope: SyncScope): Promise<RemoteBookmark[]> {
  const out: RemoteBookmark[] = [];
  const collectionId = scope.kind === 'all' ? 0 : scope.id;
  for (let page = 0; ; page++) {
    const list = await api.listBookmarks(collectionId, { page, perpage: PER_PAGE, sort: 'created', nested: scope.kind === 'collection' });
    out.push(...list.items.filter((b) => !b.removed).map(remoteOf));
    if (list.items.length < PER_PAGE) return out;
  }
}
