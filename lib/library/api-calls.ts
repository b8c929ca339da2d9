// The library's changes sent to the API: one planned call (lib/library/bulk-calls.ts), a change of
// every match of a search, a tag's count in a collection, a collection change. Only the typed API
// client is needed, so the background and the web app's host send them alike.
import { ApiClientError, type TidemarkApi } from '../api/client/index.js';
import { putBody, type Call } from './bulk-calls.js';
import type { BulkAction, LibraryCollectionOp } from './types.js';

/** Sends one planned call; how many bookmarks it changed. */
export async function sendCall(api: TidemarkApi, call: Call): Promise<number> {
  switch (call.kind) {
    case 'bulk':
      if (call.method === 'DELETE') return api.bulkRemove(call.collectionId, call.ids, undefined, { retries: 1 });
      return api.bulkUpdate(call.collectionId, { ...call.body, ids: call.ids }, undefined, { retries: 1 });
    case 'set-tags':
      await api.updateBookmark(call.id, { tags: call.tags });
      return 1;
    case 'remove-tag':
      await api.removeTags(call.collectionId, [call.tag]);
      return call.targets.length;
  }
}

/** How many bookmarks of the collection carry `tag` (any case). */
export async function tagCount(api: TidemarkApi, collectionId: number, tag: string): Promise<number> {
  return (await api.collectionTags(collectionId)).find((x) => x._id.toLowerCase() === tag.toLowerCase())?.count ?? 0;
}

/**
 * `action` on every bookmark of `collectionId` matching `search` (all of it when undefined) in one
 * call; how many changed. A tag comes off every match only for a whole collection (the API has no
 * "remove this tag" by search).
 */
export async function matchingCall(api: TidemarkApi, action: BulkAction, collectionId: number, search: string | undefined): Promise<number> {
  const body = putBody(action);
  if (body) return api.bulkUpdate(collectionId, body, search, { retries: 1 });
  if (action.kind !== 'untag') return api.bulkRemove(collectionId, undefined, search, { retries: 1 });
  if (search) throw new ApiClientError('http', 'A tag can be taken off every match only without a search. Clear the search to take it off the whole collection, or select the bookmarks.');
  const carrying = await tagCount(api, collectionId, action.tag);
  await api.removeTags(collectionId, [action.tag]);
  return carrying;
}

/** Carries out a collection change; a created collection's id, else null. */
export async function collectionOp(api: TidemarkApi, op: LibraryCollectionOp): Promise<number | null> {
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
