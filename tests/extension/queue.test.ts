// The offline queue against the real server: writes are delivered in order and exactly once (also
// when an answer is lost and the write is repeated), survive a restart, and refused writes are
// reported, not retried forever. Highlight changes: folded into an unsent add, never into a write
// that may have reached the server, local keys resolved to server ids when sent.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetExtension } from './helpers/reset.js';
import { apiOver, signedInUser, type Network } from './helpers/signed-in.js';
import { resetStorageMemo } from '../../lib/storage/memo.js';
import { WriteQueue } from '../../lib/background/queue.js';
import type { Bookmark, Highlight } from '../../lib/api/types.js';
import type { Account } from '../../lib/model.js';
import { queueItem } from '../../lib/storage/items.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

let user: { id: number; token: string };
let account: Account;
let network: Network;

function api() {
  return apiOver(s, () => user.token, { network: () => network });
}

function queue() {
  return new WriteQueue({ api: api(), account: async () => account });
}

beforeEach(async () => {
  resetExtension();
  ({ user, account } = await signedInUser(s, 'Q'));
  network = 'up';
});

const base = () => ({ userId: account.userId, serverUrl: account.serverUrl });
const all = async () => (await s.api('GET', '/bookmarks/0?perpage=50', { token: user.token })).body.items as Bookmark[];
const bookmark = async (link: string) => (await s.api('POST', '/bookmark', { token: user.token, body: { link } })).body.item._id as number;
const highlightsOf = async (id: number) =>
  (await s.api('GET', `/bookmark/${id}`, { token: user.token })).body.item.highlights as Highlight[];
const trash = async () => (await s.api('GET', '/bookmarks/-99?perpage=50', { token: user.token })).body.items as Bookmark[];

