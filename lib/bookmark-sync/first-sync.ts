// The first sync of a folder: both sides are merged and nothing is deleted. A browser folder and a
// collection are the same when they have the same title under the same (matched) parent; a browser
// bookmark and a Tidemark one are the same when they have the same address in the same matched
// folder. The same address in two places stays two bookmarks (no silent merging across collections).
import type { Op } from './plan.js';
import { collectionsInScope, folderCreates } from './plan.js';
import type { Snapshot } from './snapshot.js';
import { UNSORTED, type Mirror, type RemoteBookmark, type RemoteCollection, type SyncScope } from './types.js';

export interface FirstSyncInput {
  snapshot: Snapshot;
  owner: string;
  scope: SyncScope;
  /** The links feed's cursor taken before the server was listed (later changes come with the next pull). */
  cursor: number;
  collections: RemoteCollection[];
  /** The server's bookmarks in the scope's collections (not in Trash). */
  bookmarks: RemoteBookmark[];
}

export interface FirstSyncPlan {
  mirror: Mirror;
  ops: Op[];
  matched: { folders: number; bookmarks: number };
}

const sameTitle = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

export function firstSync(input: FirstSyncInput): FirstSyncPlan {
  const { snapshot, scope } = input;
  const mirror: Mirror = { owner: input.owner, rootId: snapshot.rootId, scope, cursor: input.cursor, bookmarks: {}, folders: {}, collectionRemovals: [] };
  const ops: Op[] = [];
  const cols = collectionsInScope(input.collections, scope);
  const scopeRoot = scope.kind === 'all' ? UNSORTED : scope.id;
  // A root collection's parent is 0: when all are mirrored it hangs from the root folder.
  const rootParent = scope.kind === 'all' ? 0 : scope.id;
  const collectionOfFolder = new Map<string, number>([[snapshot.rootId, scopeRoot]]);
  const folderOfCollection = new Map<number, string>([[scopeRoot, snapshot.rootId]]);
  if (scope.kind === 'all') folderOfCollection.set(0, snapshot.rootId);

  // Folders, parents first: a folder matches an unmatched collection of the same title under its parent's collection.
  const folders = [...snapshot.folders.entries()].sort((a, b) => a[1].depth - b[1].depth);
  let matchedFolders = 0;
  for (const [id, f] of folders) {
    const parentCol = f.parent === snapshot.rootId ? rootParent : collectionOfFolder.get(f.parent);
    if (parentCol === undefined) continue;
    const match = [...cols.values()].find((c) => c.parent === parentCol && !folderOfCollection.has(c.id) && sameTitle(c.title, f.title));
    if (!match) continue;
    collectionOfFolder.set(id, match.id);
    folderOfCollection.set(match.id, id);
    mirror.folders[id] = { collectionId: match.id, title: f.title, parent: f.parent };
    matchedFolders++;
  }
  for (const [id] of folders) if (!collectionOfFolder.has(id)) ops.push({ kind: 'collection.create', folder: id });
  ops.push(...folderCreates(cols, (id) => folderOfCollection.has(id)));

  // Bookmarks: by address within each matched folder.
  const serverByPlace = new Map<string, RemoteBookmark[]>();
  for (const b of input.bookmarks) {
    if (b.collectionId !== scopeRoot && !cols.has(b.collectionId)) continue;
    const place = `${b.collectionId}|${b.key}`;
    serverByPlace.set(place, [...(serverByPlace.get(place) ?? []), b]);
  }
  let matchedBookmarks = 0;
  for (const [id, b] of snapshot.bookmarks) {
    const col = collectionOfFolder.get(b.parent);
    const same = col !== undefined ? serverByPlace.get(`${col}|${b.key}`) : undefined;
    const match = same?.shift();
    if (match) {
      // Matched: each side keeps its form of the address. Differing titles: the later wins (the browser's
      // bookmark added after Tidemark's last change, or Tidemark's), so every device ends with the same one.
      mirror.bookmarks[id] = { ref: `b:${match.id}`, url: b.url, key: b.key, title: b.title, parent: b.parent };
      if (b.title !== match.title) {
        if ((b.addedAt ?? 0) > match.updatedAt) ops.push({ kind: 'bookmark.update', browserId: id, title: b.title });
        else ops.push({ kind: 'browser.update', browserId: id, title: match.title });
      }
      matchedBookmarks++;
    } else ops.push({ kind: 'bookmark.create', browserId: id });
  }
  for (const list of serverByPlace.values()) for (const b of list) ops.push({ kind: 'browser.create', serverId: b.id });
  return { mirror, ops, matched: { folders: matchedFolders, bookmarks: matchedBookmarks } };
}
