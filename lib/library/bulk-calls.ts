// How a library bulk change becomes API calls: grouped by source collection, at most 100 ids a
// call, tags set exactly where the API can only append or clear, and the calls that reverse a
// change (Undo). Pure: no extension API and no network, so the background (lib/background/library.ts)
// and the web app's host plan the same calls; they differ only in how they send them (and the
// background's offline queue, which takes the bulk form, `queueForm`).
import { LIMITS, TRASH, UNSORTED } from '../api/constants.js';
import type { Collection } from '../api/types.js';
import type { BulkAction, BulkTarget, LibraryCollection } from './types.js';

export function toLibraryCollection(c: Collection, userId: number): LibraryCollection {
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

/** A group smaller than this is cheaper (or as cheap) one bookmark at a time than with a pair of bulk calls. */
const MIN_GROUP = 3;

/** One bulk call: PUT or DELETE /bookmarks/{collectionId} on up to 100 ids. */
export interface BulkCall {
  kind: 'bulk';
  method: 'PUT' | 'DELETE';
  collectionId: number;
  ids: number[];
  body: Record<string, unknown>;
}
/** What a bulk change sends: bulk calls, one bookmark's tags set exactly, or a tag taken off a whole collection. */
export type Call =
  | BulkCall
  | { kind: 'set-tags'; id: number; collectionId: number; tags: string[] }
  | { kind: 'remove-tag'; collectionId: number; tag: string; targets: BulkTarget[] };

const hasTag = (tags: string[], tag: string) => tags.some((x) => x.toLowerCase() === tag.toLowerCase());
export const withoutTag = (tags: string[], tag: string) => tags.filter((x) => x.toLowerCase() !== tag.toLowerCase());

/**
 * Bulk calls leaving each target with exactly `next(target)` as its tags: bookmarks (of one
 * collection) ending with the same tags share a clear (`tags: []`) and, unless they end with none,
 * an append of their tags.
 */
export function exactTagCalls(targets: BulkTarget[], next: (t: BulkTarget) => string[]): BulkCall[] {
  const calls: BulkCall[] = [];
  for (const [source, group] of bySource(targets)) {
    const same = new Map<string, { tags: string[]; ids: number[] }>();
    for (const t of group) {
      const tags = next(t);
      const key = JSON.stringify(tags.map((x) => x.toLowerCase()).sort());
      const entry = same.get(key);
      if (entry) entry.ids.push(t.id);
      else same.set(key, { tags, ids: [t.id] });
    }
    for (const { tags, ids } of same.values()) {
      for (const part of chunks(ids, LIMITS.idsMax)) {
        calls.push({ kind: 'bulk', method: 'PUT', collectionId: source, ids: part, body: { tags: [] } });
        if (tags.length) calls.push({ kind: 'bulk', method: 'PUT', collectionId: source, ids: part, body: { tags } });
      }
    }
  }
  return calls;
}

/** A call in the form the offline queue takes (bulk calls only). */
export function queueForm(call: Call): Omit<BulkCall, 'kind'>[] {
  if (call.kind === 'bulk') return [{ method: call.method, collectionId: call.collectionId, ids: call.ids, body: call.body }];
  const exact =
    call.kind === 'set-tags'
      ? exactTagCalls([{ id: call.id, collectionId: call.collectionId, tags: call.tags, important: false }], () => call.tags)
      : exactTagCalls(call.targets, (t) => withoutTag(t.tags, call.tag));
  return exact.map(({ kind: _kind, ...rest }) => rest);
}

/** The body of the bulk PUT that makes `action`'s change; null for those that are not one PUT (to Trash, deleting for good, taking a tag off). */
export function putBody(action: BulkAction): Record<string, unknown> | null {
  switch (action.kind) {
    case 'move':
      return { collection: { $id: action.to } };
    case 'restore':
      return { collection: { $id: UNSORTED } };
    case 'tag':
      return { tags: action.tags };
    case 'favourite':
      return { important: action.value };
    default:
      return null;
  }
}

/** Where a bulk change of `collectionId`'s bookmarks puts them, when it moves them (else null). */
export function destinationOf(action: BulkAction, collectionId: number): number | null {
  const to = action.kind === 'move' ? action.to : action.kind === 'trash' ? TRASH : action.kind === 'restore' ? UNSORTED : null;
  return to === null || to === collectionId || (collectionId === TRASH && action.kind === 'trash') ? null : to;
}

export function labelOf(action: BulkAction, n: number): string {
  const what = `${n} bookmark${n === 1 ? '' : 's'}`;
  switch (action.kind) {
    case 'move':
      return `Move ${what}`;
    case 'tag':
      return `Tag ${what}`;
    case 'untag':
      return `Remove a tag from ${what}`;
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

/** The calls of a bulk change other than taking a tag off (see `removeTagCalls`). */
export function bulkCalls(action: Exclude<BulkAction, { kind: 'untag' }>, targets: BulkTarget[]): Call[] {
  const calls: Call[] = [];
  const body = putBody(action);
  for (const [source, group] of bySource(targets)) {
    // Nothing to do for bookmarks already where a move, or Trash, would put them; only Trash's are deleted for good.
    const skip = action.kind === 'move' ? source === action.to : action.kind === 'trash' ? source === TRASH : action.kind === 'delete-forever' && source !== TRASH;
    if (skip) continue;
    for (const part of chunks(group.map((t) => t.id), LIMITS.idsMax)) {
      calls.push({ kind: 'bulk', method: body ? 'PUT' : 'DELETE', collectionId: source, ids: part, body: body ?? {} });
    }
  }
  return calls;
}

/**
 * The calls that take `tag` off `targets` (as they are now), fewest first: where every bookmark
 * of a collection that carries the tag is a target, one `DELETE /tags/{collectionId}` (`carrying`
 * says how many of a collection's bookmarks carry it; null when that cannot be asked now, offline);
 * three or more bookmarks that end with the same tags share a bulk clear and a bulk append; the
 * others get one `PUT /bookmark/{id}` each (the bulk call can only append tags or clear them all).
 */
export async function removeTagCalls(tag: string, targets: BulkTarget[], carrying: (collectionId: number) => Promise<number | null>): Promise<Call[]> {
  const calls: Call[] = [];
  for (const [source, group] of bySource(targets.filter((t) => hasTag(t.tags, tag)))) {
    if (source !== TRASH && group.length >= MIN_GROUP && (await carrying(source)) === group.length) {
      calls.push({ kind: 'remove-tag', collectionId: source, tag, targets: group });
      continue;
    }
    const bySameResult = new Map<string, BulkTarget[]>();
    for (const t of group) {
      const key = JSON.stringify(withoutTag(t.tags, tag).map((x) => x.toLowerCase()).sort());
      bySameResult.set(key, [...(bySameResult.get(key) ?? []), t]);
    }
    for (const same of bySameResult.values()) {
      if (same.length >= MIN_GROUP) calls.push(...exactTagCalls(same, (t) => withoutTag(t.tags, tag)));
      else for (const t of same) calls.push({ kind: 'set-tags', id: t.id, collectionId: source, tags: withoutTag(t.tags, tag) });
    }
  }
  return calls;
}

/**
 * The calls reversing a bulk change made with `action` on `before` (the bookmarks as they were):
 * moves and Trash go back to each one's collection; favourites back to each one's value; an added
 * tag comes off the bookmarks that did not have it (`untag` plans that, as `removeTagCalls` or,
 * for the offline queue, exact tags); a removed tag goes back on those that had it.
 */
export async function undoCalls(action: BulkAction, before: BulkTarget[], untag: (tag: string, targets: BulkTarget[]) => Promise<Call[]>): Promise<Call[]> {
  const calls: Call[] = [];
  const bulk = (collectionId: number, group: BulkTarget[], body: Record<string, unknown>) => {
    for (const part of chunks(group.map((t) => t.id), LIMITS.idsMax)) calls.push({ kind: 'bulk', method: 'PUT', collectionId, ids: part, body });
  };
  if (action.kind === 'tag') {
    for (const tag of action.tags) {
      // Now they carry the tag; those that had it before keep it.
      calls.push(...(await untag(tag, before.filter((t) => !hasTag(t.tags, tag)).map((t) => ({ ...t, tags: [...t.tags, tag] })))));
    }
  } else if (action.kind === 'untag') {
    // Appended again (at the end of each one's tags).
    for (const [source, group] of bySource(before.filter((t) => hasTag(t.tags, action.tag)))) bulk(source, group, { tags: [action.tag] });
  } else if (action.kind === 'favourite') {
    // Where they are now: favourites do not move bookmarks.
    for (const value of [true, false]) {
      for (const [source, group] of bySource(before.filter((t) => t.important === value))) bulk(source, group, { important: value });
    }
  } else if (action.kind === 'move' || action.kind === 'trash' || action.kind === 'restore') {
    const now = action.kind === 'move' ? action.to : action.kind === 'trash' ? TRASH : UNSORTED;
    for (const [original, group] of bySource(before)) {
      if (original !== now) bulk(now, group, { collection: { $id: original } });
    }
  } else {
    throw new Error('Deleting for good cannot be undone.');
  }
  return calls;
}
