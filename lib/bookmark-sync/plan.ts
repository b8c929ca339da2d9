// One sync pass, planned: the browser folder now (a snapshot), the server's changes since the last
// sync, and the mirror (what both sides last agreed on) give the operations that bring both sides
// together. Three-way: a side "changed" a thing when it differs from the mirror, so what the sync
// itself applied (already in the mirror) never comes back as a change: no echoes, no loops.
import { laterSide } from './conflicts.js';
import { needsConfirmation } from './failsafe.js';
import type { Snapshot, SnapshotBookmark } from './snapshot.js';
import { UNSORTED, type ConflictEntry, type Mirror, type MirroredBookmark, type RemoteBookmark, type RemoteCollection } from './types.js';

export type Op =
  // to the server
  | { kind: 'collection.create'; folder: string }
  | { kind: 'collection.update'; folder: string; title?: string; parentFolder?: string }
  | { kind: 'collection.remove'; folder: string; collectionId: number }
  | { kind: 'bookmark.create'; browserId: string }
  | { kind: 'bookmark.update'; browserId: string; url?: string; title?: string; parentFolder?: string }
  | { kind: 'bookmark.remove'; browserId: string; ref: string }
  | { kind: 'bookmark.restore'; browserId: string }
  // to the browser
  | { kind: 'folder.create'; collectionId: number }
  | { kind: 'folder.update'; folder: string; title?: string; parentCollection?: number }
  | { kind: 'folder.remove'; folder: string }
  | { kind: 'folder.recreate'; folder: string }
  | { kind: 'browser.create'; serverId: number }
  | { kind: 'browser.update'; browserId: string; url?: string; title?: string; parentCollection?: number }
  | { kind: 'browser.remove'; browserId: string }
  | { kind: 'browser.recreate'; browserId: string }
  // the mapping only
  | { kind: 'mirror.forget'; browserId: string }
  | { kind: 'mirror.forgetFolder'; folder: string }
  | { kind: 'mirror.adopt'; browserId: string; serverId: number };

export interface PlanInput {
  snapshot: Snapshot;
  mirror: Mirror;
  /** Server bookmarks changed since the mirror's cursor, as they are now. */
  remote: Map<number, RemoteBookmark>;
  /** Server bookmarks gone since the cursor (in Trash or deleted for good). */
  removed: Set<number>;
  /** The server's collections, when asked this pass; null: taken as unchanged. */
  collections: RemoteCollection[] | null;
  /** When a browser bookmark was last changed here (seen by the event listeners), for the later-wins rule. */
  localEditedAt: Record<string, number>;
  /**
   * Browser bookmarks changed here since the last pull that reached the server (their change may
   * already be sent, so the mirror has it): a delete in Tidemark meanwhile does not win over it.
   */
  editedSincePull?: Set<string>;
  now: number;
  /**
   * What to do with removals the failsafe holds: 'ask' holds the whole pass (nothing applied), 'apply'
   * goes on, 'keep' puts them back instead (the missing side gets them again).
   */
  removals: 'ask' | 'apply' | 'keep';
}

export interface Plan {
  ops: Op[];
  conflicts: ConflictEntry[];
  /** Bookmarks the pass would send to Trash on the server, and remove from the browser. */
  serverRemovals: number;
  browserRemovals: number;
  /** Set when the failsafe holds the pass: nothing in `ops` is to be applied. */
  held: { serverRemovals: number; browserRemovals: number; mirrored: number } | null;
}

const serverIdOf = (ref: string): number | null => (ref.startsWith('b:') ? Number(ref.slice(2)) : null);

/** The collection each mirrored folder stands for, and the folder of each collection (the root folder stands for the scope's root). */
export function folderMaps(mirror: Mirror): { collectionOf: Map<string, number>; folderOf: Map<number, string> } {
  const root = mirror.scope.kind === 'all' ? UNSORTED : mirror.scope.id;
  const collectionOf = new Map<string, number>([[mirror.rootId, root]]);
  const folderOf = new Map<number, string>([[root, mirror.rootId]]);
  for (const [folder, m] of Object.entries(mirror.folders)) {
    collectionOf.set(folder, m.collectionId);
    folderOf.set(m.collectionId, folder);
  }
  return { collectionOf, folderOf };
}

