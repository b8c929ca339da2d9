// The offline queue against the real server: writes are delivered in order and exactly once (also
// when an answer is lost and the write is repeated), survive a restart, and refused writes are
// reported, not retried forever.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { resetExtension } from './helpers/reset.js';
import { resetStorageMemo } from '../../lib/storage/memo.js';
import { TidemarkApi } from '../../lib/api/client/index.js';
import { WriteQueue } from '../../lib/background/queue.js';
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
/** What the network does: 'up', 'down' (nothing reaches the server) or 'lose-answers' (the server acts, the answer is lost). */
let network: 'up' | 'down' | 'lose-answers';

function api() {
  return new TidemarkApi({
    serverUrl: () => s.origin,
    tokens: { getAccessToken: async () => user.token, refreshAfterUnauthorized: async () => null },
    retry: { retries: 0 },
    fetch: async (input, init) => {
      if (network === 'down') throw new TypeError('fetch failed');
      const res = await fetch(input, init);
      if (network === 'lose-answers') {
        await res.text();
        throw new TypeError('network connection was lost');
      }
      return res;
    },
  });
}

function queue() {
  return new WriteQueue({ api: api(), account: async () => account });
}

beforeEach(async () => {
  resetExtension();
  user = await s.createUser();
  account = { userId: user.id, name: 'Q', email: 'q@example.test', serverUrl: s.origin, method: 'test-token' };
  network = 'up';
});

const base = () => ({ userId: account.userId, serverUrl: account.serverUrl });
const all = async () => (await s.api('GET', '/bookmarks/0?perpage=50', { token: user.token })).body.items as { _id: number; link: string; note: string; important: boolean }[];
const trash = async () => (await s.api('GET', '/bookmarks/-99?perpage=50', { token: user.token })).body.items as { _id: number }[];

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

  it('does not send writes made for another account', async () => {
    const q = queue();
    await q.enqueue({ op: 'create', ref: 'l:o', body: { link: 'https://q.example/other' }, key: 'k-o', label: 'Other', userId: account.userId + 1, serverUrl: s.origin });
    expect(await q.drain()).toMatchObject({ sent: 0, failed: 1 });
    expect(await all()).toEqual([]);
  });

  it('waits while signed out', async () => {
    const q = new WriteQueue({ api: api(), account: async () => null });
    await q.enqueue({ op: 'create', ref: 'l:s', body: { link: 'https://q.example/s' }, key: 'k-s', label: 'S', ...base() });
    expect(await q.drain()).toMatchObject({ sent: 0, stoppedBy: 'signed-out' });
    expect((await q.view()).entries).toHaveLength(1);
  });
});
