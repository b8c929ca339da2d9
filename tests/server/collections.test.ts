// Collections API over real HTTP: create, read, update, move, list, counts, removal with
// descendants, Trash, public access, permissions and input validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startServer, TestClock, type TestServer } from '../helpers/server.js';

let s: TestServer;
const clock = new TestClock();

type User = { id: number; token: string };
let seq = 0;

/** Adds a bookmark to a collection through POST /bookmark. */
async function addBookmark(srv: TestServer, token: string, collectionId: number): Promise<number> {
  ++seq;
  return (await srv.createItem('/bookmark', token, { link: `https://example.com/page-${seq}`, title: `Page ${seq}`, collection: { $id: collectionId } }))._id;
}

const create = (user: User, body: Record<string, unknown>) => s.createItem<{ _id: number; [k: string]: any }>('/collection', user.token, body);

async function get(user: User | null, id: number) {
  return s.api('GET', `/collection/${id}`, { token: user?.token ?? null });
}

async function roots(user: User) {
  const res = await s.api('GET', '/collections', { token: user.token });
  expect(res.status).toBe(200);
  return res.body.items as any[];
}

async function childrens(user: User) {
  const res = await s.api('GET', '/collections/childrens', { token: user.token });
  expect(res.status).toBe(200);
  return res.body.items as any[];
}

async function bookmarkRow(id: number) {
  return (await s.sql('SELECT collection_id, removed, last_update FROM bookmarks WHERE id = ?', id))[0] as
    | { collection_id: number; removed: number; last_update: string }
    | undefined;
}

beforeAll(async () => {
  s = await startServer({ clock });
});
afterAll(async () => s.close());

describe('create and read', () => {
  it('creates a root collection with every field of the record and reads it back', async () => {
    const u = await s.createUser();
    const item = await create(u, { title: 'Reading list' });
    expect(item).toEqual({
      _id: expect.any(Number),
      access: { level: 4, draggable: true },
      count: 0,
      cover: [],
      created: new Date(clock.now()).toISOString(),
      expanded: true,
      lastUpdate: new Date(clock.now()).toISOString(),
      public: false,
      sort: expect.any(Number),
      title: 'Reading list',
      user: { $id: u.id },
      view: 'list',
    });
    expect(item).not.toHaveProperty('parent');
    expect(item).not.toHaveProperty('collaborators');
    const res = await get(u, item._id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, item });
  });

  it('stores the optional fields sent on create', async () => {
    const u = await s.createUser();
    const item = await create(u, {
      title: 'Recipes',
      view: 'grid',
      sort: 42,
      public: true,
      expanded: false,
      color: '#ff8800',
      cover: ['https://img.example/c.png'],
      somethingNew: 'tolerated',
    });
    expect(item).toMatchObject({ title: 'Recipes', view: 'grid', sort: 42, public: true, expanded: false, color: '#ff8800' });
    expect(item.cover).toEqual(['https://img.example/c.png']);
    expect((await get(u, item._id)).body.item).toEqual(item);
  });

  it('nests a collection under a parent and lists roots and children apart', async () => {
    const u = await s.createUser();
    const a = await create(u, { title: 'A' });
    const b = await create(u, { title: 'B', parent: { $id: a._id } });
    const c = await create(u, { title: 'C', parent: { $id: b._id } });
    const root = await create(u, { title: 'Root by empty parent', parent: {} });
    const rootNull = await create(u, { title: 'Root by null parent', parent: null });
    expect(b.parent).toEqual({ $id: a._id });
    expect(c.parent).toEqual({ $id: b._id });
    expect(root).not.toHaveProperty('parent');
    expect((await roots(u)).map((x) => x._id).sort()).toEqual([a._id, root._id, rootNull._id].sort());
    const kids = await childrens(u);
    expect(kids.map((x) => x._id).sort()).toEqual([b._id, c._id].sort());
    expect(kids.every((k) => k.parent.$id > 0)).toBe(true);
  });

  it('lists by sort descending, and a new collection comes first among its siblings', async () => {
    const u = await s.createUser();
    const first = await create(u, { title: 'first' });
    const second = await create(u, { title: 'second' });
    const third = await create(u, { title: 'third' });
    expect(second.sort).toBeGreaterThan(first.sort);
    expect((await roots(u)).map((x) => x.title)).toEqual(['third', 'second', 'first']);
    // An explicit sort places it; the list follows sort descending.
    await s.api('PUT', `/collection/${first._id}`, { token: u.token, body: { sort: third.sort + 10 } });
    expect((await roots(u)).map((x) => x.title)).toEqual(['first', 'third', 'second']);
    // Siblings under a parent are numbered on their own.
    const kid1 = await create(u, { title: 'kid1', parent: { $id: second._id } });
    const kid2 = await create(u, { title: 'kid2', parent: { $id: second._id } });
    expect(kid2.sort).toBe(kid1.sort + 1);
    expect((await childrens(u)).map((x) => x.title)).toEqual(['kid2', 'kid1']);
  });

  it('shows only the caller’s own collections in the lists', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    await create(other, { title: 'not yours' });
    const mine = await create(u, { title: 'mine' });
    expect((await roots(u)).map((x) => x._id)).toEqual([mine._id]);
    expect(await childrens(u)).toEqual([]);
  });
});

