// The library's offline copy (the last list pages and collections it was shown) brought up to date
// with a bulk change that waits in the offline queue, so the library shows the change at once, as
// it will be once the queue is sent: a bookmark moved to Trash leaves the list, a tag shows on its
// row, an Undo puts it back. Pure: the background reads and writes the stored copy around it.
import { ALL_COLLECTIONS, TRASH, UNSORTED } from '../api/constants.js';
import type { Bookmark } from '../api/types.js';
import type { BulkAction, BulkTarget, LibraryCollection } from './types.js';

/** A list page as kept for offline use. */
export interface CopiedPage {
  items: Bookmark[];
  count: number;
}

/** What a bulk change leaves a bookmark with: the fields bulk changes touch. */
export type BookmarkState = BulkTarget;

const lower = (tags: string[]) => new Set(tags.map((x) => x.toLowerCase()));

/** Each target's state after `action` (deleting for good is never queued, so it has none). */
export function statesAfter(action: BulkAction, targets: BulkTarget[]): BookmarkState[] {
  return targets.map((t) => {
    switch (action.kind) {
      case 'move':
        return { ...t, collectionId: action.to };
      case 'trash':
        return { ...t, collectionId: TRASH };
      case 'restore':
        return { ...t, collectionId: UNSORTED };
      case 'tag': {
        const has = lower(t.tags);
        return { ...t, tags: [...t.tags, ...action.tags.filter((x) => !has.has(x.toLowerCase()))] };
      }
      case 'untag':
        return { ...t, tags: t.tags.filter((x) => x.toLowerCase() !== action.tag.toLowerCase()) };
      case 'favourite':
        return { ...t, important: action.value };
      case 'delete-forever':
        return t;
    }
  });
}

/** The key the background keeps a list page under: [collectionId, search, sort, page]. */
type PageKey = [number, string, string, number];

/** Whether a listing of `collectionId` (without `nested`) shows a bookmark in `inCollection`. */
const lists = (collectionId: number, inCollection: number) =>
  collectionId === ALL_COLLECTIONS ? inCollection !== TRASH : collectionId === inCollection;

/** Orders for the sorts whose key a bookmark carries; other sorts put a returning bookmark first. */
const ORDERS: Record<string, (a: Bookmark, b: Bookmark) => number> = {
  '': (a, b) => b.created.localeCompare(a.created),
  '-created': (a, b) => b.created.localeCompare(a.created),
  created: (a, b) => a.created.localeCompare(b.created),
  title: (a, b) => a.title.localeCompare(b.title),
  '-title': (a, b) => b.title.localeCompare(a.title),
  domain: (a, b) => a.domain.localeCompare(b.domain),
  '-domain': (a, b) => b.domain.localeCompare(a.domain),
};

function withState(b: Bookmark, s: BookmarkState): Bookmark {
  return {
    ...b,
    collectionId: s.collectionId,
    collection: { ...b.collection, $id: s.collectionId },
    tags: s.tags,
    important: s.important,
    removed: s.collectionId === TRASH,
  };
}

/**
 * The copied pages (keyed as the background keys them) with `states` applied: a changed bookmark is
 * updated where its listing still shows it, dropped where it no longer does, and added to the first
 * page of a listing it now belongs to (one without a search: whether a search matches it is the
 * server's to say), in that listing's order. Counts follow. Pages not touched are returned as they were.
 */
export function applyToPages<P extends CopiedPage>(pages: Record<string, P>, states: BookmarkState[]): Record<string, P> {
  const byId = new Map(states.map((s) => [s.id, s]));
  const known = new Map<number, Bookmark>();
  for (const p of Object.values(pages)) for (const b of p.items) if (byId.has(b._id)) known.set(b._id, b);
  const out: Record<string, P> = {};
  // Which changed bookmarks each query (all its pages) still shows, to add a bookmark only where it is missing.
  const shownByQuery = new Map<string, Set<number>>();
  const parsed = Object.keys(pages).map((key) => ({ key, at: JSON.parse(key) as PageKey }));
  for (const { key, at } of parsed) {
    const kept: Bookmark[] = [];
    let removed = 0;
    const query = JSON.stringify(at.slice(0, 3));
    const shown = shownByQuery.get(query) ?? new Set<number>();
    shownByQuery.set(query, shown);
    for (const b of pages[key]!.items) {
      const s = byId.get(b._id);
      if (!s) kept.push(b);
      else if (lists(at[0], s.collectionId)) {
        kept.push(withState(b, s));
        shown.add(b._id);
      } else removed++;
    }
    out[key] = removed || kept.some((b, i) => b !== pages[key]!.items[i]) ? { ...pages[key]!, items: kept, count: Math.max(0, pages[key]!.count - removed) } : pages[key]!;
  }
  for (const { key, at } of parsed) {
    const [collectionId, search, sort, page] = at;
    if (page !== 0 || search) continue;
    const shown = shownByQuery.get(JSON.stringify(at.slice(0, 3)))!;
    const added = [...known.values()].filter((b) => !shown.has(b._id) && lists(collectionId, byId.get(b._id)!.collectionId));
    if (!added.length) continue;
    const order = ORDERS[sort];
    const fresh = added.map((b) => withState(b, byId.get(b._id)!));
    const items = order ? [...out[key]!.items, ...fresh].sort(order) : [...fresh, ...out[key]!.items];
    out[key] = { ...out[key]!, items, count: out[key]!.count + added.length };
  }
  return out;
}

/** The sidebar's collection counts after bookmarks moved from their `before` collections to their `after` ones. */
export function applyToCounts(collections: LibraryCollection[], before: BookmarkState[], after: BookmarkState[]): LibraryCollection[] {
  const delta = new Map<number, number>();
  const from = new Map(before.map((s) => [s.id, s.collectionId]));
  for (const s of after) {
    const was = from.get(s.id);
    if (was === undefined || was === s.collectionId) continue;
    delta.set(was, (delta.get(was) ?? 0) - 1);
    delta.set(s.collectionId, (delta.get(s.collectionId) ?? 0) + 1);
  }
  if (!delta.size) return collections;
  return collections.map((c) => (delta.has(c.id) ? { ...c, count: Math.max(0, c.count + delta.get(c.id)!) } : c));
}
