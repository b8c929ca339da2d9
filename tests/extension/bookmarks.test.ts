// The popup's save flow in the background against the real server: create with the page's
// metadata, never a duplicate (index, url/exists, queued saves), save-on-open off, offline saves,
// edits, remove and undo.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { resetExtension } from './helpers/reset.js';
import { apiOver, signedInUser } from './helpers/signed-in.js';
import type { Bookmark } from '../../lib/api/types.js';
import { BookmarksService } from '../../lib/background/bookmarks.js';
import { WriteQueue } from '../../lib/background/queue.js';
import type { Account } from '../../lib/model.js';
import type { PageInfo } from '../../lib/messaging/protocol.js';
import { defaultCollectionItem, lastCollectionItem, saveOnOpenItem, signedOutReasonItem } from '../../lib/storage/items.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

let user: { id: number; token: string };
let account: Account | null;
let down: boolean;
let index: Map<string, { id: number; collectionId: number }> | null;
let saved: Bookmark[];
let removed: number[];
let pageInfo: PageInfo;
/** The bookmarks whose page text the service asked to send, with their tab. */
let textsSent: { tabId: number; id: number }[];

function service() {
  const api = apiOver(s, () => user.token, { network: () => (down ? 'down' : 'up') });
  const queue = new WriteQueue({ api, account: async () => account });
  const bookmarks = new BookmarksService({
    api,
    queue,
    account: async () => account,
    lookup: (key) => (index ? index.get(key) ?? null : undefined),
    onSaved: (b) => saved.push(b),
    onRemoved: (id) => removed.push(id),
    usedCollection: async () => {},
    readPage: async (tab) => ({ ...pageInfo, url: tab.url }),
    sendText: (tabId, id) => textsSent.push({ tabId, id }),
  });
  return { bookmarks, queue };
}

const list = async () => (await s.api('GET', '/bookmarks/0?perpage=50', { token: user.token })).body.items as Bookmark[];
async function tabAt(url: string) {
  return (await fakeBrowser.tabs.create({ url })).id!;
}

beforeEach(async () => {
  resetExtension();
  ({ user, account } = await signedInUser(s, 'B'));
  down = false;
  index = new Map();
  saved = [];
  removed = [];
  textsSent = [];
  pageInfo = { url: '', title: 'Low tide', excerpt: 'When the water goes out.', cover: 'https://img.example/tide.png' };
});