describe('update and move', () => {
  it('changes the fields sent and keeps the others, moving lastUpdate', async () => {
    const u = await s.createUser();
    const item = await create(u, { title: 'Old', color: '#123456', view: 'list' });
    clock.advance(60_000);
    const res = await s.api('PUT', `/collection/${item._id}`, {
      token: u.token,
      body: { title: 'New', view: 'masonry', expanded: false, cover: ['https://img.example/x.jpg'], public: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({
      _id: item._id,
      title: 'New',
      view: 'masonry',
      expanded: false,
      public: true,
      color: '#123456',
      cover: ['https://img.example/x.jpg'],
      created: item.created,
      lastUpdate: new Date(clock.now()).toISOString(),
    });
    expect((await get(u, item._id)).body.item).toEqual(res.body.item);
    const cleared = await s.api('PUT', `/collection/${item._id}`, { token: u.token, body: { color: null } });
    expect(cleared.body.item).not.toHaveProperty('color');
  });

  it('moves a collection under another, back to the root with null or {}', async () => {
    const u = await s.createUser();
    const a = await create(u, { title: 'A' });
    const b = await create(u, { title: 'B' });
    const kid = await create(u, { title: 'kid', parent: { $id: a._id } });
    const already = await create(u, { title: 'older sibling', parent: { $id: b._id } });
    let res = await s.api('PUT', `/collection/${kid._id}`, { token: u.token, body: { parent: { $id: b._id } } });
    expect(res.status).toBe(200);
    expect(res.body.item.parent).toEqual({ $id: b._id });
    // Moved in without a sort: first among its new siblings.
    expect(res.body.item.sort).toBeGreaterThan(already.sort);
    res = await s.api('PUT', `/collection/${kid._id}`, { token: u.token, body: { parent: null } });
    expect(res.body.item).not.toHaveProperty('parent');
    expect((await roots(u)).map((x) => x._id)).toContain(kid._id);
    await s.api('PUT', `/collection/${kid._id}`, { token: u.token, body: { parent: { $id: a._id } } });
    res = await s.api('PUT', `/collection/${kid._id}`, { token: u.token, body: { parent: {} } });
    expect(res.body.item).not.toHaveProperty('parent');
    expect((await childrens(u)).map((x) => x._id)).toEqual([already._id]);
  });

  it('refuses to move a collection into itself or one of its descendants', async () => {
    const u = await s.createUser();
    const a = await create(u, { title: 'A' });
    const b = await create(u, { title: 'B', parent: { $id: a._id } });
    const c = await create(u, { title: 'C', parent: { $id: b._id } });
    for (const target of [a._id, b._id, c._id]) {
      const res = await s.api('PUT', `/collection/${a._id}`, { token: u.token, body: { parent: { $id: target } } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: false,
        status: 400,
        errorMessage: 'cannot move a collection into itself or one of its descendants',
      });
    }
    expect((await get(u, a._id)).body.item).not.toHaveProperty('parent');
    expect((await get(u, b._id)).body.item.parent).toEqual({ $id: a._id });
  });

  it('only moves into the caller’s own collections', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const mine = await create(u, { title: 'mine' });
    const theirs = await create(other, { title: 'theirs' });
    let res = await s.api('PUT', `/collection/${mine._id}`, { token: u.token, body: { parent: { $id: theirs._id } } });
    expect(res.status).toBe(403);
    res = await s.api('PUT', `/collection/${mine._id}`, { token: u.token, body: { parent: { $id: 987654 } } });
    expect(res.status).toBe(404);
    res = await s.api('POST', '/collection', { token: u.token, body: { title: 'x', parent: { $id: theirs._id } } });
    expect(res.status).toBe(403);
    expect((await roots(other)).map((x) => x._id)).toEqual([theirs._id]);
    expect((await get(u, mine._id)).body.item).not.toHaveProperty('parent');
  });
});

describe('counts', () => {
  it('counts the bookmarks directly in each collection, in the record and in both lists', async () => {
    const u = await s.createUser();
    const a = await create(u, { title: 'A' });
    const b = await create(u, { title: 'B', parent: { $id: a._id } });
    for (let i = 0; i < 3; i++) await addBookmark(s, u.token, a._id);
    for (let i = 0; i < 2; i++) await addBookmark(s, u.token, b._id);
    await addBookmark(s, u.token, -1);
    expect((await get(u, a._id)).body.item.count).toBe(3);
    expect((await get(u, b._id)).body.item.count).toBe(2);
    expect((await roots(u)).find((x) => x._id === a._id).count).toBe(3);
    expect((await childrens(u)).find((x) => x._id === b._id).count).toBe(2);
  });

  it('stops counting a bookmark once it is removed', async () => {
    const u = await s.createUser();
    const a = await create(u, { title: 'A' });
    const ids = [await addBookmark(s, u.token, a._id), await addBookmark(s, u.token, a._id)];
    expect((await s.api('DELETE', `/bookmark/${ids[0]}`, { token: u.token })).status).toBe(200);
    expect((await get(u, a._id)).body.item.count).toBe(1);
  });
});

describe('remove', () => {
  it('removes a collection with all its descendants and sends their bookmarks to Trash', async () => {
    const u = await s.createUser();
    const a = await create(u, { title: 'A' });
    const b = await create(u, { title: 'B', parent: { $id: a._id } });
    const c = await create(u, { title: 'C', parent: { $id: b._id } });
    const keep = await create(u, { title: 'Keep' });
    const inA = await addBookmark(s, u.token, a._id);
    const inC = [await addBookmark(s, u.token, c._id), await addBookmark(s, u.token, c._id)];
    const inKeep = await addBookmark(s, u.token, keep._id);
    clock.advance(5_000);
    const res = await s.api('DELETE', `/collection/${a._id}`, { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true });
    for (const id of [a._id, b._id, c._id]) {
      const gone = await get(u, id);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ result: false, status: 404, errorMessage: 'Not found' });
    }
    for (const id of [inA, ...inC]) {
      expect(await bookmarkRow(id)).toEqual({ collection_id: -99, removed: 1, last_update: new Date(clock.now()).toISOString() });
    }
    expect(await bookmarkRow(inKeep)).toMatchObject({ collection_id: keep._id, removed: 0 });
    expect((await roots(u)).map((x) => ({ id: x._id, count: x.count }))).toEqual([{ id: keep._id, count: 1 }]);
    expect(await childrens(u)).toEqual([]);
  });

  it('does not let another user remove, change or read a private collection', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const item = await create(u, { title: 'private' });
    expect((await s.api('DELETE', `/collection/${item._id}`, { token: other.token })).status).toBe(403);
    expect((await s.api('PUT', `/collection/${item._id}`, { token: other.token, body: { title: 'x' } })).status).toBe(403);
    const read = await get(other, item._id);
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ result: false, status: 403 });
    expect((await get(u, item._id)).body.item.title).toBe('private');
  });

  it('empties Trash for good, only the caller’s, and says how many bookmarks went', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const a = await create(u, { title: 'A' });
    const ids = [await addBookmark(s, u.token, a._id), await addBookmark(s, u.token, a._id)];
    expect((await s.api('PUT', `/bookmark/${ids[0]}`, { token: u.token, body: { highlights: [{ text: 'quote' }] } })).status).toBe(200);
    const otherCol = await create(other, { title: 'theirs' });
    const theirs = await addBookmark(s, other.token, otherCol._id);
    await s.api('DELETE', `/collection/${otherCol._id}`, { token: other.token });
    await s.api('DELETE', `/collection/${a._id}`, { token: u.token });
    expect((await bookmarkRow(ids[0]))?.collection_id).toBe(-99);

    const res = await s.api('DELETE', '/collection/-99', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, modified: 2 });
    for (const id of ids) expect(await bookmarkRow(id)).toBeUndefined();
    expect(await s.sql('SELECT count(*) AS n FROM highlights WHERE bookmark_id = ?', ids[0])).toEqual([{ n: 0 }]);
    // SQLite keeps the full-text index in a table of its own (on PostgreSQL it is a column of the row).
    if (!onPostgres) expect(await s.sql('SELECT rowid FROM bookmarks_fts WHERE rowid IN (?, ?)', ids[0], ids[1])).toEqual([]);
    expect((await bookmarkRow(theirs))?.collection_id).toBe(-99);
    expect((await s.api('DELETE', '/collection/-99', { token: u.token })).body).toEqual({ result: true, modified: 0 });
  });

  it('refuses to remove the other system collections', async () => {
    const u = await s.createUser();
    for (const id of [0, -1]) {
      const res = await s.api('DELETE', `/collection/${id}`, { token: u.token });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/system collection/);
    }
  });

  it('removes every collection of a user removed from the service', async () => {
    const u = await s.createUser();
    const a = await create(u, { title: 'A' });
    await create(u, { title: 'B', parent: { $id: a._id } });
    await s.sql('DELETE FROM users WHERE id = ?', u.id);
    expect(await s.sql('SELECT count(*) AS n FROM collections WHERE user_id = ?', u.id)).toEqual([{ n: 0 }]);
  });
});