describe('WriteQueue', () => {
  it('delivers a queued create and the edits of the not-yet-created bookmark in order', async () => {
    const q = queue();
    await q.enqueue({ op: 'create', ref: 'l:one', body: { link: 'https://q.example/1', title: 'One' }, key: 'k-create', label: 'One', ...base() });
    await q.enqueue({ op: 'update', ref: 'l:one', body: { note: 'first' }, key: 'k-up1', label: 'One', ...base() });
    await q.enqueue({ op: 'update', ref: 'l:one', body: { important: true }, key: 'k-up2', label: 'One', ...base() });
    expect((await q.view()).entries.map((e) => e.op)).toEqual(['create', 'update']); // the two edits were folded together
    const result = await q.drain();
    expect(result).toMatchObject({ sent: 2, failed: 0 });
    const [b] = await all();
    expect(b).toMatchObject({ link: 'https://q.example/1', note: 'first', important: true });
    expect(await q.serverRef('l:one')).toBe(`b:${b._id}`);
    expect((await q.view()).entries).toEqual([]);
  });

  it('stops at the first write the server cannot take and keeps it, in order, for later', async () => {
    const q = queue();
    network = 'down';
    await q.enqueue({ op: 'create', ref: 'l:a', body: { link: 'https://q.example/a' }, key: 'ka', label: 'A', ...base() });
    await q.enqueue({ op: 'create', ref: 'l:b', body: { link: 'https://q.example/b' }, key: 'kb', label: 'B', ...base() });
    expect(await q.drain()).toMatchObject({ sent: 0, stoppedBy: 'network', remaining: 2 });
    expect((await q.view()).entries.map((e) => [e.label, e.attempts])).toEqual([['A', 1], ['B', 0]]);
    network = 'up';
    expect(await q.drain()).toMatchObject({ sent: 2 });
    const links = (await all()).map((b) => b.link);
    expect(links.sort()).toEqual(['https://q.example/a', 'https://q.example/b']);
    // Created in queue order: A first.
    const ids = Object.fromEntries((await all()).map((b) => [b.link, b._id]));
    expect(ids['https://q.example/a']).toBeLessThan(ids['https://q.example/b']);
  });

  it('delivers exactly once when the server acted but the answer was lost', async () => {
    const q = queue();
    await q.enqueue({ op: 'create', ref: 'l:x', body: { link: 'https://q.example/lost' }, key: 'k-lost-create', label: 'Lost', ...base() });
    network = 'lose-answers';
    expect(await q.drain()).toMatchObject({ sent: 0, stoppedBy: 'network' });
    expect(await all()).toHaveLength(1); // it did reach the server
    network = 'up';
    expect(await q.drain()).toMatchObject({ sent: 1 });
    const items = await all();
    expect(items).toHaveLength(1);
    expect(await q.serverRef('l:x')).toBe(`b:${items[0]._id}`);

    // A remove whose answer is lost must not, when repeated, delete the bookmark from Trash for good.
    await q.enqueue({ op: 'remove', ref: `b:${items[0]._id}`, key: 'k-lost-remove', label: 'Lost', ...base() });
    network = 'lose-answers';
    await q.drain();
    network = 'up';
    await q.drain();
    expect((await trash()).map((b) => b._id)).toEqual([items[0]._id]);
  });

  it('survives a restart: a new queue (a new service worker) sends what the old one stored', async () => {
    network = 'down';
    const before = queue();
    await before.enqueue({ op: 'create', ref: 'l:r', body: { link: 'https://q.example/restart' }, key: 'k-restart', label: 'R', ...base() });
    await before.enqueue({ op: 'update', ref: 'l:r', body: { note: 'after restart' }, key: 'k-restart-up', label: 'R', ...base() });
    await before.drain();
    expect((await queueItem.getValue()).entries).toHaveLength(2);

    network = 'up';
    resetStorageMemo(); // the new worker starts with nothing in memory
    const after = queue();
    expect(await after.drain()).toMatchObject({ sent: 2 });
    expect(await all()).toMatchObject([{ link: 'https://q.example/restart', note: 'after restart' }]);
  });

  it('reports a write the server refuses, drops it and goes on; edits of a create that failed are dropped too', async () => {
    const q = queue();
    await q.enqueue({ op: 'create', ref: 'l:bad', body: { link: 'not a url' }, key: 'k-bad', label: 'Bad', ...base() });
    await q.enqueue({ op: 'update', ref: 'l:bad', body: { note: 'x' }, key: 'k-bad-up', label: 'Bad', ...base() });
    await q.enqueue({ op: 'create', ref: 'l:good', body: { link: 'https://q.example/good' }, key: 'k-good', label: 'Good', ...base() });
    expect(await q.drain()).toMatchObject({ sent: 1, failed: 2 });
    const view = await q.view();
    expect(view.entries).toEqual([]);
    expect(view.failures.map((f) => f.label)).toEqual(['Bad', 'Bad']);
    expect(view.failures[0].message).toMatch(/link/);
    expect((await all()).map((b) => b.link)).toEqual(['https://q.example/good']);
    await q.dismissFailures(); // the popup's "Dismiss"
    expect((await q.view()).failures).toEqual([]);
  });

  it('keeps writes made for another account: not sent, not shown, not dropped; sent when that account signs in again', async () => {
    const q = queue();
    const mine = account;
    await q.enqueue({ op: 'create', ref: 'l:mine', body: { link: 'https://q.example/mine' }, key: 'k-m', label: 'Mine', ...base() });
    // Signed out, then in as someone else.
    const other = await signedInUser(s, 'Other');
    const firstUser = user;
    ({ user, account } = other);
    await q.enqueue({ op: 'create', ref: 'l:theirs', body: { link: 'https://q.example/theirs' }, key: 'k-t', label: 'Theirs', ...base() });
    expect(await q.view()).toMatchObject({ entries: [{ label: 'Theirs' }], otherAccounts: 1 });
    expect(await q.busy()).toBe(true);
    expect(await q.drain()).toMatchObject({ sent: 1, failed: 0, remaining: 0 });
    expect((await all()).map((b) => b.link)).toEqual(['https://q.example/theirs']);
    expect(await q.view()).toMatchObject({ entries: [], failures: [], otherAccounts: 1 });
    expect(await q.busy()).toBe(false);
    // Back to the first account: its write is sent.
    ({ user, account } = { user: firstUser, account: mine });
    expect((await q.view()).entries).toHaveLength(1);
    expect(await q.drain()).toMatchObject({ sent: 1, failed: 0 });
    expect((await all()).map((b) => b.link)).toEqual(['https://q.example/mine']);
    expect((await q.state()).entries).toEqual([]);
  });

  it('an offline edit of a bookmark never seen here adds tags and note to the stored ones when sent (once)', async () => {
    const q = queue();
    const id = (await s.api('POST', '/bookmark', { token: user.token, body: { link: 'https://q.example/tags', tags: ['alpha', 'beta'], note: 'stored' } })).body.item
      ._id as number;
    const ref = `b:${id}` as const;
    await q.enqueue({ op: 'update', ref, body: {}, append: { tags: ['gamma'] }, key: 'k-a1', label: 'T', ...base() });
    // The popup sends its whole list each time: the later one replaces the earlier.
    await q.enqueue({ op: 'update', ref, body: {}, append: { tags: ['gamma', 'delta'], note: 'added' }, key: 'k-a2', label: 'T', ...base() });
    expect(await q.pendingAppend(ref)).toEqual({ tags: ['gamma', 'delta'], note: 'added' });
    expect((await q.state()).entries).toHaveLength(1);
    expect(await q.drain()).toMatchObject({ sent: 1, failed: 0 });
    const b = (await s.api('GET', `/bookmark/${id}`, { token: user.token })).body.item as Bookmark;
    expect(b.tags).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect(b.note).toBe('stored\n\nadded');
  });

  it('a change of a highlight whose add was never sent is folded into the add; a delete drops the add, and the write when nothing is left', async () => {
    const q = queue();
    network = 'down';
    const id = await bookmark('https://q.example/fold');
    const ref = `b:${id}` as const;
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ text: 'kept', color: 'yellow', _local: 'l:kept' } as never] }, key: 'k1', label: 'H', ...base() });
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ _id: 'l:kept', color: 'teal' } as never] }, key: 'k2', label: 'H', ...base() });
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ _id: 'l:kept', note: 'why' } as never] }, key: 'k3', label: 'H', ...base() });
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ text: 'dropped', _local: 'l:gone' } as never] }, key: 'k4', label: 'H', ...base() });
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ _id: 'l:gone', text: '' } as never] }, key: 'k5', label: 'H', ...base() });
    const entries = (await q.state()).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0].op === 'update' && entries[0].body.highlights).toEqual([{ text: 'kept', color: 'teal', note: 'why', _local: 'l:kept' }]);

    // An add created and deleted on its own write: the write goes away.
    const q2 = queue();
    await q2.clear();
    await q2.enqueue({ op: 'update', ref, body: { highlights: [{ text: 'only', _local: 'l:only' } as never] }, key: 'k6', label: 'H', ...base() });
    await q2.enqueue({ op: 'update', ref, body: { highlights: [{ _id: 'l:only', text: '' } as never] }, key: 'k7', label: 'H', ...base() });
    expect((await q2.view()).entries).toEqual([]);
    network = 'up';
    expect(await q2.drain()).toMatchObject({ sent: 0, failed: 0 });
    expect(await highlightsOf(id)).toEqual([]);
  });

  it('a write already tried is sent as it was; later changes wait on their own and name the highlight by the server id it got', async () => {
    const q = queue();
    const id = await bookmark('https://q.example/tried');
    const ref = `b:${id}` as const;
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ text: 'sent once', color: 'yellow', _local: 'l:s' } as never] }, key: 'k-tried', label: 'H', ...base() }, { tried: true });
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ _id: 'l:s', color: 'red' } as never] }, key: 'k-after', label: 'H', ...base() });
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ _id: 'l:s', note: 'n' } as never] }, key: 'k-after2', label: 'H', ...base() });
    const entries = (await q.state()).entries;
    expect(entries.map((e) => [e.key, e.attempts])).toEqual([['k-tried', 1], ['k-after', 0]]);
    expect(entries[0].op === 'update' && entries[0].body.highlights).toEqual([{ text: 'sent once', color: 'yellow', _local: 'l:s' }]);
    expect(await q.drain()).toMatchObject({ sent: 2, failed: 0 });
    const [h] = await highlightsOf(id);
    expect(h).toMatchObject({ text: 'sent once', color: 'red', note: 'n' });
    expect(await q.highlightIds()).toMatchObject({ 'l:s': { id: h._id } });
  });

  it('a change of a highlight whose add the server refused is dropped and reported, not sent', async () => {
    const q = queue();
    const id = await bookmark('https://q.example/refused');
    const ref = `b:${id}` as const;
    // Blank text: the server refuses the add.
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ text: '   ', _local: 'l:bad' } as never] }, key: 'k-bad', label: 'Bad', ...base() }, { tried: true });
    await q.enqueue({ op: 'update', ref, body: { highlights: [{ _id: 'l:bad', color: 'red' } as never] }, key: 'k-bad-2', label: 'Bad', ...base() });
    expect(await q.drain()).toMatchObject({ sent: 0, failed: 2 });
    expect((await q.view()).failures.map((f) => f.message)).toEqual([expect.stringMatching(/text/), expect.stringMatching(/could not be saved/)]);
  });

  it('when an earlier form of a write reached the server under its key, the whole write is sent again under a new key', async () => {
    const q = queue();
    const id = await bookmark('https://q.example/rekey');
    // An online try (not marked as tried) reached the server, then a later edit was folded into its queued copy.
    await api().updateBookmark(id, { note: 'first' }, { idempotencyKey: 'k-early', retries: 0 });
    await q.enqueue({ op: 'update', ref: `b:${id}`, body: { note: 'first' }, key: 'k-early', label: 'R', ...base() });
    await q.enqueue({ op: 'update', ref: `b:${id}`, body: { important: true }, key: 'k-later', label: 'R', ...base() });
    expect(await q.drain()).toMatchObject({ sent: 1, failed: 0 });
    expect((await all())[0]).toMatchObject({ note: 'first', important: true });
  });

  it('waits while signed out', async () => {
    const q = new WriteQueue({ api: api(), account: async () => null });
    await q.enqueue({ op: 'create', ref: 'l:s', body: { link: 'https://q.example/s' }, key: 'k-s', label: 'S', ...base() });
    expect(await q.drain()).toMatchObject({ sent: 0, stoppedBy: 'signed-out' });
    expect((await q.state()).entries).toHaveLength(1);
    expect((await q.view()).otherAccounts).toBe(1);
  });
});
