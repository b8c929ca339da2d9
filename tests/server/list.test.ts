import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /bookmarks/{collectionId}: sorts, paging, nested, system collections, access, query tolerance.

let s: TestServer;
let token: string;
let other: { id: number; token: string };

async function createCollection(title: string, extra: Record<string, unknown> = {}, who = token): Promise<number> {
  const res = await s.api('POST', '/collection', { token: who, body: { title, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.item._id;
}

async function create(items: Record<string, unknown>[], who = token): Promise<number[]> {
  const res = await s.api('POST', '/bookmarks', { token: who, body: { items } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((b: { _id: number }) => b._id);
}

async function list(path: string, who: string | null = token) {
  const res = await s.api('GET', path, { token: who });
  return res;
}
const idsOf = (res: { body: { items: { _id: number }[] } }) => res.body.items.map((b) => b._id);

let unsorted: number[]; // 60 bookmarks in Unsorted, created a minute apart
let sortColl: number;
let sorted: Record<string, number>;

beforeAll(async () => {
  s = await startServer();
  ({ token } = await s.createUser());
  other = await s.createUser();

  unsorted = await create(
    Array.from({ length: 60 }, (_, i) => ({
      link: `https://paging.example.com/item/${i}`,
      title: `Paging item ${i}${i % 3 === 0 ? ' triple' : ''}`,
      created: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
    })),
  );

  // One at a time, so each new bookmark goes first in the manual order: c, a, b.
  sortColl = await createCollection('Sorting');
  sorted = {};
  for (const { key, ...b } of [
    { key: 'b', link: 'https://mmm.example.org/b', title: 'banana', created: '2024-02-01T00:00:00Z', lastUpdate: '2024-06-01T00:00:00Z' },
    { key: 'a', link: 'https://zzz.example.org/a', title: 'Apple', created: '2024-03-01T00:00:00Z', lastUpdate: '2024-04-01T00:00:00Z' },
    { key: 'c', link: 'https://aaa.example.org/c', title: 'cherry', created: '2024-01-01T00:00:00Z', lastUpdate: '2024-05-01T00:00:00Z' },
  ]) {
    const res = await s.api('POST', '/bookmark', { token, body: { ...b, collection: { $id: sortColl } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    sorted[key] = res.body.item._id;
  }
});
afterAll(async () => s.close());

describe('sorting', () => {
  const order = async (sort: string) => {
    const res = await list(`/bookmarks/${sortColl}?sort=${encodeURIComponent(sort)}`);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(Object.entries(sorted).map(([k, v]) => [v, k]));
    return idsOf(res).map((i) => byId[i]).join('');
  };

  it('sorts by -created by default and for unknown or empty sorts', async () => {
    expect(await order('-created')).toBe('abc');
    expect((await list(`/bookmarks/${sortColl}`)).body.items.map((b: { title: string }) => b.title)).toEqual(['Apple', 'banana', 'cherry']);
    expect(await order('nonsense')).toBe('abc');
    expect(await order('')).toBe('abc');
    expect(await order('score')).toBe('abc'); // score without a search
    for (const odd of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'CREATED', ' -created', 'title;DROP']) {
      expect(await order(odd), odd).toBe('abc');
    }
  });

  it('sorts by created, title, -title, domain, -domain and -lastUpdate', async () => {
    expect(await order('created')).toBe('cba');
    expect(await order('title')).toBe('abc'); // case-insensitive
    expect(await order('-title')).toBe('cba');
    expect(await order('domain')).toBe('cba'); // aaa, mmm, zzz
    expect(await order('-domain')).toBe('abc');
    expect(await order('-lastUpdate')).toBe('bca');
  });

  it('sorts by the manual order with -sort, and in reverse with sort', async () => {
    // Created without `order`, each new bookmark went first: c, a, b.
    expect(await order('-sort')).toBe('cab');
    expect(await order('sort')).toBe('bac');
    const moved = await s.api('PUT', `/bookmark/${sorted.b}`, { token, body: { order: 0 } });
    expect(moved.status).toBe(200);
    expect(await order('-sort')).toBe('bca');
    expect(await order('sort')).toBe('acb');
  });

  it('sorts by relevance with sort=score and a search', async () => {
    const coll = await createCollection('Relevance');
    const [weak, strong, fav] = await create([
      { link: 'https://r.example.com/1', title: 'A note on gardening', excerpt: 'mentions tomatoes once', created: '2024-05-02T00:00:00Z', collectionId: coll },
      { link: 'https://r.example.com/2', title: 'Tomatoes tomatoes tomatoes', excerpt: 'all about tomatoes', created: '2024-05-01T00:00:00Z', collectionId: coll },
      { link: 'https://r.example.com/3', title: 'Favourite', important: true, created: '2024-05-03T00:00:00Z', collectionId: coll },
    ]);
    expect(idsOf(await list(`/bookmarks/${coll}?search=tomatoes`))).toEqual([weak, strong]);
    expect(idsOf(await list(`/bookmarks/${coll}?search=tomatoes&sort=score`))).toEqual([strong, weak]);
    // OR mode: text matches by relevance, then those matched only by other terms.
    const or = encodeURIComponent('tomatoes match:OR ❤️');
    expect(idsOf(await list(`/bookmarks/${coll}?search=${or}`))).toEqual([fav, weak, strong]);
    expect(idsOf(await list(`/bookmarks/${coll}?search=${or}&sort=score`))).toEqual([strong, weak, fav]);
  });
});

describe('paging', () => {
  it('answers 25 by default, newest first, with the total count', async () => {
    const res = await list('/bookmarks/-1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: true, count: 60, collectionId: -1 });
    expect(idsOf(res)).toEqual(unsorted.slice().reverse().slice(0, 25));
  });

  it('walks pages without overlap and answers items: [] past the end', async () => {
    const seen: number[] = [];
    for (let page = 0; page < 3; page++) {
      const res = await list(`/bookmarks/-1?perpage=25&page=${page}`);
      expect(res.body.count).toBe(60);
      seen.push(...idsOf(res));
    }
    expect(seen).toEqual(unsorted.slice().reverse());
    const past = await list('/bookmarks/-1?page=3');
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ result: true, items: [], count: 60 });
    expect((await list('/bookmarks/-1?page=1000000')).body.items).toEqual([]);
  });

  it('caps perpage at 50', async () => {
    const res = await list('/bookmarks/-1?perpage=100');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(50);
    expect((await list('/bookmarks/-1?perpage=100&page=1')).body.items).toHaveLength(10);
  });

  it('refuses a negative page with 400 naming the field', async () => {
    const res = await list('/bookmarks/-1?page=-1');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, status: 400 });
    expect(res.body.errorMessage).toMatch(/page/);
  });

  it('reads miscased perPage and pagesize, and ignores empty and unknown parameters', async () => {
    expect((await list('/bookmarks/-1?perPage=3')).body.items).toHaveLength(3);
    expect((await list('/bookmarks/-1?pagesize=4')).body.items).toHaveLength(4);
    const res = await list('/bookmarks/-1?sort=&search=&page=&perpage=&whatever=1');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(25);
    expect(res.body.count).toBe(60);
    const json = await s.api('GET', '/bookmarks/-1?perpage=1', { token, headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(200);
  });

  it('counts all matches of a search, not the page', async () => {
    const res = await list(`/bookmarks/-1?search=triple&perpage=5`);
    expect(res.body.count).toBe(20);
    expect(res.body.items).toHaveLength(5);
    const last = await list(`/bookmarks/-1?search=triple&perpage=5&page=3`);
    expect(last.body.items).toHaveLength(5);
    expect((await list(`/bookmarks/-1?search=triple&perpage=5&page=4`)).body).toMatchObject({ items: [], count: 20 });
  });
});

describe('collections', () => {
  it('lists a collection alone, or with all descendants when nested=true', async () => {
    const parent = await createCollection('Parent');
    const child = await createCollection('Child', { parent: { $id: parent } });
    const grandchild = await createCollection('Grandchild', { parent: { $id: child } });
    const sibling = await createCollection('Sibling');
    const [p, c, g, x] = await create([
      { link: 'https://n.example.com/p', collectionId: parent, created: '2024-01-04T00:00:00Z' },
      { link: 'https://n.example.com/c', collectionId: child, created: '2024-01-03T00:00:00Z' },
      { link: 'https://n.example.com/g', collectionId: grandchild, created: '2024-01-02T00:00:00Z' },
      { link: 'https://n.example.com/x', collectionId: sibling, created: '2024-01-01T00:00:00Z' },
    ]);
    expect(idsOf(await list(`/bookmarks/${parent}`))).toEqual([p]);
    const nested = await list(`/bookmarks/${parent}?nested=true`);
    expect(idsOf(nested)).toEqual([p, c, g]);
    expect(nested.body).toMatchObject({ count: 3, collectionId: parent });
    expect(idsOf(await list(`/bookmarks/${child}?nested=true`))).toEqual([c, g]);
    expect(idsOf(await list(`/bookmarks/${parent}?nested=false`))).toEqual([p]);
    expect(idsOf(await list(`/bookmarks/${parent}?nested=true&search=${encodeURIComponent('link:g')}`))).toEqual([g]);
    expect(idsOf(await list(`/bookmarks/${sibling}?nested=true`))).toEqual([x]);
  });

  it('0 holds everything but Trash, -1 Unsorted, -99 Trash', async () => {
    const u = await s.createUser();
    const coll = await createCollection('Mine', {}, u.token);
    const [inColl, inUnsorted, trashed] = await create(
      [
        { link: 'https://sys.example.com/1', collectionId: coll },
        { link: 'https://sys.example.com/2' },
        { link: 'https://sys.example.com/3' },
      ],
      u.token,
    );
    expect((await s.api('DELETE', `/bookmark/${trashed}`, { token: u.token })).status).toBe(200);
    const all = await list('/bookmarks/0', u.token);
    expect(all.body).toMatchObject({ count: 2, collectionId: 0 });
    expect(idsOf(all).sort()).toEqual([inColl, inUnsorted].sort());
    expect(idsOf(await list('/bookmarks/-1', u.token))).toEqual([inUnsorted]);
    const trash = await list('/bookmarks/-99', u.token);
    expect(idsOf(trash)).toEqual([trashed]);
    expect(trash.body.items[0]).toMatchObject({ removed: true, collectionId: -99 });
    expect(idsOf(await list('/bookmarks/0?search=sys', u.token))).toHaveLength(2);
    expect(idsOf(await list('/bookmarks/-99?search=sys', u.token))).toEqual([trashed]);
  });

  it('answers items in the bookmark shape', async () => {
    const res = await list(`/bookmarks/${sortColl}?perpage=1`);
    expect(Object.keys(res.body).sort()).toEqual(['collectionId', 'count', 'items', 'result']);
    expect(res.body.items[0]).toMatchObject({
      _id: expect.any(Number), link: expect.any(String), title: expect.any(String), tags: [], highlights: [],
      collection: { $id: sortColl }, collectionId: sortColl, domain: expect.any(String), removed: false,
      created: expect.any(String), lastUpdate: expect.any(String), sort: expect.any(Number), user: { $id: expect.any(Number) },
    });
  });
});

describe('access', () => {
  it('lists a public collection without a token, read only', async () => {
    const pub = await createCollection('Public reading', { public: true });
    const [b] = await create([{ link: 'https://pub.example.com/x', title: 'Open to all', collectionId: pub }]);
    const res = await list(`/bookmarks/${pub}`, null);
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([b]);
    expect((await list(`/bookmarks/${pub}?search=open`, null)).body.count).toBe(1);
    expect((await list(`/bookmarks/${pub}`, other.token)).status).toBe(200);
  });

  it('answers 401 without a token for private and system collections', async () => {
    const priv = await createCollection('Private');
    for (const path of [`/bookmarks/${priv}`, '/bookmarks/0', '/bookmarks/-1', '/bookmarks/-99']) {
      const res = await list(path, null);
      expect(res.status, path).toBe(401);
      expect(res.body).toMatchObject({ result: false, status: 401 });
    }
    expect((await list(`/bookmarks/${priv}`, 'not-a-token')).status).toBe(401);
  });

  it("answers 403 for another user's collection, 404 for an unknown one", async () => {
    const priv = await createCollection('Not yours');
    const res = await list(`/bookmarks/${priv}`, other.token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ result: false, status: 403 });
    expect((await list('/bookmarks/999999')).status).toBe(404);
    expect((await list('/bookmarks/-5')).status).toBe(404);
    expect((await list('/bookmarks/abc')).status).toBe(400);
  });

  it('lets a collaborator list a shared collection, and finds its bookmarks under 0 too', async () => {
    const owner = await s.createUser();
    const friend = await s.createUser();
    const shared = await createCollection('Shared trip', {}, owner.token);
    const sub = await createCollection('Day one', { parent: { $id: shared } }, owner.token);
    const [a, b] = await create(
      [
        { link: 'https://share.example.com/a', title: 'Mountain hut', collectionId: shared, created: '2024-01-02T00:00:00Z' },
        { link: 'https://share.example.com/b', title: 'Mountain lake', collectionId: sub, created: '2024-01-01T00:00:00Z' },
      ],
      owner.token,
    );
    const [own] = await create([{ link: 'https://share.example.com/own', title: 'My mountain', created: '2024-01-03T00:00:00Z' }], friend.token);
    expect((await list(`/bookmarks/${shared}`, friend.token)).status).toBe(403);
    await s.app.repos.sharing.setRole(shared, friend.id, 'viewer', owner.id);
    expect(idsOf(await list(`/bookmarks/${shared}`, friend.token))).toEqual([a]);
    expect(idsOf(await list(`/bookmarks/${shared}?nested=true`, friend.token))).toEqual([a, b]);
    const all = await list(`/bookmarks/0?search=mountain`, friend.token);
    expect(idsOf(all)).toEqual([own, a, b]);
    expect(all.body.count).toBe(3);
    // The owner's own "all" is unchanged, and Unsorted stays personal.
    expect(idsOf(await list(`/bookmarks/0?search=mountain`, owner.token))).toEqual([a, b]);
    expect(idsOf(await list('/bookmarks/-1', friend.token))).toEqual([own]);
  });

  it("never shows another user's bookmarks in their own system collections", async () => {
    const res = await list('/bookmarks/0?perpage=50', other.token);
    expect(res.body.count).toBe(0);
    expect((await list('/bookmarks/-1', other.token)).body.items).toEqual([]);
  });
});
