import { describe, expect, it } from 'vitest';
import { normalizeUrl } from '../api/url.js';
import { describeConflict } from './conflicts.js';
import { needsConfirmation } from './failsafe.js';
import { firstSync } from './first-sync.js';
import { folderMaps, plan, type PlanInput } from './plan.js';
import { snapshotOf } from './snapshot.js';
import type { BrowserNode, Mirror, RemoteBookmark, RemoteCollection } from './types.js';

const key = (url: string) => normalizeUrl(url)!;
const bm = (id: string, url: string, title = url): BrowserNode => ({ id, url, title });
const folder = (id: string, title: string, children: BrowserNode[] = []): BrowserNode => ({ id, title, children });
const remote = (id: number, url: string, title: string, collectionId: number, updatedAt = 1000): RemoteBookmark => ({ id, link: url, key: key(url), title, collectionId, updatedAt });

/** A folder "root" with a loose bookmark and folder "f1" (collection 10) holding two, all synced. */
function synced() {
  const tree = folder('root', 'Tidemark', [bm('b1', 'https://a.example/', 'A'), folder('f1', 'Work', [bm('b2', 'https://b.example/', 'B'), bm('b3', 'https://c.example/', 'C')])]);
  const mirror: Mirror = {
    owner: 'o',
    rootId: 'root',
    scope: { kind: 'all' },
    cursor: 5,
    folders: { f1: { collectionId: 10, title: 'Work', parent: 'root' } },
    bookmarks: {
      b1: { ref: 'b:1', url: 'https://a.example/', key: key('https://a.example/'), title: 'A', parent: 'root' },
      b2: { ref: 'b:2', url: 'https://b.example/', key: key('https://b.example/'), title: 'B', parent: 'f1' },
      b3: { ref: 'b:3', url: 'https://c.example/', key: key('https://c.example/'), title: 'C', parent: 'f1' },
    },
    collectionRemovals: [],
  };
  return { tree, mirror };
}

function input(tree: BrowserNode, mirror: Mirror, more: Partial<PlanInput> = {}): PlanInput {
  return { snapshot: snapshotOf(tree), mirror, remote: new Map(), removed: new Set(), collections: null, localEditedAt: {}, now: 2000, removals: 'ask', ...more };
}

describe('plan: echoes', () => {
  it('nothing to do when both sides are as last synced, even when the server lists the same values again', () => {
    const { tree, mirror } = synced();
    const again = new Map([[2, remote(2, 'https://b.example/', 'B', 10)]]);
    const cols: RemoteCollection[] = [{ id: 10, title: 'Work', parent: 0 }];
    expect(plan(input(tree, mirror, { remote: again, collections: cols })).ops).toEqual([]);
  });
});

describe('plan: browser changes go to the server', () => {
  it('create, rename, move and delete', () => {
    const { tree, mirror } = synced();
    const f1 = tree.children![1];
    tree.children![0].title = 'A renamed';
    f1.children = [bm('b3', 'https://c.example/', 'C'), bm('b9', 'https://new.example/', 'New')];
    tree.children!.push(bm('b2', 'https://b.example/', 'B')); // moved from f1 to the root
    f1.children = f1.children.filter((c) => c.id !== 'b3'); // deleted
    const { ops, serverRemovals } = plan(input(tree, mirror));
    expect(ops).toEqual(
      expect.arrayContaining([
        { kind: 'bookmark.update', browserId: 'b1', title: 'A renamed' },
        { kind: 'bookmark.update', browserId: 'b2', parentFolder: 'root' },
        { kind: 'bookmark.remove', browserId: 'b3', ref: 'b:3' },
        { kind: 'bookmark.create', browserId: 'b9' },
      ]),
    );
    expect(ops).toHaveLength(4);
    expect(serverRemovals).toBe(1);
  });

  it('folders become collections: created, renamed, removed', () => {
    const { tree, mirror } = synced();
    tree.children![1].title = 'Job';
    tree.children!.push(folder('f2', 'Reading', [folder('f3', 'Deep')]));
    expect(plan(input(tree, mirror)).ops).toEqual([
      { kind: 'collection.update', folder: 'f1', title: 'Job' },
      { kind: 'collection.create', folder: 'f2' },
      { kind: 'collection.create', folder: 'f3' },
    ]);
    tree.children!.splice(1, 1);
    const { ops } = plan(input(tree, mirror, { removals: 'apply' }));
    expect(ops).toContainEqual({ kind: 'collection.remove', folder: 'f1', collectionId: 10 });
  });

  it('leaves bookmarklets and browser pages alone', () => {
    const { tree, mirror } = synced();
    tree.children!.push(bm('x', 'javascript:alert(1)'), bm('y', 'chrome://settings'));
    const p = plan(input(tree, mirror));
    expect(p.ops).toEqual([]);
  });
});

