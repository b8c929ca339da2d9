// The contract's "States and transitions" rows for bookmarks and Trash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

async function collection(token: string, title = 'Shelf'): Promise<number> {
  return (await s.createItem('/collection', token, { title }))._id;
}

const create = (token: string, body: Record<string, unknown>) => s.createItem('/bookmark', token, body);

async function row(id: number) {
  return (await s.sql('SELECT collection_id, removed FROM bookmarks WHERE id = ?', id))[0] as
    | { collection_id: number; removed: number }
    | undefined;
}

/** Rows a removed bookmark could leave behind (SQLite's full-text index is a table of its own; on PostgreSQL it goes with the row). */
async function leftovers(id: number) {
  const n = async (sql: string) => ((await s.sql(sql, id))[0] as { n: number }).n;
  return {
    highlights: await n('SELECT count(*) AS n FROM highlights WHERE bookmark_id = ?'),
    tags: await n('SELECT count(*) AS n FROM bookmark_tags WHERE bookmark_id = ?'),
    fts: onPostgres ? 0 : await n('SELECT count(*) AS n FROM bookmarks_fts WHERE rowid = ?'),
  };
}

describe('DELETE /bookmark/{id}', () => {
  it('first moves the bookmark to Trash (removed, -99), then removes it for good', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const item = await create(u.token, {
      link: 'https://trash.example/',
      collectionId: c,
      tags: ['t'],
      highlights: [{ text: 'quoted words' }],
    });
    const first = await s.api('DELETE', `/bookmark/${item._id}`, { token: u.token });
    expect(first.status).toBe(200);
    expect(first.body.result).toBe(true);
    expect(first.body.item).toMatchObject({
      _id: item._id,
      removed: true,
      collectionId: -99,
      collection: { $id: -99 },
      tags: ['t'],
    });
    expect(first.body.item.highlights).toHaveLength(1);
    expect(await row(item._id)).toEqual({ collection_id: -99, removed: 1 });
    // Still readable by its owner while in Trash.
    expect((await s.api('GET', `/bookmark/${item._id}`, { token: u.token })).body.item.removed).toBe(true);

    const second = await s.api('DELETE', `/bookmark/${item._id}`, { token: u.token });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ result: true });
    expect(await row(item._id)).toBeUndefined();
    expect(await leftovers(item._id)).toEqual({ highlights: 0, tags: 0, fts: 0 });

    const third = await s.api('DELETE', `/bookmark/${item._id}`, { token: u.token });
    expect(third.status).toBe(404);
    expect((await s.api('GET', `/bookmark/${item._id}`, { token: u.token })).status).toBe(404);
  });

  it('a bookmark in Trash is restored by moving it to a collection', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const item = await create(u.token, { link: 'https://restore.example/', collectionId: c });
    await s.api('DELETE', `/bookmark/${item._id}`, { token: u.token });
    const back = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { collection: { $id: c } } });
    expect(back.status).toBe(200);
    expect(back.body.item).toMatchObject({ collectionId: c, removed: false });
    expect(await row(item._id)).toEqual({ collection_id: c, removed: 0 });
  });

  it('PUT with collection -99 trashes the bookmark', async () => {
    const u = await s.createUser();
    const item = await create(u.token, { link: 'https://put-trash.example/' });
    const res = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { collection: { $id: -99 } } });
    expect(res.body.item).toMatchObject({ collectionId: -99, removed: true });
  });
});

describe('DELETE /bookmarks/{collectionId}', () => {
  it('moves matches to Trash; DELETE /bookmarks/-99 then removes them for good', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const res = await s.api('POST', '/bookmarks', {
      token: u.token,
      body: {
        items: [
          { link: 'https://b.example/1', collectionId: c, highlights: [{ text: 'one' }] },
          { link: 'https://b.example/2', collectionId: c },
          { link: 'https://b.example/3', collectionId: c },
        ],
      },
    });
    const ids = res.body.items.map((i: { _id: number }) => i._id);
    const toTrash = await s.api('DELETE', `/bookmarks/${c}`, { token: u.token, body: { ids: [ids[0], ids[1]] } });
    expect(toTrash.body).toEqual({ result: true, modified: 2 });
    expect(await row(ids[0])).toEqual({ collection_id: -99, removed: 1 });
    expect(await row(ids[2])).toEqual({ collection_id: c, removed: 0 });

    // Only what is in Trash goes for good, and only the listed ids.
    const partly = await s.api('DELETE', '/bookmarks/-99', { token: u.token, body: { ids: [ids[1], ids[2]] } });
    expect(partly.body).toEqual({ result: true, modified: 1 });
    expect(await row(ids[1])).toBeUndefined();
    expect(await row(ids[2])).toEqual({ collection_id: c, removed: 0 });

    const all = await s.api('DELETE', '/bookmarks/-99', { token: u.token });
    expect(all.body).toEqual({ result: true, modified: 1 });
    expect(await row(ids[0])).toBeUndefined();
    expect(await leftovers(ids[0])).toEqual({ highlights: 0, tags: 0, fts: 0 });
    expect((await s.api('DELETE', '/bookmarks/-99', { token: u.token })).body).toEqual({ result: true, modified: 0 });
  });

  it('emptying Trash never touches another user\'s Trash', async () => {
    const a = await s.createUser();
    const b = await s.createUser();
    const ia = await create(a.token, { link: 'https://a.example/' });
    const ib = await create(b.token, { link: 'https://b.example/' });
    await s.api('DELETE', `/bookmark/${ia._id}`, { token: a.token });
    await s.api('DELETE', `/bookmark/${ib._id}`, { token: b.token });
    const res = await s.api('DELETE', '/bookmarks/-99', { token: a.token });
    expect(res.body.modified).toBe(1);
    expect(await row(ib._id)).toEqual({ collection_id: -99, removed: 1 });
  });

  it('bulk move with collection -99 trashes, and moving out of -99 restores', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const item = await create(u.token, { link: 'https://bm.example/', collectionId: c });
    const out = await s.api('PUT', `/bookmarks/${c}`, { token: u.token, body: { collection: { $id: -99 } } });
    expect(out.body.modified).toBe(1);
    expect(await row(item._id)).toEqual({ collection_id: -99, removed: 1 });
    const back = await s.api('PUT', '/bookmarks/-99', { token: u.token, body: { ids: [item._id], collection: { $id: c } } });
    expect(back.body.modified).toBe(1);
    expect(await row(item._id)).toEqual({ collection_id: c, removed: 0 });
  });
});
