// Highlights made while the server is unreachable, against the real server: they can be recoloured,
// noted and deleted before delivery, the page shows their current state from the local copy, the
// server ends with exactly the final state (nothing duplicated, also when an answer was lost), and
// all of it holds across a service-worker restart (a new queue and service with nothing in memory).
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetExtension } from './helpers/reset.js';
import { highlightWorker } from './helpers/highlight-worker.js';
import { apiOver, signedInUser, type Network } from './helpers/signed-in.js';
import { resetStorageMemo } from '../../lib/storage/memo.js';
import type { HighlightsService } from '../../lib/background/highlights.js';
import type { Highlight } from '../../lib/api/types.js';
import type { Account } from '../../lib/model.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

let user: { id: number; token: string };
let account: Account;
let network: Network;
/** Requests that get through before the network drops (for a delivery cut off half-way). */
let requestsLeft: number;
let bookmarkId: number;
const LINK = 'https://tides.example/offline';

/** A service worker: its queue and highlight service, wired as the background wires them. */
function worker() {
  const api = apiOver(s, () => user.token, { network: () => network, gate: () => requestsLeft-- > 0 });
  return highlightWorker(api, () => account, { link: LINK, bookmarkId: () => bookmarkId });
}

/** The service worker is stopped and started again: nothing is kept in memory. */
function restart() {
  resetStorageMemo();
  return worker();
}

const stored = async () =>
  (await s.api('GET', `/bookmark/${bookmarkId}`, { token: user.token })).body.item.highlights as Highlight[];
const summary = async () => (await stored()).map((h) => `${h.color}:${h.text}:${h.note}`);
/** What the page would be painted with now (and what the popup lists). */
const local = async (h: HighlightsService) => (await h.page(LINK)).items.map((i) => `${i.color}:${i.text}:${i.note}`);

beforeEach(async () => {
  resetExtension();
  ({ user, account } = await signedInUser(s, 'O'));
  network = 'up';
  requestsLeft = Infinity;
  bookmarkId = (await s.api('POST', '/bookmark', { token: user.token, body: { link: LINK, title: 'Tides' } })).body.item._id;
});

