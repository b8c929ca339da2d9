// Operations on many collections over real HTTP: remove many, reorder all, expand or collapse all,
// merge and clean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

type User = { id: number; token: string };
let seq = 0;

/** Adds a bookmark to a collection through POST /bookmark. */
async function addBookmark(srv: TestServer, token: string, collectionId: number): Promise<number> {
  return (await srv.createItem('/bookmark', token, { link: `https://example.org/item-${++seq}`, collection: { $id: collectionId } }))._id;
}

async function create(user: User, title: string, parent?: number) {
  const res = await s.api('POST', '/collection', {
    token: user.token,
    body: parent === undefined ? { title } : { title, parent: { $id: parent } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.item._id as number;
}

/** The caller's whole tree as `title(count)` lines by parent, in listing order. */
async function tree(user: User) {
  const rootsRes = await s.api('GET', '/collections', { token: user.token });
  const kidsRes = await s.api('GET', '/collections/childrens', { token: user.token });
  expect(rootsRes.status).toBe(200);
  expect(kidsRes.status).toBe(200);
  const all = [...rootsRes.body.items, ...kidsRes.body.items] as any[];
  const byId = new Map(all.map((c) => [c._id, c]));
  const under = (parent: number | undefined): string[] =>
    all.filter((c) => c.parent?.$id === parent).map((c) => `${c.title}(${c.count})`);
  const out: Record<string, string[]> = { root: under(undefined) };
  for (const c of all) {
    const kids = under(c._id);
    if (kids.length) out[c.title] = kids;
  }
  return { out, byId, all };
}

async function bookmarkAt(id: number) {
  return (await s.sql('SELECT collection_id, removed FROM bookmarks WHERE id = ?', id))[0] as
    | { collection_id: number; removed: number }
    | undefined;
}

beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

describe('DELETE /collections', () => {
  it('removes the listed collections and keeps unlisted nested ones, moving them up', async () => {
    const u = await s.createUser();
    const a = await create(u, 'A');
    const b = await create(u, 'B', a); // listed
    const c = await create(u, 'C', b); // not listed: its parent B and grandparent... A survives
    const d = await create(u, 'D'); // listed root
    const e = await create(u, 'E', d); // not listed, no surviving ancestor: becomes a root
    const f = await create(u, 'F', d); // listed along with its parent
    const inB = await addBookmark(s, u.token, b);
    const inC = await addBookmark(s, u.token, c);
    const inF = await addBookmark(s, u.token, f);
    const res = await s.api('DELETE', '/collections', { token: u.token, body: { ids: [b, d, f] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, modified: 3 });
    const { out, byId } = await tree(u);
    expect([...byId.keys()].sort()).toEqual([a, c, e].sort());
    expect(byId.get(c).parent).toEqual({ $id: a });
    expect(byId.get(e)).not.toHaveProperty('parent');
    expect(out.A).toEqual(['C(1)']);
    expect(await bookmarkAt(inB)).toEqual({ collection_id: -99, removed: 1 });
    expect(await bookmarkAt(inF)).toEqual({ collection_id: -99, removed: 1 });
    expect(await bookmarkAt(inC)).toEqual({ collection_id: c, removed: 0 });
  });

  it('answers 413 for an empty list or more than 100 ids', async () => {
    const u = await s.createUser();
    const a = await create(u, 'A');
    for (const ids of [[], Array.from({ length: 101 }, (_, i) => a + i)]) {
      const res = await s.api('DELETE', '/collections', { token: u.token, body: { ids } });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ result: false, status: 413, errorMessage: 'ids array is larger than max 100 or empty' });
    }
    const missing = await s.api('DELETE', '/collections', { token: u.token });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toMatch(/body\.ids/);
    expect((await tree(u)).all).toHaveLength(1);
  });

  it('removes nothing when one id is another user’s or unknown', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const mine = await create(u, 'mine');
    const theirs = await create(other, 'theirs');
    let res = await s.api('DELETE', '/collections', { token: u.token, body: { ids: [mine, theirs] } });
    expect(res.status).toBe(403);
    res = await s.api('DELETE', '/collections', { token: u.token, body: { ids: [mine, 99999999] } });
    expect(res.status).toBe(404);
    res = await s.api('DELETE', '/collections', { token: u.token, body: { ids: [mine, -1] } });
    expect(res.status).toBe(400);
    res = await s.api('DELETE', '/collections', { token: u.token, body: { ids: ['x'] } });
    expect(res.status).toBe(400);
    expect((await tree(u)).all.map((c) => c._id)).toEqual([mine]);
    expect((await tree(other)).all.map((c) => c._id)).toEqual([theirs]);
  });
});

describe('PUT /collections', () => {
  async function sortedTree(u: User) {
    const { out } = await tree(u);
    const strip = (xs: string[]) => xs.map((x) => x.replace(/\(\d+\)$/, ''));
    return { root: strip(out.root), Fruit: strip(out.Fruit) };
  }

  it('reorders every sibling group by title, reverse title and bookmark count', async () => {
    const u = await s.createUser();
    const fruit = await create(u, 'Fruit');
    const zoo = await create(u, 'zoo');
    await create(u, 'apple');
    const cherry = await create(u, 'cherry', fruit);
    await create(u, 'Banana', fruit);
    const apricot = await create(u, 'apricot', fruit);
    for (let i = 0; i < 3; i++) await addBookmark(s, u.token, zoo);
    await addBookmark(s, u.token, fruit);
    for (let i = 0; i < 2; i++) await addBookmark(s, u.token, cherry);
    await addBookmark(s, u.token, apricot);

    const res = await s.api('PUT', '/collections', { token: u.token, body: { sort: 'title' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true });
    expect(await sortedTree(u)).toEqual({ root: ['apple', 'Fruit', 'zoo'], Fruit: ['apricot', 'Banana', 'cherry'] });

    await s.api('PUT', '/collections', { token: u.token, body: { sort: '-title' } });
    expect(await sortedTree(u)).toEqual({ root: ['zoo', 'Fruit', 'apple'], Fruit: ['cherry', 'Banana', 'apricot'] });

    await s.api('PUT', '/collections', { token: u.token, body: { sort: '-count' } });
    expect(await sortedTree(u)).toEqual({ root: ['zoo', 'Fruit', 'apple'], Fruit: ['cherry', 'apricot', 'Banana'] });

    // A collection created afterwards still comes first.
    await create(u, 'newest');
    expect((await sortedTree(u)).root[0]).toBe('newest');
  });

  it('rejects an unknown sort, naming the allowed values', async () => {
    const u = await s.createUser();
    const res = await s.api('PUT', '/collections', { token: u.token, body: { sort: 'count' } });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toBe('body.sort must be one of title, -title, -count');
    const none = await s.api('PUT', '/collections', { token: u.token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.errorMessage).toMatch(/sort.*expanded/);
  });

  it('expands or collapses all, from the body or the query', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const a = await create(u, 'A');
    await create(u, 'B', a);
    const theirs = await create(other, 'theirs');
    const expandedAll = async (user: User) => (await tree(user)).all.map((c) => c.expanded);

    let res = await s.api('PUT', '/collections', { token: u.token, body: { expanded: false } });
    expect(res.status).toBe(200);
    expect(await expandedAll(u)).toEqual([false, false]);
    res = await s.api('PUT', '/collections?expanded=true', { token: u.token });
    expect(res.status).toBe(200);
    expect(await expandedAll(u)).toEqual([true, true]);
    await s.api('PUT', '/collections?expanded=false', { token: u.token });
    expect(await expandedAll(u)).toEqual([false, false]);
    expect((await s.api('GET', `/collection/${theirs}`, { token: other.token })).body.item.expanded).toBe(true);
    expect((await s.api('PUT', '/collections?expanded=maybe', { token: u.token })).status).toBe(400);
  });
});

describe('PUT /collections/merge', () => {
  it('moves bookmarks and child collections into the target and removes the merged ones', async () => {
    const u = await s.createUser();
    const to = await create(u, 'Target');
    await create(u, 'existing child', to);
    const a = await create(u, 'A');
    const aKid = await create(u, 'A kid', a);
    const b = await create(u, 'B');
    const bookmarks = [await addBookmark(s, u.token, a), await addBookmark(s, u.token, a), await addBookmark(s, u.token, b)];
    const inKid = await addBookmark(s, u.token, aKid);
    await addBookmark(s, u.token, to);

    const res = await s.api('PUT', '/collections/merge', { token: u.token, body: { to, ids: [a, b] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, modified: 3 });
    const { out, byId } = await tree(u);
    expect(out.root).toEqual(['Target(4)']);
    expect(out.Target).toEqual(['existing child(0)', 'A kid(1)']);
    expect(byId.has(a)).toBe(false);
    expect(byId.has(b)).toBe(false);
    for (const id of bookmarks) expect(await bookmarkAt(id)).toEqual({ collection_id: to, removed: 0 });
    expect(await bookmarkAt(inKid)).toEqual({ collection_id: aKid, removed: 0 });
  });

  it('merges into Unsorted (-1), child collections becoming roots', async () => {
    const u = await s.createUser();
    const a = await create(u, 'A');
    const kid = await create(u, 'kid', a);
    const bm = await addBookmark(s, u.token, a);
    const res = await s.api('PUT', '/collections/merge', { token: u.token, body: { to: -1, ids: [a] } });
    expect(res.body).toEqual({ result: true, modified: 1 });
    expect(await bookmarkAt(bm)).toEqual({ collection_id: -1, removed: 0 });
    const { byId } = await tree(u);
    expect([...byId.keys()]).toEqual([kid]);
    expect(byId.get(kid)).not.toHaveProperty('parent');
  });

  it('refuses a target among or inside the merged collections, foreign ids and bad sizes', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const a = await create(u, 'A');
    const kid = await create(u, 'kid', a);
    const b = await create(u, 'B');
    const theirs = await create(other, 'theirs');
    const bm = await addBookmark(s, u.token, a);
    const tryMerge = (body: unknown) => s.api('PUT', '/collections/merge', { token: u.token, body });

    let res = await tryMerge({ to: a, ids: [a, b] });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/body\.to/);
    res = await tryMerge({ to: kid, ids: [a] });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/inside/);
    expect((await tryMerge({ to: theirs, ids: [a] })).status).toBe(403);
    expect((await tryMerge({ to: b, ids: [theirs] })).status).toBe(403);
    expect((await tryMerge({ to: b, ids: [a, 9999999] })).status).toBe(404);
    expect((await tryMerge({ to: -99, ids: [a] })).status).toBe(400);
    expect((await tryMerge({ to: b, ids: [] })).status).toBe(413);
    expect((await tryMerge({ to: b, ids: Array.from({ length: 101 }, (_, i) => i + 1) })).status).toBe(413);
    expect((await tryMerge({ ids: [a] })).body.errorMessage).toMatch(/body\.to is required/);
    expect((await tree(u)).all).toHaveLength(3);
    expect(await bookmarkAt(bm)).toEqual({ collection_id: a, removed: 0 });
  });
});

describe('PUT /collections/clean', () => {
  it('removes collections with no bookmarks anywhere below them and says how many', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    const full = await create(u, 'full');
    await addBookmark(s, u.token, full);
    const holder = await create(u, 'holder'); // empty itself, but a grandchild has a bookmark
    const mid = await create(u, 'mid', holder);
    const leaf = await create(u, 'leaf', mid);
    await addBookmark(s, u.token, leaf);
    await create(u, 'empty sibling', mid);
    const emptyTop = await create(u, 'empty top');
    const emptyKid = await create(u, 'empty kid', emptyTop);
    await create(u, 'empty grandkid', emptyKid);
    const otherEmpty = await create(other, 'their empty');

    const res = await s.api('PUT', '/collections/clean', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, count: 4 });
    const { out } = await tree(u);
    expect(out).toEqual({ root: ['holder(0)', 'full(1)'], holder: ['mid(0)'], mid: ['leaf(1)'] });
    expect((await s.api('GET', `/collection/${otherEmpty}`, { token: other.token })).status).toBe(200);
    expect((await s.api('PUT', '/collections/clean', { token: u.token })).body).toEqual({ result: true, count: 0 });
  });
});
