import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

// Tags: GET /tags[/{collectionId}], PUT (rename, merge), DELETE, GET /tags/suggest/{bookmarkId}.

let s: TestServer;
const clock = new TestClock();

beforeAll(async () => {
  s = await startServer({ clock, rateLimit: { perMinute: 10_000, smallPerMinute: 5_000 } });
});
afterAll(async () => s.close());

interface Fixture {
  token: string;
  coll: number;
  ids: Record<string, number>;
}

/** A fresh user with: a (coll) [js, Web, programming], b (coll) [web], c (Unsorted) [js, later], t (Trash) [js, trashy]. */
async function fixture(): Promise<Fixture> {
  const { token } = await s.createUser();
  const coll = (await s.api('POST', '/collection', { token, body: { title: 'Dev' } })).body.item._id;
  const res = await s.api('POST', '/bookmarks', {
    token,
    body: {
      items: [
        { link: 'https://t.example.com/a', title: 'A', tags: ['js', 'Web', 'programming'], collectionId: coll },
        { link: 'https://t.example.com/b', title: 'B', tags: ['web'], collectionId: coll },
        { link: 'https://t.example.com/c', title: 'C', tags: ['js', 'later'] },
        { link: 'https://t.example.com/t', title: 'T', tags: ['js', 'trashy'] },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [a, b, c, t] = res.body.items.map((i: { _id: number }) => i._id);
  expect((await s.api('DELETE', `/bookmark/${t}`, { token })).status).toBe(200);
  return { token, coll, ids: { a, b, c, t } };
}

const tagsOf = async (f: Fixture, key: string): Promise<string[]> =>
  (await s.api('GET', `/bookmark/${f.ids[key]}`, { token: f.token })).body.item.tags;
const searchIds = async (f: Fixture, expr: string, coll = 0): Promise<number[]> =>
  (await s.api('GET', `/bookmarks/${coll}?search=${encodeURIComponent(expr)}`, { token: f.token })).body.items
    .map((b: { _id: number }) => b._id)
    .sort();

describe('GET /tags', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });

  it('lists tags with counts, sorted by name, Trash left out, case variants as one', async () => {
    const res = await s.api('GET', '/tags', { token: f.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: true,
      items: [
        { _id: 'js', count: 2 },
        { _id: 'later', count: 1 },
        { _id: 'programming', count: 1 },
        { _id: expect.stringMatching(/^[Ww]eb$/), count: 2 },
      ],
    });
    expect((await s.api('GET', '/tags/0', { token: f.token })).body.items).toEqual(res.body.items);
  });

  it('lists the tags of one collection, Unsorted or Trash', async () => {
    expect((await s.api('GET', `/tags/${f.coll}`, { token: f.token })).body.items).toEqual([
      { _id: 'js', count: 1 },
      { _id: 'programming', count: 1 },
      { _id: expect.stringMatching(/^[Ww]eb$/), count: 2 },
    ]);
    expect((await s.api('GET', '/tags/-1', { token: f.token })).body.items).toEqual([
      { _id: 'js', count: 1 },
      { _id: 'later', count: 1 },
    ]);
    expect((await s.api('GET', '/tags/-99', { token: f.token })).body.items).toEqual([
      { _id: 'js', count: 1 },
      { _id: 'trashy', count: 1 },
    ]);
  });

  it('answers in the small rate-limit bucket', async () => {
    const res = await s.api('GET', '/tags', { token: f.token });
    expect(res.headers.get('x-ratelimit-limit')).toBe('5000');
  });

  it("answers 401 without a token, 403 for another user's collection, 404 for an unknown one", async () => {
    expect((await s.api('GET', '/tags')).status).toBe(401);
    const other = await s.createUser();
    expect((await s.api('GET', `/tags/${f.coll}`, { token: other.token })).status).toBe(403);
    expect((await s.api('GET', '/tags', { token: other.token })).body.items).toEqual([]);
    expect((await s.api('GET', '/tags/424242', { token: f.token })).status).toBe(404);
  });
});

describe('PUT /tags: rename and merge', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture();
  });

  it('renames a tag everywhere (Trash too), keeping its place in each bookmark', async () => {
    clock.advance(3_600_000);
    const res = await s.api('PUT', '/tags', { token: f.token, body: { tags: ['js'], replace: 'javascript' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true });
    expect(await tagsOf(f, 'a')).toEqual(['javascript', 'Web', 'programming']);
    expect(await tagsOf(f, 'c')).toEqual(['javascript', 'later']);
    expect(await tagsOf(f, 't')).toEqual(['javascript', 'trashy']);
    const a = (await s.api('GET', `/bookmark/${f.ids.a}`, { token: f.token })).body.item;
    expect(a.lastUpdate).toBe(new Date(clock.now()).toISOString());
    // Search and counts follow the new name.
    expect(await searchIds(f, '#javascript')).toEqual([f.ids.a, f.ids.c].sort());
    expect(await searchIds(f, '#js')).toEqual([]);
    expect(await searchIds(f, 'javascript')).toEqual([f.ids.a, f.ids.c].sort());
    const list = (await s.api('GET', '/tags', { token: f.token })).body.items;
    expect(list.find((t: { _id: string }) => t._id === 'javascript')).toEqual({ _id: 'javascript', count: 2 });
    expect(list.find((t: { _id: string }) => t._id === 'js')).toBeUndefined();
  });

  it('accepts the older {tag, replace} form', async () => {
    expect((await s.api('PUT', '/tags', { token: f.token, body: { tag: 'later', replace: 'someday' } })).status).toBe(200);
    expect(await tagsOf(f, 'c')).toEqual(['js', 'someday']);
  });

  it('matches tag names without regard to case', async () => {
    expect((await s.api('PUT', '/tags', { token: f.token, body: { tags: ['WEB'], replace: 'Web' } })).status).toBe(200);
    expect(await tagsOf(f, 'a')).toEqual(['js', 'Web', 'programming']);
    expect(await tagsOf(f, 'b')).toEqual(['Web']);
  });

  it('merges several tags into one without repeating it', async () => {
    const res = await s.api('PUT', '/tags', { token: f.token, body: { tags: ['js', 'programming', 'web'], replace: 'dev' } });
    expect(res.status).toBe(200);
    expect(await tagsOf(f, 'a')).toEqual(['dev']);
    expect(await tagsOf(f, 'b')).toEqual(['dev']);
    expect(await tagsOf(f, 'c')).toEqual(['dev', 'later']);
    expect((await s.api('GET', '/tags', { token: f.token })).body.items).toEqual([
      { _id: 'dev', count: 3 },
      { _id: 'later', count: 1 },
    ]);
  });

  it('merges into a tag the bookmark already has', async () => {
    await s.api('PUT', '/tags', { token: f.token, body: { tags: ['programming'], replace: 'js' } });
    expect(await tagsOf(f, 'a')).toEqual(['js', 'Web']);
  });

  it('renames within one collection only', async () => {
    const res = await s.api('PUT', `/tags/${f.coll}`, { token: f.token, body: { tags: ['js'], replace: 'ecmascript' } });
    expect(res.status).toBe(200);
    expect(await tagsOf(f, 'a')).toEqual(['ecmascript', 'Web', 'programming']);
    expect(await tagsOf(f, 'c')).toEqual(['js', 'later']);
    expect(await searchIds(f, '#js')).toEqual([f.ids.c]);
  });

  it('refuses bodies without tag names or with blank names, naming the field', async () => {
    for (const body of [{ replace: 'x' }, { tags: [], replace: 'x' }, { tags: ['js'] }, { tags: ['js'], replace: '' }, { tags: ['js'], replace: '   ' }, { tags: ['  '], replace: 'x' }]) {
      const res = await s.api('PUT', '/tags', { token: f.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ result: false, status: 400 });
      expect(res.body.errorMessage).toMatch(/tags|replace|tag/);
    }
    expect(await tagsOf(f, 'a')).toEqual(['js', 'Web', 'programming']);
  });

  it("refuses another user's collection with 403 and leaves it alone", async () => {
    const other = await s.createUser();
    const res = await s.api('PUT', `/tags/${f.coll}`, { token: other.token, body: { tags: ['js'], replace: 'x' } });
    expect(res.status).toBe(403);
    // A global rename by someone else touches only their own bookmarks.
    expect((await s.api('PUT', '/tags', { token: other.token, body: { tags: ['js'], replace: 'x' } })).status).toBe(200);
    expect(await tagsOf(f, 'a')).toEqual(['js', 'Web', 'programming']);
  });
});

