// Applies a planned pass: browser changes through `browser.bookmarks`, bookmark writes to the server
// through the offline queue (in order, exactly once), collection writes straight to the server (a
// folder whose collection could not be made now is tried again next pass; its bookmarks wait for it).
// The mirror is updated after each step, so what was applied is the base of the next pass.
import { browser } from 'wxt/browser';
import type { TidemarkApi } from '../../api/client/index.js';
import type { BookmarkCreate } from '../../api/types.js';
import { LIMITS } from '../../api/constants.js';
import { folderMaps, mirroredFrom, type Op } from '../../bookmark-sync/plan.js';
import { SYNC_WRITE_LABEL as LABEL } from '../../bookmark-sync/settings.js';
import type { Snapshot } from '../../bookmark-sync/snapshot.js';
import type { Mirror, RemoteBookmark, RemoteCollection } from '../../bookmark-sync/types.js';
import type { Account } from '../../model.js';
import type { WriteQueue } from '../queue.js';

export interface ApplyContext {
  api: TidemarkApi;
  queue: WriteQueue;
  account: Account;
  mirror: Mirror;
  snapshot: Snapshot;
  remote: Map<number, RemoteBookmark>;
  collections: Map<number, RemoteCollection>;
  /** First sync: new bookmarks go in batches of 100 straight to the server instead of one by one through the queue. */
  batchCreates?: boolean;
}