/** The collections the scope covers (with the parent each hangs from), from the server's full list. */
export function collectionsInScope(all: RemoteCollection[], scope: Mirror['scope']): Map<number, RemoteCollection> {
  const out = new Map<number, RemoteCollection>();
  if (scope.kind === 'all') {
    for (const c of all) out.set(c.id, c);
    return out;
  }
  const children = new Map<number, RemoteCollection[]>();
  for (const c of all) children.set(c.parent, [...(children.get(c.parent) ?? []), c]);
  const stack = [...(children.get(scope.id) ?? [])];
  while (stack.length) {
    const c = stack.pop()!;
    out.set(c.id, c);
    stack.push(...(children.get(c.id) ?? []));
  }
  return out;
}

/** `start` and its ancestors by `parentOf`, nearest first (at most 100: a cycle in damaged data ends there). */
function lineage<T>(start: T, parentOf: (id: T) => T | undefined): T[] {
  const out: T[] = [];
  for (let p: T | undefined = start; p !== undefined && out.length < 100; p = parentOf(p)) out.push(p);
  return out;
}

/** A folder for each collection that has none, parents before their children. */
export function folderCreates(cols: Map<number, RemoteCollection>, hasFolder: (collectionId: number) => boolean): Op[] {
  const depth = (id: number) => lineage(id, (c) => cols.get(c)?.parent).length;
  const missing = [...cols.values()].filter((c) => !hasFolder(c.id)).sort((a, b) => depth(a.id) - depth(b.id));
  return missing.map((c) => ({ kind: 'folder.create', collectionId: c.id }));
}

