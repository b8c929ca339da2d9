// The saved-link index: lookups with the server's own link keys (one normalisation for both), local
// updates, compaction, and syncing with the real server's GET /links, full and incremental.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetExtension } from './helpers/reset.js';
import { TidemarkApi } from '../../lib/api/client/index.js';
import { normalizeUrl, URL_KEY_VERSION } from '../../lib/api/url.js';
import { SavedIndexService } from '../../lib/background/index-sync.js';
import { hashKey, SavedLinkIndex } from '../../lib/background/saved-index.js';
import type { Account } from '../../lib/model.js';
import { savedIndexRecord } from '../../lib/storage/items.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('SavedLinkIndex', () => {
  it('finds links by key and says null for others', () => {
    const index = SavedLinkIndex.fromEntries([
      [1, 'example.com/a', -1],
      [2, 'example.com/b', 10],
    ]);
    expect(index.lookup('example.com/b')).toEqual({ id: 2, collectionId: 10 });
    expect(index.lookup('example.com/c')).toBeNull();
    expect(index.size).toBe(2);
  });

  it('applies adds, moves and removals, before and after compaction', () => {
    const index = SavedLinkIndex.fromEntries([
      [1, 'a.example/', -1],
      [2, 'b.example/', -1],
    ]);
    index.upsert(3, 'c.example/', 5);
    index.upsert(1, 'a.example/', 7); // moved to collection 7
    index.remove(2);
    index.upsert(4, 'd.example/', -1);
    index.remove(4);
    const check = () => {
      expect(index.lookup('a.example/')).toEqual({ id: 1, collectionId: 7 });
      expect(index.lookup('b.example/')).toBeNull();
      expect(index.lookup('c.example/')).toEqual({ id: 3, collectionId: 5 });
      expect(index.lookup('d.example/')).toBeNull();
      expect(index.size).toBe(2);
    };
    check();
    index.compact();
    check();
  });

  it('keeps a link saved while one of two bookmarks of it remains', () => {
    const index = SavedLinkIndex.fromEntries([
      [1, 'dup.example/', -1],
      [2, 'dup.example/', 4],
    ]);
    index.remove(1);
    expect(index.lookup('dup.example/')).toEqual({ id: 2, collectionId: 4 });
    index.remove(2);
    expect(index.lookup('dup.example/')).toBeNull();
  });

  it('compacts by itself as changes pile up and stays correct for many entries', () => {
    const entries: [number, string, number][] = [];
    for (let i = 1; i <= 20_000; i++) entries.push([i, `site${i % 97}.example/page/${i}`, i % 13]);
    const index = SavedLinkIndex.fromEntries(entries);
    for (let i = 20_001; i <= 26_000; i++) index.upsert(i, `new.example/${i}`, 1);
    for (let i = 1; i <= 3000; i++) index.remove(i);
    expect(index.size).toBe(20_000 + 6000 - 3000);
    expect(index.lookup('site7.example/page/7')).toBeNull();
    expect(index.lookup(`site${3001 % 97}.example/page/3001`)).toEqual({ id: 3001, collectionId: 3001 % 13 });
    expect(index.lookup('new.example/25999')).toEqual({ id: 25999, collectionId: 1 });
  });

  it('hashes to exact 53-bit integers, the same every time', () => {
    const h = hashKey('example.com/a');
    expect(Number.isSafeInteger(h)).toBe(true);
    expect(hashKey('example.com/a')).toBe(h);
    expect(hashKey('example.com/b')).not.toBe(h);
  });
});