describe('DELETE /tags', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture();
  });

  it('removes tags from every bookmark', async () => {
    const res = await s.api('DELETE', '/tags', { token: f.token, body: { tags: ['js', 'WEB'] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true });
    expect(await tagsOf(f, 'a')).toEqual(['programming']);
    expect(await tagsOf(f, 'b')).toEqual([]);
    expect(await tagsOf(f, 't')).toEqual(['trashy']);
    expect(await searchIds(f, 'notag:true')).toEqual([f.ids.b]);
    expect((await s.api('GET', '/tags', { token: f.token })).body.items).toEqual([
      { _id: 'later', count: 1 },
      { _id: 'programming', count: 1 },
    ]);
  });

  it('removes tags within one collection only', async () => {
    expect((await s.api('DELETE', '/tags/-1', { token: f.token, body: { tags: ['js'] } })).status).toBe(200);
    expect(await tagsOf(f, 'c')).toEqual(['later']);
    expect(await tagsOf(f, 'a')).toEqual(['js', 'Web', 'programming']);
    expect(await searchIds(f, '#js')).toEqual([f.ids.a]);
  });

  it('refuses a missing or empty tag list and answers 403 for another user', async () => {
    expect((await s.api('DELETE', '/tags', { token: f.token, body: {} })).status).toBe(400);
    expect((await s.api('DELETE', '/tags', { token: f.token, body: { tags: [] } })).status).toBe(400);
    const other = await s.createUser();
    expect((await s.api('DELETE', `/tags/${f.coll}`, { token: other.token, body: { tags: ['js'] } })).status).toBe(403);
    expect(await tagsOf(f, 'a')).toEqual(['js', 'Web', 'programming']);
  });
});