describe('public collections and access', () => {
  it('lets anyone read a public collection without a token, read-only', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const pub = await create(u, { title: 'Shared reading', public: true });
    const anon = await get(null, pub._id);
    expect(anon.status).toBe(200);
    expect(anon.body.item).toMatchObject({ _id: pub._id, title: 'Shared reading', public: true, access: { level: 1, draggable: false } });
    const viaOther = await get(other, pub._id);
    expect(viaOther.status).toBe(200);
    expect((await s.api('PUT', `/collection/${pub._id}`, { token: other.token, body: { title: 'mine now' } })).status).toBe(403);
    expect((await s.api('PUT', `/collection/${pub._id}`, { token: null, body: { title: 'mine now' } })).status).toBe(401);
    expect((await s.api('DELETE', `/collection/${pub._id}`, { token: null })).status).toBe(401);
    // Made private again, it is closed to others.
    await s.api('PUT', `/collection/${pub._id}`, { token: u.token, body: { public: false } });
    expect((await get(null, pub._id)).status).toBe(401);
    expect((await get(other, pub._id)).status).toBe(403);
  });

  it('answers 401 to an anonymous read of a private collection and 404 to unknown ids', async () => {
    const u = await s.createUser();
    const item = await create(u, { title: 'private' });
    const res = await get(null, item._id);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: false, status: 401 });
    expect((await s.api('GET', `/collection/${item._id}`, { token: 'not-a-token' })).status).toBe(401);
    expect((await s.api('GET', '/collections', { token: null })).status).toBe(401);
    for (const id of [999999, -5]) {
      const missing = await get(u, id);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ result: false, status: 404, errorMessage: 'Not found' });
    }
    expect((await s.api('PUT', '/collection/999999', { token: u.token, body: { title: 'x' } })).status).toBe(404);
    expect((await s.api('DELETE', '/collection/999999', { token: u.token })).status).toBe(404);
  });

  it('has no record for system collections', async () => {
    const u = await s.createUser();
    for (const id of [0, -1, -99]) {
      expect((await get(u, id)).status).toBe(400);
      expect((await s.api('PUT', `/collection/${id}`, { token: u.token, body: { title: 'x' } })).status).toBe(400);
    }
    expect((await get(null, -99)).status).toBe(401);
  });
});

