// One user can never read, change, move or remove another user's bookmarks, nor put bookmarks
// into another user's collections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let a: { id: number; token: string };
let b: { id: number; token: string };
let aCollection: number;
let bCollection: number;

beforeAll(async () => {
  s = await startServer();
  a = await s.createUser();
  b = await s.createUser();
  aCollection = (await s.api('POST', '/collection', { token: a.token, body: { title: 'A private' } })).body.item._id;
  bCollection = (await s.api('POST', '/collection', { token: b.token, body: { title: 'B own' } })).body.item._id;
});
afterAll(async () => s.close());

async function aBookmark(body: Record<string, unknown> = {}) {
  const res = await s.api('POST', '/bookmark', {
    token: a.token,
    body: { link: 'https://a-private.example/page', title: 'A secret', highlights: [{ text: 'A quote' }], ...body },
  });
  expect(res.status).toBe(200);
  return res.body.item;
}

async function snapshot(id: number) {
  return (await s.sql('SELECT * FROM bookmarks WHERE id = ?', id))[0];
}

const denied = (status: number) => expect([403, 404]).toContain(status);

describe('user B and user A\'s bookmarks', () => {
  it('B cannot read A\'s bookmark, in a collection or in Unsorted', async () => {
    for (const item of [await aBookmark({ collectionId: aCollection }), await aBookmark()]) {
      const res = await s.api('GET', `/bookmark/${item._id}`, { token: b.token });
      denied(res.status);
      expect(res.body.result).toBe(false);
      expect(JSON.stringify(res.body)).not.toContain('A secret');
    }
  });

  it('B cannot update A\'s bookmark or its highlights', async () => {
    const item = await aBookmark({ collectionId: aCollection });
    const before = await snapshot(item._id);
    const res = await s.api('PUT', `/bookmark/${item._id}`, {
      token: b.token,
      body: { title: 'pwned', highlights: [{ _id: item.highlights[0]._id, text: '' }, { text: 'B was here' }] },
    });
    denied(res.status);
    expect(await snapshot(item._id)).toEqual(before);
    expect((await s.api('GET', `/bookmark/${item._id}`, { token: a.token })).body.item.highlights).toHaveLength(1);
  });

  it('B cannot move A\'s bookmark into B\'s collection', async () => {
    const item = await aBookmark({ collectionId: aCollection });
    const res = await s.api('PUT', `/bookmark/${item._id}`, { token: b.token, body: { collection: { $id: bCollection } } });
    denied(res.status);
    expect(await snapshot(item._id)).toMatchObject({ collection_id: aCollection, user_id: a.id });
  });

  it('B cannot move its own bookmark into A\'s collection, nor create one there', async () => {
    const own = await s.api('POST', '/bookmark', { token: b.token, body: { link: 'https://b.example/', collectionId: bCollection } });
    const res = await s.api('PUT', `/bookmark/${own.body.item._id}`, { token: b.token, body: { collection: { $id: aCollection } } });
    denied(res.status);
    expect(await snapshot(own.body.item._id)).toMatchObject({ collection_id: bCollection, user_id: b.id });
    const create = await s.api('POST', '/bookmark', { token: b.token, body: { link: 'https://b.example/2', collection: { $id: aCollection } } });
    denied(create.status);
    const bulkCreate = await s.api('POST', '/bookmarks', { token: b.token, body: { items: [{ link: 'https://b.example/3', collectionId: aCollection }] } });
    denied(bulkCreate.status);
    const inA = (await s.sql('SELECT count(*) AS n FROM bookmarks WHERE collection_id = ? AND user_id <> ?', aCollection, a.id))[0] as { n: number };
    expect(inA.n).toBe(0);
  });

  it('B cannot delete A\'s bookmark, even from A\'s Trash', async () => {
    const item = await aBookmark({ collectionId: aCollection });
    denied((await s.api('DELETE', `/bookmark/${item._id}`, { token: b.token })).status);
    expect(await snapshot(item._id)).toMatchObject({ collection_id: aCollection, removed: 0 });
    await s.api('DELETE', `/bookmark/${item._id}`, { token: a.token });
    denied((await s.api('DELETE', `/bookmark/${item._id}`, { token: b.token })).status);
    expect(await snapshot(item._id)).toMatchObject({ collection_id: -99, removed: 1 });
  });

  it('B\'s bulk operations never reach A\'s bookmarks', async () => {
    const inColl = await aBookmark({ collectionId: aCollection });
    const unsorted = await aBookmark();
    const ids = [inColl._id, unsorted._id];
    denied((await s.api('PUT', `/bookmarks/${aCollection}`, { token: b.token, body: { important: true } })).status);
    denied((await s.api('DELETE', `/bookmarks/${aCollection}`, { token: b.token })).status);
    // Through B's own system collections, A's ids simply do not match.
    const upd = await s.api('PUT', '/bookmarks/-1', { token: b.token, body: { ids, important: true, tags: ['b'] } });
    expect(upd.body).toEqual({ result: true, modified: 0 });
    const mv = await s.api('PUT', `/bookmarks/-1`, { token: b.token, body: { ids, collection: { $id: bCollection } } });
    expect(mv.body.modified).toBe(0);
    const del = await s.api('DELETE', '/bookmarks/-1', { token: b.token, body: { ids } });
    expect(del.body.modified).toBe(0);
    // B moving its own Unsorted into A's collection is refused.
    await s.api('POST', '/bookmark', { token: b.token, body: { link: 'https://b.example/mine' } });
    denied((await s.api('PUT', '/bookmarks/-1', { token: b.token, body: { collection: { $id: aCollection } } })).status);
    await s.api('DELETE', `/bookmark/${unsorted._id}`, { token: a.token });
    const purge = await s.api('DELETE', '/bookmarks/-99', { token: b.token, body: { ids } });
    expect(purge.body.modified).toBe(0);
    expect(await snapshot(inColl._id)).toMatchObject({ collection_id: aCollection, important: 0, tags: '[]', removed: 0 });
    expect(await snapshot(unsorted._id)).toMatchObject({ collection_id: -99, user_id: a.id });
  });
});