export function plan(input: PlanInput): Plan {
  const { snapshot, mirror, remote, removed, now } = input;
  const ops: Op[] = [];
  const conflicts: ConflictEntry[] = [];
  const { collectionOf, folderOf } = folderMaps(mirror);
  const scopeRoot = mirror.scope.kind === 'all' ? UNSORTED : mirror.scope.id;
  const cols = input.collections ? collectionsInScope(input.collections, mirror.scope) : null;
  const inScope = (collectionId: number) => collectionId === scopeRoot || folderOf.has(collectionId) || !!cols?.has(collectionId);
  // The collection a remote parent id is, as a browser folder (root collections hang from the root folder when all are mirrored).
  const parentFolderOfCollection = (parent: number) => (mirror.scope.kind === 'all' && parent === 0 ? mirror.rootId : folderOf.get(parent));
  let serverRemovals = 0;
  let browserRemovals = 0;
  /** Folders removed from the browser by this pass (their bookmarks go with them). */
  const goneFolders = new Set<string>();

  // --- folders and collections ---
  for (const [folder, base] of Object.entries(mirror.folders)) {
    const local = snapshot.folders.get(folder);
    const remoteCol = cols ? cols.get(base.collectionId) : undefined;
    const remoteGone = cols !== null && !remoteCol;
    if (!local) {
      if (remoteGone) ops.push({ kind: 'mirror.forgetFolder', folder });
      else ops.push({ kind: 'collection.remove', folder, collectionId: base.collectionId });
      continue;
    }
    if (remoteGone) {
      const holdsNew = [...snapshot.bookmarks.entries()].some(([id, b]) => !mirror.bookmarks[id] && lineage(b.parent, (p) => snapshot.folders.get(p)?.parent).includes(folder));
      if (holdsNew) {
        conflicts.push({ at: now, title: local.title, kind: 'folder-kept' });
        ops.push({ kind: 'mirror.forgetFolder', folder });
      } else {
        ops.push({ kind: 'folder.remove', folder });
        goneFolders.add(folder);
      }
      continue;
    }
    const localTitle = local.title !== base.title;
    const remoteTitle = !!remoteCol && remoteCol.title !== base.title;
    const localMove = local.parent !== base.parent;
    const remoteParentFolder = remoteCol ? parentFolderOfCollection(remoteCol.parent) : undefined;
    const remoteMove = !!remoteCol && remoteParentFolder !== base.parent;
    const toServer: { title?: string; parentFolder?: string } = {};
    const toBrowser: { title?: string; parentCollection?: number } = {};
    // Collections carry no reliable change time against a folder's: the browser's change wins a tie of both.
    if (localTitle) toServer.title = local.title;
    else if (remoteTitle) toBrowser.title = remoteCol!.title;
    if (localMove) toServer.parentFolder = local.parent;
    else if (remoteMove && remoteParentFolder !== undefined) toBrowser.parentCollection = remoteCol!.parent;
    if (localTitle && remoteTitle && local.title !== remoteCol!.title) conflicts.push({ at: now, title: local.title, kind: 'both', field: 'title', side: 'browser' });
    if (Object.keys(toServer).length) ops.push({ kind: 'collection.update', folder, ...toServer });
    if (Object.keys(toBrowser).length) ops.push({ kind: 'folder.update', folder, ...toBrowser });
  }
  if (cols) ops.push(...folderCreates(cols, (id) => folderOf.has(id)));
  const newFolders = [...snapshot.folders.entries()].filter(([id]) => !mirror.folders[id]).sort((a, b) => a[1].depth - b[1].depth);
  for (const [folder] of newFolders) ops.push({ kind: 'collection.create', folder });

  // --- bookmarks ---
  const claimed = new Set<number>();
  for (const base of Object.values(mirror.bookmarks)) {
    const sid = serverIdOf(base.ref);
    if (sid !== null) claimed.add(sid);
  }
  // Unresolved creates (still queued, or their answer not yet recorded), by folder and address: a server
  // bookmark of the same address in that collection is that create arriving, not a new bookmark.
  const pendingByPlace = new Map<string, string>();
  for (const [browserId, base] of Object.entries(mirror.bookmarks)) {
    if (serverIdOf(base.ref) === null) pendingByPlace.set(`${collectionOf.get(base.parent)}|${base.key}`, browserId);
  }

  for (const [browserId, base] of Object.entries(mirror.bookmarks)) {
    const local = snapshot.bookmarks.get(browserId);
    const sid = serverIdOf(base.ref);
    const theirs = sid !== null ? remote.get(sid) : undefined;
    const gone = sid !== null && removed.has(sid);
    const baseCollection = collectionOf.get(base.parent);
    const leftScope = !!theirs && !inScope(theirs.collectionId);
    const localChanged = !local || local.url !== base.url || local.title !== base.title || local.parent !== base.parent;
    const remoteChanged = !!theirs && (theirs.key !== base.key || theirs.title !== base.title || theirs.collectionId !== baseCollection);
    const editedAt = input.localEditedAt[browserId] ?? now;

    if (local && lineage(base.parent, (p) => mirror.folders[p]?.parent).some((p) => goneFolders.has(p))) {
      // Its folder goes (the collection was removed in Tidemark): removed with it.
      ops.push({ kind: 'mirror.forget', browserId });
      browserRemovals++;
      continue;
    }
    if (!local) {
      if (gone || goneFolders.has(base.parent)) ops.push({ kind: 'mirror.forget', browserId });
      else if (remoteChanged && !leftScope) {
        conflicts.push({ at: now, title: theirs!.title || base.title, kind: 'deleted', side: 'browser' });
        ops.push({ kind: 'browser.recreate', browserId });
      } else if (sid === null || leftScope) ops.push({ kind: 'bookmark.remove', browserId, ref: base.ref });
      else {
        ops.push({ kind: 'bookmark.remove', browserId, ref: base.ref });
        serverRemovals++;
      }
      continue;
    }
    if (gone) {
      if (localChanged || input.editedSincePull?.has(browserId)) {
        conflicts.push({ at: now, title: local.title, kind: 'deleted', side: 'tidemark' });
        ops.push({ kind: 'bookmark.restore', browserId });
      } else {
        ops.push({ kind: 'browser.remove', browserId });
        browserRemovals++;
      }
      continue;
    }
    if (leftScope) {
      // Moved in Tidemark to a collection this folder does not mirror: it leaves the folder, nothing is deleted there.
      ops.push({ kind: 'browser.remove', browserId });
      continue;
    }
    if (!localChanged && !remoteChanged) continue;
    const toServer: { url?: string; title?: string; parentFolder?: string } = {};
    const toBrowser: { url?: string; title?: string; parentCollection?: number } = {};
    const field = (mine: boolean, theirsChanged: boolean, name: 'title' | 'address' | 'folder', differ: boolean): 'browser' | 'tidemark' | null => {
      if (mine && theirsChanged) {
        if (!differ) return null;
        const winner = laterSide(editedAt, theirs!.updatedAt);
        conflicts.push({ at: now, title: local.title, kind: 'both', field: name, side: winner });
        return winner;
      }
      return mine ? 'browser' : theirsChanged ? 'tidemark' : null;
    };
    const t = field(local.title !== base.title, !!theirs && theirs.title !== base.title, 'title', !!theirs && local.title !== theirs.title);
    if (t === 'browser') toServer.title = local.title;
    if (t === 'tidemark') toBrowser.title = theirs!.title;
    const u = field(local.url !== base.url, !!theirs && theirs.key !== base.key, 'address', !!theirs && local.key !== theirs.key);
    if (u === 'browser') toServer.url = local.url;
    if (u === 'tidemark') toBrowser.url = theirs!.link;
    const localCollection = collectionOf.get(local.parent);
    const f = field(local.parent !== base.parent, !!theirs && theirs.collectionId !== baseCollection, 'folder', !!theirs && localCollection !== theirs.collectionId);
    if (f === 'browser') toServer.parentFolder = local.parent;
    if (f === 'tidemark') toBrowser.parentCollection = theirs!.collectionId;
    if (Object.keys(toServer).length) ops.push({ kind: 'bookmark.update', browserId, ...toServer });
    if (Object.keys(toBrowser).length) ops.push({ kind: 'browser.update', browserId, ...toBrowser });
  }

  // New in the browser: created on the server, unless the server's same-address bookmark in that collection is new there too.
  const remoteByPlace = new Map<string, RemoteBookmark>();
  for (const r of remote.values()) {
    if (!claimed.has(r.id) && !removed.has(r.id) && inScope(r.collectionId)) remoteByPlace.set(`${r.collectionId}|${r.key}`, r);
  }
  for (const [browserId, local] of snapshot.bookmarks) {
    if (mirror.bookmarks[browserId]) continue;
    const place = `${collectionOf.get(local.parent)}|${local.key}`;
    const same = remoteByPlace.get(place);
    if (same) {
      remoteByPlace.delete(place);
      claimed.add(same.id);
      ops.push({ kind: 'mirror.adopt', browserId, serverId: same.id });
    } else ops.push({ kind: 'bookmark.create', browserId });
  }
  // New on the server: created in the browser (after the folders), unless it is one of this browser's queued creates arriving.
  for (const r of remoteByPlace.values()) {
    if (claimed.has(r.id)) continue;
    const pending = pendingByPlace.get(`${r.collectionId}|${r.key}`);
    if (pending) {
      pendingByPlace.delete(`${r.collectionId}|${r.key}`);
      ops.push({ kind: 'mirror.adopt', browserId: pending, serverId: r.id });
    } else ops.push({ kind: 'browser.create', serverId: r.id });
  }

  const mirrored = Object.keys(mirror.bookmarks).length;
  const tripped = needsConfirmation(serverRemovals, mirrored) || needsConfirmation(browserRemovals, mirrored);
  if (tripped && input.removals === 'ask') {
    return { ops: [], conflicts: [], serverRemovals, browserRemovals, held: { serverRemovals, browserRemovals, mirrored } };
  }
  const out = input.removals === 'keep' && tripped ? keepRemovals(ops, mirror) : ops;
  return { ops: out, conflicts, serverRemovals, browserRemovals, held: null };
}