export async function applyOps(ctx: ApplyContext, ops: Op[]): Promise<{ enqueued: number; batchCreated: number[] }> {
  const { mirror, snapshot } = ctx;
  let enqueued = 0;
  /** Folders put back under a new id (the failsafe's "keep"): old id -> new id. */
  const recreated = new Map<string, string>();
  // Built once and again only after a folder changed: a first sync asks it for each of thousands of bookmarks.
  let mapsNow: ReturnType<typeof folderMaps> | null = null;
  const maps = () => (mapsNow ??= folderMaps(mirror));
  const folderExists = async (id: string) => !!(await browser.bookmarks.get(id).catch(() => null));
  const rootCollectionParent = () => (mirror.scope.kind === 'all' ? null : { $id: mirror.scope.id });
  const enqueue = async (write: Parameters<WriteQueue['enqueue']>[0]) => {
    await ctx.queue.enqueue(write);
    enqueued++;
  };
  const common = () => ({ key: crypto.randomUUID(), userId: ctx.account.userId, serverUrl: ctx.account.serverUrl });
  const collectionParentOf = (folder: string) => {
    if (folder === mirror.rootId) return { ok: true as const, parent: rootCollectionParent() };
    const c = mirror.folders[folder]?.collectionId;
    return c === undefined ? { ok: false as const } : { ok: true as const, parent: { $id: c } };
  };
  const browserFolderOf = (collectionId: number): string | undefined => {
    if (mirror.scope.kind === 'all' && collectionId === 0) return mirror.rootId;
    return maps().folderOf.get(collectionId);
  };

  const creates: { browserId: string; body: BookmarkCreate }[] = [];
  const batchCreated: number[] = [];

  for (const op of ops) {
    switch (op.kind) {
      case 'collection.create': {
        const f = snapshot.folders.get(op.folder);
        const parent = f && collectionParentOf(f.parent);
        if (!f || !parent?.ok) break;
        const col = await ctx.api.createCollection({ title: f.title || 'Untitled', ...(parent.parent ? { parent: parent.parent } : {}) });
        mirror.folders[op.folder] = { collectionId: col._id, title: f.title, parent: f.parent };
        mapsNow = null;
        break;
      }
      case 'collection.update': {
        const base = mirror.folders[op.folder];
        const f = snapshot.folders.get(op.folder);
        if (!base || !f) break;
        const parent = op.parentFolder !== undefined ? collectionParentOf(op.parentFolder) : undefined;
        if (parent && !parent.ok) break;
        await ctx.api.updateCollection(base.collectionId, { ...(op.title !== undefined ? { title: op.title || 'Untitled' } : {}), ...(parent ? { parent: parent.parent } : {}) });
        mirror.folders[op.folder] = { ...base, title: f.title, parent: f.parent };
        mapsNow = null;
        break;
      }
      case 'collection.remove':
        // Sent once the queue is empty: the moves of its bookmarks out of it must reach the server first.
        mirror.collectionRemovals.push(op.collectionId);
        delete mirror.folders[op.folder];
        mapsNow = null;
        break;
      case 'bookmark.create': {
        const b = snapshot.bookmarks.get(op.browserId);
        const col = b && maps().collectionOf.get(b.parent);
        if (!b || col === undefined) break;
        const body: BookmarkCreate = { link: b.url, title: b.title, collection: { $id: col } };
        if (ctx.batchCreates) {
          creates.push({ browserId: op.browserId, body });
          break;
        }
        const ref = `l:${crypto.randomUUID()}` as const;
        await enqueue({ op: 'create', ref, body, ...common(), label: `${LABEL}: ${b.title || b.url}` });
        mirror.bookmarks[op.browserId] = mirroredFrom(ref, b);
        break;
      }
      case 'bookmark.update':
      case 'bookmark.restore': {
        const base = mirror.bookmarks[op.browserId];
        const b = snapshot.bookmarks.get(op.browserId);
        if (!base || !b) break;
        const body: Record<string, unknown> = {};
        const restore = op.kind === 'bookmark.restore';
        if (restore || op.title !== undefined) body.title = b.title;
        if (restore || op.url !== undefined) body.link = b.url;
        if (restore || op.parentFolder !== undefined) {
          const col = maps().collectionOf.get(b.parent);
          if (col === undefined) break;
          body.collection = { $id: col };
        }
        await enqueue({ op: 'update', ref: base.ref as `b:${number}`, body, ...common(), label: `${LABEL}: ${b.title || b.url}` });
        mirror.bookmarks[op.browserId] = mirroredFrom(base.ref, b);
        break;
      }
      case 'bookmark.remove': {
        const base = mirror.bookmarks[op.browserId];
        if (base) await enqueue({ op: 'remove', ref: base.ref as `b:${number}`, ...common(), label: `${LABEL}: ${base.title || base.url}` });
        delete mirror.bookmarks[op.browserId];
        break;
      }
      case 'folder.create': {
        const c = ctx.collections.get(op.collectionId);
        const parent = c && browserFolderOf(c.parent);
        if (!c || !parent) break;
        const node = await browser.bookmarks.create({ parentId: parent, title: c.title });
        mirror.folders[node.id] = { collectionId: c.id, title: c.title, parent };
        mapsNow = null;
        break;
      }
      case 'folder.update': {
        const base = mirror.folders[op.folder];
        if (!base) break;
        const next = { ...base };
        if (op.title !== undefined) {
          await browser.bookmarks.update(op.folder, { title: op.title });
          next.title = op.title;
        }
        const parent = op.parentCollection !== undefined ? browserFolderOf(op.parentCollection) : undefined;
        if (parent) {
          await browser.bookmarks.move(op.folder, { parentId: parent });
          next.parent = parent;
        }
        mirror.folders[op.folder] = next;
        mapsNow = null;
        break;
      }
      case 'folder.remove':
        // Already gone (the person deleted it meanwhile): what this step wanted.
        await browser.bookmarks.removeTree(op.folder).catch(() => {});
        {
          // The folder and every folder below it.
          const gone = new Set([op.folder]);
          for (let more = true; more; ) {
            more = false;
            for (const [id, f] of Object.entries(mirror.folders)) {
              if (gone.has(id) || !gone.has(f.parent)) continue;
              gone.add(id);
              more = true;
            }
          }
          for (const id of gone) delete mirror.folders[id];
        }
        mapsNow = null;
        break;
      case 'folder.recreate': {
        const base = mirror.folders[op.folder];
        if (!base) break;
        const parent = recreated.get(base.parent) ?? ((await folderExists(base.parent)) ? base.parent : mirror.rootId);
        const node = await browser.bookmarks.create({ parentId: parent, title: base.title });
        recreated.set(op.folder, node.id);
        delete mirror.folders[op.folder];
        mirror.folders[node.id] = { ...base, parent };
        mapsNow = null;
        break;
      }
      case 'browser.create': {
        const r = ctx.remote.get(op.serverId);
        const parent = r && browserFolderOf(r.collectionId);
        if (!r || !parent) break;
        const node = await browser.bookmarks.create({ parentId: parent, title: r.title, url: r.link });
        mirror.bookmarks[node.id] = { ref: `b:${r.id}`, url: r.link, key: r.key, title: r.title, parent };
        break;
      }
      case 'browser.update': {
        const base = mirror.bookmarks[op.browserId];
        if (!base) break;
        const next = { ...base };
        if (op.title !== undefined || op.url !== undefined) {
          const r = ctx.remote.get(Number(base.ref.slice(2)));
          await browser.bookmarks.update(op.browserId, { ...(op.title !== undefined ? { title: op.title } : {}), ...(op.url !== undefined ? { url: op.url } : {}) });
          if (op.title !== undefined) next.title = op.title;
          if (op.url !== undefined && r) Object.assign(next, { url: r.link, key: r.key });
        }
        const parent = op.parentCollection !== undefined ? browserFolderOf(op.parentCollection) : undefined;
        if (parent) {
          await browser.bookmarks.move(op.browserId, { parentId: parent });
          next.parent = parent;
        }
        mirror.bookmarks[op.browserId] = next;
        break;
      }
      case 'browser.remove':
        // Already gone (the person deleted it meanwhile): what this step wanted.
        await browser.bookmarks.remove(op.browserId).catch(() => {});
        delete mirror.bookmarks[op.browserId];
        break;
      case 'browser.recreate': {
        const base = mirror.bookmarks[op.browserId];
        if (!base) break;
        const r = base.ref.startsWith('b:') ? ctx.remote.get(Number(base.ref.slice(2))) : undefined;
        const parent =
          (r && browserFolderOf(r.collectionId)) ?? recreated.get(base.parent) ?? ((await folderExists(base.parent)) ? base.parent : mirror.rootId);
        const title = r?.title ?? base.title;
        const url = r?.link ?? base.url;
        const node = await browser.bookmarks.create({ parentId: parent, title, url });
        delete mirror.bookmarks[op.browserId];
        mirror.bookmarks[node.id] = { ref: base.ref, url, key: r?.key ?? base.key, title, parent };
        break;
      }
      case 'mirror.forget':
        delete mirror.bookmarks[op.browserId];
        break;
      case 'mirror.forgetFolder':
        delete mirror.folders[op.folder];
        mapsNow = null;
        break;
      case 'mirror.adopt': {
        const b = snapshot.bookmarks.get(op.browserId);
        if (b) mirror.bookmarks[op.browserId] = mirroredFrom(`b:${op.serverId}`, b);
        break;
      }
    }
  }

  // First sync: the browser's new bookmarks in batches (answered in the order sent).
  for (let i = 0; i < creates.length; i += LIMITS.bulkItemsMax) {
    const batch = creates.slice(i, i + LIMITS.bulkItemsMax);
    const made = await ctx.api.createBookmarks(batch.map((c) => c.body));
    batch.forEach((c, j) => {
      const b = snapshot.bookmarks.get(c.browserId);
      if (b && made[j]) {
        mirror.bookmarks[c.browserId] = mirroredFrom(`b:${made[j]._id}`, b);
        batchCreated.push(made[j]._id);
      }
    });
  }
  return { enqueued, batchCreated };
}