describe('plan: server changes go to the browser', () => {
  it('a rename, a move and a new bookmark', () => {
    const { tree, mirror } = synced();
    const changes = new Map([
      [1, remote(1, 'https://a.example/', 'A from the web app', -1)],
      [3, remote(3, 'https://c.example/', 'C', -1)],
      [7, remote(7, 'https://d.example/', 'D', 10)],
    ]);
    expect(plan(input(tree, mirror, { remote: changes })).ops).toEqual([
      { kind: 'browser.update', browserId: 'b1', title: 'A from the web app' },
      { kind: 'browser.update', browserId: 'b3', parentCollection: -1 },
      { kind: 'browser.create', serverId: 7 },
    ]);
  });

  it('a bookmark sent to Trash leaves the browser; one moved out of the mirrored collections too', () => {
    const { tree, mirror } = synced();
    mirror.scope = { kind: 'collection', id: 99 };
    mirror.folders.f1.collectionId = 10;
    const cols: RemoteCollection[] = [{ id: 10, title: 'Work', parent: 99 }, { id: 50, title: 'Elsewhere', parent: 0 }];
    const p = plan(input(tree, mirror, { removed: new Set([2]), remote: new Map([[3, remote(3, 'https://c.example/', 'C', 50)]]), collections: cols }));
    expect(p.ops).toEqual([
      { kind: 'browser.remove', browserId: 'b2' },
      { kind: 'browser.remove', browserId: 'b3' },
    ]);
  });

  it('a collection removed in Tidemark removes its folder (with its bookmarks), unless new bookmarks are in it', () => {
    const { tree, mirror } = synced();
    const p = plan(input(tree, mirror, { collections: [], removed: new Set([2, 3]), removals: 'apply' }));
    expect(p.ops).toEqual([{ kind: 'folder.remove', folder: 'f1' }, { kind: 'mirror.forget', browserId: 'b2' }, { kind: 'mirror.forget', browserId: 'b3' }]);
    expect(p.browserRemovals).toBe(2);
    tree.children![1].children!.push(bm('n', 'https://fresh.example/'));
    const kept = plan(input(tree, mirror, { collections: [], removed: new Set([2, 3]), removals: 'apply' }));
    expect(kept.ops[0]).toEqual({ kind: 'mirror.forgetFolder', folder: 'f1' });
    expect(describeConflict(kept.conflicts[0])).toMatch(/kept the folder/);
  });

  it('a queued create arriving from the server is adopted, not created again', () => {
    const { tree, mirror } = synced();
    tree.children!.push(bm('q', 'https://queued.example/', 'Q'));
    mirror.bookmarks.q = { ref: 'l:abc', url: 'https://queued.example/', key: key('https://queued.example/'), title: 'Q', parent: 'root' };
    const p = plan(input(tree, mirror, { remote: new Map([[40, remote(40, 'https://queued.example/', 'Q', -1)]]) }));
    expect(p.ops).toEqual([{ kind: 'mirror.adopt', browserId: 'q', serverId: 40 }]);
  });

  it('the same address in another collection is another bookmark', () => {
    const { tree, mirror } = synced();
    const p = plan(input(tree, mirror, { remote: new Map([[41, remote(41, 'https://b.example/', 'B', -1)]]) }));
    expect(p.ops).toEqual([{ kind: 'browser.create', serverId: 41 }]);
  });
});