/** The failsafe's "keep them": what one side deleted is put back there instead of being deleted on the other. */
function keepRemovals(ops: Op[], mirror: Mirror): Op[] {
  const out: Op[] = [];
  for (const op of ops) {
    if (op.kind === 'bookmark.remove' && serverIdOf(op.ref) !== null) out.push({ kind: 'browser.recreate', browserId: op.browserId });
    else if (op.kind === 'browser.remove') out.push({ kind: 'bookmark.restore', browserId: op.browserId });
    else if (op.kind === 'collection.remove') out.push({ kind: 'folder.recreate', folder: op.folder });
    else out.push(op);
  }
  // Folders put back before the bookmarks that go in them, parents first.
  const depth = (f: string) => lineage(f, (p) => mirror.folders[p]?.parent).length;
  const folders = out.filter((o): o is Extract<Op, { kind: 'folder.recreate' }> => o.kind === 'folder.recreate').sort((a, b) => depth(a.folder) - depth(b.folder));
  return [...folders, ...out.filter((o) => o.kind !== 'folder.recreate')];
}

/** The mirror's record of a browser bookmark as it is now (after its change reached the server). */
export function mirroredFrom(ref: string, local: SnapshotBookmark): MirroredBookmark {
  return { ref, url: local.url, key: local.key, title: local.title, parent: local.parent };
}