describe('input validation', () => {
  it('requires a title of 1 to 500 characters', async () => {
    const u = await s.createUser();
    let res = await s.api('POST', '/collection', { token: u.token, body: { view: 'list' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, status: 400 });
    expect(res.body.errorMessage).toMatch(/title.*required/);
    res = await s.api('POST', '/collection', { token: u.token, body: { title: 'x'.repeat(501) } });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/body\.title/);
    res = await s.api('POST', '/collection', { token: u.token, body: { title: '' } });
    expect(res.status).toBe(400);
    res = await s.api('POST', '/collection', { token: u.token, body: { title: '   ' } });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/title/);
    expect((await create(u, { title: 'x'.repeat(500) })).title).toHaveLength(500);
    res = await s.api('PUT', '/collection/1', { token: u.token, body: { title: 'x'.repeat(501) } });
    expect(res.status).toBe(400);
    expect(await roots(u)).toHaveLength(1);
  });

  it('names the field that has the wrong type', async () => {
    const u = await s.createUser();
    const item = await create(u, { title: 'ok' });
    const cases: [string, Record<string, unknown>][] = [
      ['title', { title: 5 }],
      ['public', { title: 'x', public: 'yes' }],
      ['expanded', { title: 'x', expanded: 1 }],
      ['sort', { title: 'x', sort: 'high' }],
      ['cover', { title: 'x', cover: 'https://img.example/a.png' }],
      ['color', { title: 'x', color: 'not a colour' }],
      ['parent', { title: 'x', parent: { $id: 'abc' } }],
      ['parent', { title: 'x', parent: { $id: -1 } }],
    ];
    for (const [field, body] of cases) {
      for (const [method, path] of [['POST', '/collection'], ['PUT', `/collection/${item._id}`]]) {
        const res = await s.api(method, path, { token: u.token, body });
        expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body.errorMessage).toContain(`body.${field}`);
      }
    }
    expect((await get(u, item._id)).body.item.title).toBe('ok');
  });

  it('rejects a body that is not JSON and a non-numeric id', async () => {
    const u = await s.createUser();
    const res = await s.api('POST', '/collection', {
      token: u.token,
      rawBody: '{"title": "broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, status: 400, errorMessage: expect.stringMatching(/JSON/) });
    const bad = await s.api('GET', '/collection/abc', { token: u.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/params\.id/);
  });
});