describe('plan: conflicts', () => {
  it('a title changed on both sides: the later change wins, and it is logged', () => {
    const { tree, mirror } = synced();
    tree.children![0].title = 'Mine';
    const theirs = new Map([[1, remote(1, 'https://a.example/', 'Theirs', -1, 5000)]]);
    const later = plan(input(tree, mirror, { remote: theirs, localEditedAt: { b1: 4000 } }));
    expect(later.ops).toEqual([{ kind: 'browser.update', browserId: 'b1', title: 'Theirs' }]);
    expect(later.conflicts).toHaveLength(1);
    expect(describeConflict(later.conflicts[0])).toMatch(/title changed on both sides.*in Tidemark/);
    const earlier = plan(input(tree, mirror, { remote: theirs, localEditedAt: { b1: 6000 } }));
    expect(earlier.ops).toEqual([{ kind: 'bookmark.update', browserId: 'b1', title: 'Mine' }]);
  });

  it('the same new title on both sides is no conflict', () => {
    const { tree, mirror } = synced();
    tree.children![0].title = 'Same';
    const p = plan(input(tree, mirror, { remote: new Map([[1, remote(1, 'https://a.example/', 'Same', -1)]]) }));
    expect(p.conflicts).toEqual([]);
    expect(p.ops).toEqual([]);
  });

  it('deleted in Tidemark, edited in the browser: kept (restored on the server)', () => {
    const { tree, mirror } = synced();
    tree.children![0].title = 'Edited';
    const p = plan(input(tree, mirror, { removed: new Set([1]) }));
    expect(p.ops).toEqual([{ kind: 'bookmark.restore', browserId: 'b1' }]);
    expect(describeConflict(p.conflicts[0])).toMatch(/deleted in Tidemark but changed in the browser: kept/);
  });

  it('deleted in Tidemark, edited here while offline (already queued): kept', () => {
    const { tree, mirror } = synced();
    const p = plan(input(tree, mirror, { removed: new Set([1]), editedSincePull: new Set(['b1']) }));
    expect(p.ops).toEqual([{ kind: 'bookmark.restore', browserId: 'b1' }]);
  });

  it('deleted in the browser, edited in Tidemark: kept (put back in the browser)', () => {
    const { tree, mirror } = synced();
    tree.children!.shift();
    const p = plan(input(tree, mirror, { remote: new Map([[1, remote(1, 'https://a.example/', 'Renamed there', -1)]]) }));
    expect(p.ops).toEqual([{ kind: 'browser.recreate', browserId: 'b1' }]);
    expect(describeConflict(p.conflicts[0])).toMatch(/deleted in the browser but changed in Tidemark/);
  });
});

describe('plan: failsafe', () => {
  function wiped() {
    const { mirror } = synced();
    for (let i = 0; i < 20; i++) mirror.bookmarks[`x${i}`] = { ref: `b:${100 + i}`, url: `https://x${i}.example/`, key: key(`https://x${i}.example/`), title: `X${i}`, parent: 'root' };
    // The browser folder lost everything but b1.
    return { tree: folder('root', 'Tidemark', [bm('b1', 'https://a.example/', 'A'), folder('f1', 'Work', [bm('b2', 'https://b.example/', 'B'), bm('b3', 'https://c.example/', 'C')])]), mirror };
  }

  it('holds a pass that would delete more than 20 % of the mirrored bookmarks, and applies nothing of it', () => {
    const { tree, mirror } = wiped();
    const p = plan(input(tree, mirror));
    expect(p.held).toEqual({ serverRemovals: 20, browserRemovals: 0, mirrored: 23 });
    expect(p.ops).toEqual([]);
  });

  it('goes on once the user says so, or puts them back', () => {
    const { tree, mirror } = wiped();
    const go = plan(input(tree, mirror, { removals: 'apply' }));
    expect(go.ops.filter((o) => o.kind === 'bookmark.remove')).toHaveLength(20);
    const keep = plan(input(tree, mirror, { removals: 'keep' }));
    expect(keep.ops.filter((o) => o.kind === 'browser.recreate')).toHaveLength(20);
    expect(keep.ops.some((o) => o.kind === 'bookmark.remove')).toBe(false);
  });

  it('thresholds: over 100 always, over 20 % once more than 3', () => {
    expect(needsConfirmation(101, 100_000)).toBe(true);
    expect(needsConfirmation(100, 100_000)).toBe(false);
    expect(needsConfirmation(3, 4)).toBe(false);
    expect(needsConfirmation(4, 10)).toBe(true);
    expect(needsConfirmation(4, 20)).toBe(false);
    expect(needsConfirmation(1, 2)).toBe(false);
  });
});