describe('SavedIndexService with the real server', () => {
  let s: TestServer;
  let user: { id: number; token: string };
  let account: Account;
  let api: TidemarkApi;

  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s.close());
  beforeEach(async () => {
    resetExtension();
    await savedIndexRecord.remove();
    user = await s.createUser();
    account = { userId: user.id, name: 'x', email: 'x', serverUrl: s.origin, method: 'test-token' };
    api = new TidemarkApi({ serverUrl: () => s.origin, tokens: { getAccessToken: async () => user.token, refreshAfterUnauthorized: async () => null } });
  });

  const create = async (link: string, extra: object = {}) =>
    (await s.api('POST', '/bookmark', { token: user.token, body: { link, ...extra } })).body.item._id as number;

  it('cannot answer before the first sync, then answers for the variants of a saved link that url/exists accepts', async () => {
    await create('https://www.Example.com/article/?utm_source=feed&b=2&a=1#comments');
    const service = new SavedIndexService({ api, account: async () => account });
    expect(service.lookup(normalizeUrl('https://example.com/article?a=1&b=2')!)).toBeUndefined();
    await service.sync();
    expect(service.state).toBe('ready');
    for (const variant of ['http://example.com/article?a=1&b=2', 'https://EXAMPLE.com/article/?b=2&a=1&fbclid=x', 'https://www.example.com/article?a=1&b=2#top']) {
      expect(service.lookup(normalizeUrl(variant)!), variant).not.toBeNull();
      const exists = await s.api('POST', '/import/url/exists', { token: user.token, body: { urls: [variant] } });
      expect(exists.body.result, variant).toBe(true);
    }
    expect(service.lookup(normalizeUrl('https://example.com/article?a=2&b=2')!)).toBeNull();
    expect(service.lookup(normalizeUrl('https://example.com/#/app-route')!)).toBeNull();
  });

  it('pages through a full listing, then applies only the changes since its cursor', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await create(`https://paged.example/${i}`));
    const service = new SavedIndexService({ api, account: async () => account, pageSize: 3 });
    await service.sync();
    expect(service.size).toBe(7);

    await s.api('DELETE', `/bookmark/${ids[0]}`, { token: user.token });
    const col = (await s.api('POST', '/collection', { token: user.token, body: { title: 'Moved' } })).body.item._id;
    await s.api('PUT', `/bookmark/${ids[1]}`, { token: user.token, body: { collection: { $id: col } } });
    const added = await create('https://paged.example/new');
    await service.sync();
    expect(service.lookup('paged.example/0')).toBeNull();
    expect(service.lookup('paged.example/1')).toEqual({ id: ids[1], collectionId: col });
    expect(service.lookup('paged.example/new')).toEqual({ id: added, collectionId: -1 });
    expect(service.size).toBe(7);
  });

  it('is kept in IndexedDB: a restarted worker answers at once, and only for the same account', async () => {
    const id = await create('https://kept.example/');
    await new SavedIndexService({ api, account: async () => account }).sync();

    const restarted = new SavedIndexService({ api, account: async () => account });
    await restarted.load();
    expect(restarted.state).toBe('ready');
    expect(restarted.lookup('kept.example/')).toEqual({ id, collectionId: -1 });

    const other = new SavedIndexService({ api, account: async () => ({ ...account, userId: account.userId + 1000 }) });
    await other.load();
    expect(other.lookup('kept.example/')).toBeUndefined();
  });

  it('a stored index of another URL key version is dropped and rebuilt from the server', async () => {
    const id = await create('https://rekeyed.example/page');
    await new SavedIndexService({ api, account: async () => account }).sync();
    const stored = (await savedIndexRecord.get())!;
    expect(stored.keyVersion).toBe(URL_KEY_VERSION);
    // An index kept by an older extension: its keys (here one of a page never saved) are not today's.
    const old = SavedLinkIndex.fromEntries([[999_999, 'old-rules.example/page/', -1]]).arrays();
    await savedIndexRecord.set({ ...stored, ...old, keyVersion: URL_KEY_VERSION - 1 });

    const updated = new SavedIndexService({ api, account: async () => account });
    await updated.load();
    expect(updated.state).toBe('empty');
    expect(updated.lookup('old-rules.example/page/')).toBeUndefined();
    await updated.sync();
    expect(updated.lookup('rekeyed.example/page')).toEqual({ id, collectionId: -1 });
    expect(updated.lookup('old-rules.example/page/')).toBeNull();
    expect((await savedIndexRecord.get())!.keyVersion).toBe(URL_KEY_VERSION);
  });

  it('a server keying links by another version leaves the index unusable, so lookups fall back to url/exists', async () => {
    await create('https://mismatch.example/');
    const newer = new SavedIndexService({ api, account: async () => account, keyVersion: URL_KEY_VERSION + 1 });
    await expect(newer.sync()).rejects.toThrow(`by version ${URL_KEY_VERSION} of the link rules, this extension by version ${URL_KEY_VERSION + 1}`);
    expect(newer.state).toBe('error');
    expect(newer.lookup('mismatch.example/')).toBeUndefined();
  });

  it('goes to "error" (so lookups fall back to url/exists) when a sync fails', async () => {
    const service = new SavedIndexService({
      api: new TidemarkApi({ serverUrl: () => 'http://127.0.0.1:9', tokens: { getAccessToken: async () => 't', refreshAfterUnauthorized: async () => null }, retry: { retries: 0 } }),
      account: async () => account,
    });
    await expect(service.sync()).rejects.toMatchObject({ kind: 'network' });
    expect(service.state).toBe('error');
    expect(service.lookup('anything/')).toBeUndefined();
  });
});