describe('highlights made offline', () => {
  it('are recoloured, noted and deleted before delivery; the server ends with exactly the final state', async () => {
    const { highlights, queue } = worker();
    network = 'down';
    const a = await highlights.add(1, LINK, { text: 'the bell buoy', color: 'yellow', position: 0, prefix: 'of ', suffix: '.' });
    await highlights.change(LINK, a.key, { color: 'teal' });
    await highlights.change(LINK, a.key, { note: 'listen at night' });
    const b = await highlights.add(1, LINK, { text: 'the harbour wall', color: 'red' });
    await highlights.change(LINK, b.key, { color: 'blue' });
    await highlights.remove(LINK, b.key);
    // The page (and the popup) show the current state while still offline.
    expect(await local(highlights)).toEqual(['teal:the bell buoy:listen at night']);

    network = 'up';
    expect(await queue.drain()).toMatchObject({ failed: 0, remaining: 0 });
    expect(await summary()).toEqual(['teal:the bell buoy:listen at night']);
    expect((await queue.view()).entries).toEqual([]);
    // After delivery the same key (the one the page painted) still works, online.
    await highlights.change(LINK, a.key, { color: 'orange' });
    expect(await summary()).toEqual(['orange:the bell buoy:listen at night']);
    expect((await highlights.view(await highlights.page(LINK))).highlights.map((h) => h.key)).toEqual([a.key]);
  });

  it('a highlight added and deleted before it was ever sent never reaches the server', async () => {
    const { highlights, queue } = worker();
    network = 'down';
    const first = await highlights.add(1, LINK, { text: 'kept one', color: 'green' });
    const gone = await highlights.add(1, LINK, { text: 'second thoughts', color: 'red' });
    await highlights.change(LINK, gone.key, { note: 'no' });
    await highlights.remove(LINK, gone.key);
    // The first waits as tried (it may have reached the server); the second left nothing behind.
    expect((await queue.state()).entries.map((e) => e.op === 'update' && e.body.highlights?.map((c) => c.text))).toEqual([['kept one']]);
    await highlights.change(LINK, first.key, { note: 'still here' });
    network = 'up';
    await queue.drain();
    expect(await summary()).toEqual(['green:kept one:still here']);
    expect(JSON.stringify(await stored())).not.toContain('second thoughts');
  });

  it('a write whose answer was lost is not applied twice: one highlight, with the edits made afterwards', async () => {
    const { highlights, queue } = worker();
    network = 'lose-answers';
    // Online try: the server stores it, the answer never comes back.
    const a = await highlights.add(1, LINK, { text: 'spring tide', color: 'yellow' });
    expect(a.key.startsWith('l:')).toBe(true);
    expect(await stored()).toHaveLength(1);
    network = 'down';
    await highlights.change(LINK, a.key, { color: 'purple', note: 'twice a month' });
    network = 'lose-answers';
    await queue.drain(); // repeated under the same key: replayed, answer lost again
    network = 'up';
    expect(await queue.drain()).toMatchObject({ failed: 0, remaining: 0 });
    expect(await summary()).toEqual(['purple:spring tide:twice a month']);
    expect((await queue.view()).failures).toEqual([]);
  });

  it('survive service-worker restarts: edits by local key before and after delivery, local copy repainted', async () => {
    network = 'down';
    const one = worker();
    const a = await one.highlights.add(1, LINK, { text: 'low water', color: 'yellow' });
    const b = await one.highlights.add(1, LINK, { text: 'high water', color: 'yellow' });

    // Restarted while still offline: the page is repainted from the local copy, and the keys it has work.
    const two = restart();
    expect(await local(two.highlights)).toEqual(['yellow:low water:', 'yellow:high water:']);
    await two.highlights.change(LINK, a.key, { color: 'red' });
    await two.highlights.change(LINK, b.key, { note: 'moon' });
    await two.highlights.remove(LINK, a.key);
    expect(await local(two.highlights)).toEqual(['yellow:high water:moon']);

    // Restarted again, back online: a new worker delivers what the old ones queued.
    network = 'up';
    const three = restart();
    expect(await three.queue.drain()).toMatchObject({ failed: 0, remaining: 0 });
    expect(await summary()).toEqual(['yellow:high water:moon']);

    // And after one more restart the local key still names the delivered highlight.
    const four = restart();
    await four.highlights.change(LINK, b.key, { color: 'green' });
    expect(await summary()).toEqual(['green:high water:moon']);
    expect((await four.highlights.view(await four.highlights.page(LINK))).highlights.map((h) => h.key)).toEqual([b.key]);
  });

  it('delivery cut off half-way: the local copy keeps the waiting edits, later edits by local key reach the right highlight', async () => {
    const { highlights, queue } = worker();
    network = 'down';
    const a = await highlights.add(1, LINK, { text: 'ebb', color: 'yellow' }); // tried: its own write
    await highlights.change(LINK, a.key, { color: 'red' }); // waits behind it
    const b = await highlights.add(1, LINK, { text: 'flow', color: 'yellow' });
    // The first write goes through, then the network drops again.
    network = 'up';
    requestsLeft = 1;
    expect(await queue.drain()).toMatchObject({ sent: 1, stoppedBy: 'network' });
    expect(await summary()).toEqual(['yellow:ebb:']);
    await new Promise((r) => setTimeout(r, 20)); // the delivered answer is merged into the local copy
    expect(await local(highlights)).toEqual(['red:ebb:', 'yellow:flow:']);
    await highlights.change(LINK, a.key, { note: 'out' });
    await highlights.change(LINK, b.key, { note: 'in' });
    expect(await local(highlights)).toEqual(['red:ebb:out', 'yellow:flow:in']);
    requestsLeft = Infinity;
    expect(await queue.drain()).toMatchObject({ failed: 0, remaining: 0 });
    expect(await summary()).toEqual(['red:ebb:out', 'yellow:flow:in']);
  });

  it('two highlights made at the same moment are both kept in the local copy', async () => {
    const { highlights, queue } = worker();
    network = 'down';
    await Promise.all([
      highlights.add(1, LINK, { text: 'north', color: 'yellow' }),
      highlights.add(1, LINK, { text: 'south', color: 'red' }),
      highlights.add(1, LINK, { text: 'east', color: 'blue' }),
    ]);
    expect((await local(highlights)).sort()).toEqual(['blue:east:', 'red:south:', 'yellow:north:']);
    network = 'up';
    await queue.drain();
    expect((await summary()).sort()).toEqual(['blue:east:', 'red:south:', 'yellow:north:']);
  });
});