describe('first sync', () => {
  it('merges by address within matched folders and deletes nothing', () => {
    const tree = folder('root', 'Tidemark', [
      bm('b1', 'https://a.example/?utm_source=x', 'A here'),
      folder('f1', 'work', [bm('b2', 'https://b.example/', 'B'), bm('b3', 'https://only-browser.example/')]),
      folder('f2', 'Browser only', [bm('b4', 'https://b.example/', 'B again')]),
    ]);
    const collections: RemoteCollection[] = [{ id: 10, title: 'Work', parent: 0 }, { id: 11, title: 'Server only', parent: 0 }, { id: 12, title: 'Child', parent: 11 }];
    const bookmarks = [remote(1, 'https://a.example/', 'A there', -1), remote(2, 'https://b.example/', 'B', 10), remote(5, 'https://only-server.example/', 'S', 12)];
    const p = firstSync({ snapshot: snapshotOf(tree), owner: 'o', scope: { kind: 'all' }, cursor: 9, collections, bookmarks });
    expect(p.matched).toEqual({ folders: 1, bookmarks: 2 });
    expect(p.mirror.folders).toEqual({ f1: { collectionId: 10, title: 'work', parent: 'root' } });
    expect(p.mirror.bookmarks.b1).toMatchObject({ ref: 'b:1', title: 'A here' });
    expect(p.mirror.bookmarks.b2.ref).toBe('b:2');
    // b4 shares b2's address in another folder: a bookmark of its own.
    expect(p.ops).toEqual([
      { kind: 'collection.create', folder: 'f2' },
      { kind: 'folder.create', collectionId: 11 },
      { kind: 'folder.create', collectionId: 12 },
      // Tidemark's title changed after the browser's bookmark was added: the later one wins.
      { kind: 'browser.update', browserId: 'b1', title: 'A there' },
      { kind: 'bookmark.create', browserId: 'b3' },
      { kind: 'bookmark.create', browserId: 'b4' },
      { kind: 'browser.create', serverId: 5 },
    ]);
    expect(p.ops.some((o) => o.kind.endsWith('remove'))).toBe(false);
    // Added in the browser after Tidemark's last change: the browser's title goes to Tidemark.
    (tree.children![0] as BrowserNode).dateAdded = 5000;
    const later = firstSync({ snapshot: snapshotOf(tree), owner: 'o', scope: { kind: 'all' }, cursor: 9, collections, bookmarks });
    expect(later.ops[3]).toEqual({ kind: 'bookmark.update', browserId: 'b1', title: 'A here' });
    // Right after it, nothing is left to do.
    expect(plan(input(tree, p.mirror)).ops.filter((o) => o.kind !== 'collection.create' && o.kind !== 'bookmark.create')).toEqual([]);
  });

  it('one collection: its folder is the chosen collection, its children are folders', () => {
    const tree = folder('root', 'Tidemark', [folder('f1', 'Child', [bm('b1', 'https://a.example/', 'A')])]);
    const collections: RemoteCollection[] = [{ id: 20, title: 'Chosen', parent: 0 }, { id: 21, title: 'Child', parent: 20 }, { id: 30, title: 'Other', parent: 0 }];
    const p = firstSync({ snapshot: snapshotOf(tree), owner: 'o', scope: { kind: 'collection', id: 20 }, cursor: 0, collections, bookmarks: [remote(1, 'https://a.example/', 'A', 21), remote(2, 'https://z.example/', 'Z', 30)] });
    expect(p.mirror.folders.f1.collectionId).toBe(21);
    expect(p.ops).toEqual([]);
    expect(folderMaps(p.mirror).folderOf.get(20)).toBe('root');
  });
});

describe('snapshot', () => {
  it('in slices gives the same as at once, reuses known keys, and skips separators', async () => {
    const { snapshotInSlices } = await import('./snapshot.js');
    const tree = folder('root', 'T', [bm('a', 'https://a.example/x?utm_source=y'), { id: 's', title: '', type: 'separator', url: 'data:' }, folder('f', 'F', [bm('b', 'https://b.example/')])]);
    const once = snapshotOf(tree);
    expect(await snapshotInSlices(tree, undefined, 0)).toEqual(once);
    expect(once.bookmarks.get('a')!.key).toBe(key('https://a.example/x'));
    expect([...once.bookmarks.keys()]).toEqual(['a', 'b']);
    const known = snapshotOf(tree, (id) => (id === 'b' ? 'known-key' : undefined));
    expect(known.bookmarks.get('b')!.key).toBe('known-key');
  });
});