describe('openForTab', () => {
  it("sends the page's text after a save and a save again; not on a plain reopening or a queued save", async () => {
    const { bookmarks } = service();
    const tabId = await tabAt('https://tides.example/text');
    const created = await bookmarks.openForTab(tabId);
    const id = Number((created as { bookmark: { ref: string } }).bookmark.ref.slice(2));
    expect(textsSent).toEqual([{ tabId, id }]);
    index!.set('tides.example/text', { id, collectionId: -1 });
    // Opened again to edit it: its text is on the server already.
    await bookmarks.openForTab(tabId);
    expect(textsSent).toHaveLength(1);
    // Saved again (the save command or menu on a saved page): sent again.
    await bookmarks.openForTab(tabId, { create: true });
    expect(textsSent).toEqual([{ tabId, id }, { tabId, id }]);

    // Offline, the save waits in the queue and no text is sent (the server's job reads the address later).
    down = true;
    const queued = await bookmarks.openForTab(await tabAt('https://tides.example/offline'));
    expect(queued).toMatchObject({ state: 'saved', created: true, queued: true });
    expect(textsSent).toHaveLength(2);
  });

  it('creates the bookmark with the page metadata in the last-used collection, once', async () => {
    const col = (await s.api('POST', '/collection', { token: user.token, body: { title: 'Coast' } })).body.item._id;
    await lastCollectionItem.setValue(col);
    const { bookmarks } = service();
    const tabId = await tabAt('https://tides.example/low?utm_source=x');
    const first = await bookmarks.openForTab(tabId);
    expect(first).toMatchObject({ state: 'saved', created: true, queued: false, bookmark: { title: 'Low tide', collectionId: col } });
    const [b] = await list();
    expect(b).toMatchObject({ link: 'https://tides.example/low?utm_source=x', title: 'Low tide', excerpt: 'When the water goes out.', cover: 'https://img.example/tide.png', collectionId: col });
    expect(saved.map((x) => x._id)).toEqual([b._id]);

    // The index knows it now (as the background's onSaved would record): opened for editing.
    index!.set('tides.example/low', { id: b._id, collectionId: col });
    expect(await bookmarks.openForTab(tabId)).toMatchObject({ state: 'saved', created: false, bookmark: { ref: `b:${b._id}` } });
    expect(await list()).toHaveLength(1);
  });

  it('asks url/exists before creating, so a stale index or a save from elsewhere makes no duplicate', async () => {
    const other = (await s.api('POST', '/bookmark', { token: user.token, body: { link: 'http://www.tides.example/high/' } })).body.item;
    const { bookmarks } = service();
    const tabId = await tabAt('https://tides.example/high');
    // The index says "not saved" (stale) ...
    expect(await bookmarks.openForTab(tabId)).toMatchObject({ state: 'saved', created: false, bookmark: { ref: `b:${other._id}` } });
    // ... or cannot say yet (not synced).
    index = null;
    expect(await bookmarks.openForTab(tabId)).toMatchObject({ state: 'saved', created: false });
    expect(await list()).toHaveLength(1);
  });

  it('does not reopen a bookmark that is in Trash: the page is saved again', async () => {
    const { bookmarks } = service();
    const tabId = await tabAt('https://tides.example/trashed');
    const first = await bookmarks.openForTab(tabId);
    const id = Number((first as { bookmark: { ref: string } }).bookmark.ref.slice(2));
    await s.api('DELETE', `/bookmark/${id}`, { token: user.token });
    index!.set('tides.example/trashed', { id, collectionId: -1 }); // the index has not heard yet
    const again = await bookmarks.openForTab(tabId);
    expect(again).toMatchObject({ state: 'saved', created: true });
    expect(removed).toEqual([id]); // the stale index entry is dropped
    expect((await list()).map((b) => b.link)).toEqual(['https://tides.example/trashed']);
  });

  it('with "save on open" off, offers the page and saves it on request', async () => {
    await saveOnOpenItem.setValue(false);
    const { bookmarks } = service();
    const tabId = await tabAt('https://tides.example/button');
    expect(await bookmarks.openForTab(tabId)).toEqual({ state: 'unsaved', page: { ...pageInfo, url: 'https://tides.example/button' } });
    expect(await list()).toEqual([]);
    expect(await bookmarks.openForTab(tabId, { create: true })).toMatchObject({ state: 'saved', created: true });
    expect(await list()).toHaveLength(1);
  });

  it('uses the default collection from the options over the last used one', async () => {
    const a = (await s.api('POST', '/collection', { token: user.token, body: { title: 'A' } })).body.item._id;
    const b = (await s.api('POST', '/collection', { token: user.token, body: { title: 'B' } })).body.item._id;
    await lastCollectionItem.setValue(a);
    await defaultCollectionItem.setValue(b);
    const { bookmarks } = service();
    await bookmarks.openForTab(await tabAt('https://tides.example/default'));
    expect((await list())[0].collectionId).toBe(b);
  });

  it('a save queued behind earlier writes while the server answers does not say the server is unreachable', async () => {
    const { bookmarks, queue } = service();
    down = true;
    await bookmarks.openForTab(await tabAt('https://tides.example/earlier'));
    down = false;
    // The server answers now; the earlier save still waits, so this one queues behind it (order is kept).
    const later = await bookmarks.openForTab(await tabAt('https://tides.example/later'));
    expect(later).toMatchObject({ state: 'saved', created: true, queued: true });
    expect(later).not.toHaveProperty('serverUrl');
    expect((await queue.view()).entries).toHaveLength(2);
  });

  it('queues the save when the server is unreachable, and reopening does not queue it twice', async () => {
    const { bookmarks, queue } = service();
    const tabId = await tabAt('https://tides.example/offline');
    down = true;
    const first = await bookmarks.openForTab(tabId);
    expect(first).toMatchObject({ state: 'saved', created: true, queued: true, bookmark: { ref: expect.stringMatching(/^l:/), title: 'Low tide' } });
    // The popup names the server it could not reach.
    expect(first).toMatchObject({ serverUrl: account!.serverUrl });
    expect(await bookmarks.openForTab(tabId)).toMatchObject({ state: 'saved', created: false, queued: true, serverUrl: account!.serverUrl });
    expect((await queue.view()).entries).toHaveLength(1);
    // Edits of the queued bookmark queue behind it and arrive with it.
    const ref = (first as { bookmark: { ref: `l:${string}` } }).bookmark.ref;
    expect(await bookmarks.update(ref, { note: 'offline note' })).toMatchObject({ state: 'queued' });
    down = false;
    await queue.drain();
    expect(await list()).toMatchObject([{ link: 'https://tides.example/offline', note: 'offline note' }]);
  });

  it('explains pages it cannot save and the signed-out state', async () => {
    const { bookmarks } = service();
    expect(await bookmarks.openForTab(await tabAt('chrome://settings'))).toMatchObject({ state: 'unsupported', reason: expect.any(String) });
    account = null;
    await signedOutReasonItem.setValue('Your sign-in has expired.');
    expect(await bookmarks.openForTab(await tabAt('https://tides.example/x'))).toEqual({ state: 'signed-out', reason: 'Your sign-in has expired.' });
  });
});

describe('edits', () => {
  it('updates, moves to Trash and restores through the server, telling the index', async () => {
    const { bookmarks } = service();
    const opened = await bookmarks.openForTab(await tabAt('https://tides.example/edit'));
    const ref = (opened as { bookmark: { ref: `b:${number}` } }).bookmark.ref;
    const id = Number(ref.slice(2));
    const col = (await s.api('POST', '/collection', { token: user.token, body: { title: 'Sea' } })).body.item._id;
    expect(await bookmarks.update(ref, { tags: ['sea', 'moon'], important: true, collectionId: col, note: 'n', excerpt: 'e' })).toMatchObject({
      state: 'saved',
      bookmark: { tags: ['sea', 'moon'], important: true, collectionId: col, note: 'n', excerpt: 'e' },
    });
    expect(await lastCollectionItem.getValue()).toBe(col);
    expect(await bookmarks.remove(ref)).toMatchObject({ state: 'saved', bookmark: { removed: true } });
    expect(removed).toEqual([id]);
    expect((await s.api('GET', `/bookmark/${id}`, { token: user.token })).body.item.collectionId).toBe(-99);
    expect(await bookmarks.restore(ref, col)).toMatchObject({ state: 'saved', bookmark: { collectionId: col, removed: false } });
    expect((await s.api('GET', `/bookmark/${id}`, { token: user.token })).body.item).toMatchObject({ collectionId: col, removed: false });
  });

  it('reports a refused edit as an error (not queued)', async () => {
    const { bookmarks, queue } = service();
    await expect(bookmarks.update('b:999999', { note: 'x' })).rejects.toThrow(/Not found/);
    expect((await queue.view()).entries).toEqual([]);
  });
});
