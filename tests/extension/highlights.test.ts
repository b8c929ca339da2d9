// The background's highlight service against the real server: highlights are stored with their
// anchoring context, content scripts get no note text, offline highlights queue up (several on one
// page become one write, none lost) and are delivered once, and Undo of a delete brings the note back.
// Offline edits of highlights not yet delivered: tests/extension/highlights-offline.test.ts.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetExtension } from './helpers/reset.js';
import { highlightWorker } from './helpers/highlight-worker.js';
import { apiOver, signedInUser } from './helpers/signed-in.js';
import { colorsByUse } from '../../lib/background/highlight-colors.js';
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
let network: 'up' | 'down';
let bookmarkId: number;
const LINK = 'https://tides.example/article';

function services() {
  return highlightWorker(apiOver(s, () => user.token, { network: () => network }), () => account, { link: LINK, bookmarkId: () => bookmarkId });
}

const stored = async () => (await s.api('GET', `/bookmark/${bookmarkId}`, { token: user.token })).body.item.highlights as Highlight[];

beforeEach(async () => {
  resetExtension();
  ({ user, account } = await signedInUser(s, 'H'));
  network = 'up';
  bookmarkId = (await s.api('POST', '/bookmark', { token: user.token, body: { link: LINK, title: 'Tides' } })).body.item._id;
});

describe('HighlightsService', () => {
  it('stores a highlight with its colour and anchoring context; what a content script gets has no note text', async () => {
    const { highlights } = services();
    const added = await highlights.add(1, LINK, { text: 'spring tides', color: 'green', position: 1, prefix: 'the ', suffix: ' come' });
    expect(await stored()).toMatchObject([{ _id: added.key, text: 'spring tides', color: 'green', position: 1, prefix: 'the ', suffix: ' come' }]);
    const page = await highlights.change(LINK, added.key, { note: 'secret thought' });
    expect((await stored())[0].note).toBe('secret thought');
    const view = await highlights.view(page);
    expect(view.highlights).toEqual([{ key: added.key, text: 'spring tides', color: 'green', position: 1, prefix: 'the ', suffix: ' come', hasNote: true }]);
    expect(JSON.stringify(view)).not.toContain('secret thought');
    expect(view.colors[0]).toBe('green');
    expect(view.lastColor).toBe('green');
  });

  it('the library’s reader names the bookmark by id: a page the saved-link index does not know takes highlights without a tab or a new bookmark', async () => {
    const { highlights, queue } = services();
    // Not in the index (another's bookmark in a shared collection looks the same): found by its id.
    const other = 'https://tides.example/other';
    const otherId = (await s.api('POST', '/bookmark', { token: user.token, body: { link: other, title: 'Other' } })).body.item._id as number;
    const added = await highlights.add(-1, other, { text: 'neap tides', color: 'blue', prefix: 'the ' }, otherId);
    const otherStored = async () => (await s.api('GET', `/bookmark/${otherId}`, { token: user.token })).body.item.highlights as Highlight[];
    expect(await otherStored()).toMatchObject([{ _id: added.key, text: 'neap tides', color: 'blue', prefix: 'the ' }]);
    await highlights.change(other, added.key, { note: 'read in the reader' }, otherId);
    expect((await otherStored())[0]!.note).toBe('read in the reader');
    // Offline: queued, and the reader's next look (the local copy) has it with its note.
    network = 'down';
    const later = await highlights.add(-1, other, { text: 'spring tides', color: 'red' }, otherId);
    expect(later.key.startsWith('l:')).toBe(true);
    expect((await highlights.page(other, otherId)).items.map((h) => [h.text, h.note])).toEqual([['neap tides', 'read in the reader'], ['spring tides', '']]);
    network = 'up';
    await queue.drain();
    await highlights.remove(other, added.key, otherId);
    expect((await otherStored()).map((h) => h.text)).toEqual(['spring tides']);
    expect((await s.api('GET', '/bookmarks/0', { token: user.token })).body.items).toHaveLength(2);
  });

  it('offline: several highlights wait as one queued write, none lost, delivered once', async () => {
    const { highlights, queue } = services();
    network = 'down';
    const a = await highlights.add(1, LINK, { text: 'first quote', color: 'blue' });
    await highlights.add(1, LINK, { text: 'second quote', color: 'red' });
    await highlights.add(1, LINK, { text: 'third quote', color: 'red' });
    expect(a.key.startsWith('l:')).toBe(true);
    // The first was tried online (it may have reached the server, so it waits as sent); the others are one write.
    expect((await queue.view()).entries.map((e) => e.attempts)).toEqual([1, 0]);
    // The page repaints from the local copy while offline.
    expect((await highlights.view(await highlights.page(LINK))).highlights.map((h) => h.text)).toEqual(['first quote', 'second quote', 'third quote']);
    network = 'up';
    expect(await queue.drain()).toMatchObject({ sent: 2, failed: 0 });
    expect((await stored()).map((h) => `${h.color}:${h.text}`)).toEqual(['blue:first quote', 'red:second quote', 'red:third quote']);
    expect(await queue.drain()).toMatchObject({ sent: 0 });
    expect(await stored()).toHaveLength(3);
  });

  it('a highlight made offline can be changed once delivered (its server id is found again)', async () => {
    const { highlights, queue } = services();
    network = 'down';
    const a = await highlights.add(1, LINK, { text: 'made on the train', color: 'blue', position: 0, prefix: 'x ' });
    network = 'up';
    await queue.drain();
    await highlights.change(LINK, a.key, { color: 'teal' });
    expect((await stored()).map((h) => h.color)).toEqual(['teal']);
  });

  it('delete, then Undo: the highlight comes back with its note', async () => {
    const { highlights } = services();
    const a = await highlights.add(1, LINK, { text: 'keep this', color: 'yellow' });
    await highlights.change(LINK, a.key, { note: 'why it matters' });
    await highlights.remove(LINK, a.key);
    expect(await stored()).toEqual([]);
    await highlights.add(1, LINK, { text: 'keep this', color: 'yellow', restore: a.key });
    expect(await stored()).toMatchObject([{ text: 'keep this', note: 'why it matters' }]);
  });
});

describe('colorsByUse', () => {
  it('puts the most used colours first, then the starter order; all 12 are there', () => {
    const order = colorsByUse({ red: 3, teal: 5, blue: 3 });
    expect(order.slice(0, 3)).toEqual(['teal', 'blue', 'red']);
    expect(order).toHaveLength(12);
    expect(new Set(order).size).toBe(12);
  });

  it('offers a new user yellow (the default), green, blue and pink first', () => {
    expect(colorsByUse({}).slice(0, 4)).toEqual(['yellow', 'green', 'blue', 'pink']);
    expect(colorsByUse({ teal: 1 }).slice(0, 5)).toEqual(['teal', 'yellow', 'green', 'blue', 'pink']);
  });
});