describe('GET /tags/suggest/{bookmarkId}', () => {
  it("suggests the user's own tags by domain and by words, never ones the bookmark has", async () => {
    const { token } = await s.createUser();
    const res = await s.api('POST', '/bookmarks', {
      token,
      body: {
        items: [
          { link: 'https://doc.rust-lang.org/book/ch01', title: 'Getting started', tags: ['rust', 'books'] },
          { link: 'https://doc.rust-lang.org/std/vec', title: 'Vec in std', tags: ['rust', 'reference'] },
          { link: 'https://food.example.com/pasta', title: 'Fresh pasta', tags: ['cooking', 'italian'] },
          { link: 'https://music.example.net/jazz', title: 'Jazz standards', tags: ['music'] },
          { link: 'https://doc.rust-lang.org/nomicon/', title: 'Unsafe cooking with pointers', tags: ['reference'] },
        ],
      },
    });
    const target = res.body.items[4]._id;
    const other = await s.createUser();
    await s.api('POST', '/bookmark', { token: other.token, body: { link: 'https://doc.rust-lang.org/x', tags: ['secret-tag'] } });

    const sug = await s.api('GET', `/tags/suggest/${target}`, { token });
    expect(sug.status).toBe(200);
    expect(sug.body.result).toBe(true);
    const names = sug.body.items.map((t: { _id: string }) => t._id);
    expect(names[0]).toBe('rust'); // used on two other bookmarks of the same domain
    expect(names).toContain('books'); // same domain
    expect(names).toContain('cooking'); // a word of the title
    expect(names).not.toContain('reference'); // already on the bookmark
    expect(names).not.toContain('music'); // nothing links it
    expect(names).not.toContain('secret-tag'); // someone else's
    for (const item of sug.body.items) expect(Object.keys(item)).toEqual(['_id']);
  });

  it('answers [] for a user without tags, 404 for an unknown bookmark, 403 for another user\'s', async () => {
    const { token } = await s.createUser();
    const b = (await s.api('POST', '/bookmark', { token, body: { link: 'https://x.example.com/' } })).body.item._id;
    expect((await s.api('GET', `/tags/suggest/${b}`, { token })).body).toEqual({ result: true, items: [] });
    expect((await s.api('GET', '/tags/suggest/99999999', { token })).status).toBe(404);
    const other = await s.createUser();
    expect((await s.api('GET', `/tags/suggest/${b}`, { token: other.token })).status).toBe(403);
  });
});
