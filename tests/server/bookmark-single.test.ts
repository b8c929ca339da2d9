import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

let s: TestServer;
const clock = new TestClock();
beforeAll(async () => {
  s = await startServer({ clock });
});
afterAll(async () => s.close());

async function user() {
  return s.createUser();
}

async function collection(token: string, title = 'Reading', extra: Record<string, unknown> = {}): Promise<number> {
  return (await s.createItem('/collection', token, { title, ...extra }))._id;
}

const create = (token: string, body: Record<string, unknown>) => s.createItem('/bookmark', token, body);

describe('POST /bookmark', () => {
  it('creates a bookmark in Unsorted with defaults, domain and the creator', async () => {
    const u = await user();
    const res = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://www.example.com/page?x=1' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    const item = res.body.item;
    expect(item).toMatchObject({
      link: 'https://www.example.com/page?x=1',
      title: 'https://www.example.com/page?x=1',
      type: 'link',
      excerpt: '',
      note: '',
      cover: '',
      media: [],
      tags: [],
      important: false,
      collection: { $id: -1 },
      collectionId: -1,
      domain: 'example.com',
      highlights: [],
      removed: false,
      user: { $id: u.id },
      creatorRef: u.id,
      created: new Date(clock.now()).toISOString(),
      lastUpdate: new Date(clock.now()).toISOString(),
    });
    expect(item._id).toBeGreaterThan(0);
    // And it is really stored.
    const got = await s.api('GET', `/bookmark/${item._id}`, { token: u.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ result: true, item });
  });

  it('stores every field sent: title, excerpt, note, type, cover, media, tags (trimmed, deduplicated), important, dates', async () => {
    const u = await user();
    const item = await create(u.token, {
      link: 'http://example.org/a',
      title: 'A title',
      excerpt: 'An excerpt',
      note: 'My note',
      type: 'article',
      cover: 'https://example.org/cover.png',
      media: [{ type: 'image', link: 'https://example.org/m.png' }],
      tags: [' reading ', 'news', 'reading', '  ', 'news'],
      important: true,
      created: '2024-01-02T03:04:05+02:00',
      lastUpdate: '2024-02-03T00:00:00Z',
      pleaseParse: {},
    });
    expect(item).toMatchObject({
      title: 'A title',
      excerpt: 'An excerpt',
      note: 'My note',
      type: 'article',
      cover: 'https://example.org/cover.png',
      media: [{ type: 'image', link: 'https://example.org/m.png' }],
      tags: ['reading', 'news'],
      important: true,
      created: '2024-01-02T01:04:05.000Z',
      lastUpdate: '2024-02-03T00:00:00.000Z',
      domain: 'example.org',
    });
  });

  it('accepts the collection as collection.$id or as flat collectionId', async () => {
    const u = await user();
    const c = await collection(u.token);
    expect((await create(u.token, { link: 'https://a.example/', collection: { $id: c } })).collectionId).toBe(c);
    expect((await create(u.token, { link: 'https://b.example/', collectionId: c })).collection).toEqual({ $id: c });
  });

  it('refuses non-http(s) links, Trash, collection 0 and unknown collections, creating nothing', async () => {
    const u = await user();
    for (const link of ['ftp://example.com/file', 'javascript:alert(1)', 'not a url', '']) {
      const res = await s.api('POST', '/bookmark', { token: u.token, body: { link } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: false, status: 400 });
      expect(res.body.errorMessage).toMatch(/link/);
    }
    const trash = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://x.example/', collectionId: -99 } });
    expect(trash.status).toBe(400);
    expect(trash.body.errorMessage).toMatch(/Trash/);
    const all = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://x.example/', collection: { $id: 0 } } });
    expect(all.status).toBe(400);
    expect(all.body.errorMessage).toMatch(/collection\.\$id 0/);
    const unknown = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://x.example/', collectionId: 999999 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorMessage).toBe('Not found');
    const count = (await s.sql('SELECT count(*) AS n FROM bookmarks WHERE user_id = ?', u.id))[0] as { n: number };
    expect(count.n).toBe(0);
  });

  it('answers wrong types, a missing link, bad enums and non-JSON bodies with a 400 naming the problem', async () => {
    const u = await user();
    const cases: [unknown, RegExp][] = [
      [{}, /link is required/],
      [{ link: 5 }, /link must be string/],
      [{ link: 'https://a.example/', title: 5 }, /title must be string/],
      [{ link: 'https://a.example/', type: 'podcast' }, /type must be one of link, article/],
      [{ link: 'https://a.example/', tags: 'a,b' }, /tags must be array/],
      [{ link: 'https://a.example/', important: 'yes' }, /important must be boolean/],
      [{ link: 'https://a.example/', order: -1 }, /order must be >= 0/],
      [{ link: 'https://a.example/', created: 'yesterday' }, /created must match format/],
      [{ link: 'https://a.example/', highlights: [{ text: 'x', color: 'magenta' }] }, /highlights\.0\.color must be one of blue/],
      [{ link: 'https://a.example/', highlights: [{ note: 'no text' }] }, /highlights\.0\.text is required/],
    ];
    for (const [body, message] of cases) {
      const res = await s.api('POST', '/bookmark', { token: u.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorMessage).toMatch(message);
    }
    const junk = await s.api('POST', '/bookmark', { token: u.token, rawBody: '{"link": ', headers: { 'content-type': 'application/json' } });
    expect(junk.status).toBe(400);
    expect(junk.body.errorMessage).toMatch(/not valid JSON/);
    const count = (await s.sql('SELECT count(*) AS n FROM bookmarks WHERE user_id = ?', u.id))[0] as { n: number };
    expect(count.n).toBe(0);
  });

  it('answers an oversized body with 413', async () => {
    const u = await user();
    const res = await s.api('POST', '/bookmark', {
      token: u.token,
      body: { link: 'https://a.example/', note: 'x'.repeat(s.config.bodyLimit + 10) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ result: false, status: 413 });
  });

  it('adds the highlights sent with the bookmark', async () => {
    const u = await user();
    const item = await create(u.token, {
      link: 'https://a.example/article',
      highlights: [{ text: 'first quote', color: 'blue', note: 'n1' }, { text: 'second quote' }],
    });
    expect(item.highlights).toHaveLength(2);
    expect(item.highlights[0]).toMatchObject({ text: 'first quote', color: 'blue', note: 'n1' });
    expect(item.highlights[1]).toMatchObject({ text: 'second quote', color: 'yellow', note: '' });
    for (const h of item.highlights) expect(h._id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('requires a token', async () => {
    const res = await s.api('POST', '/bookmark', { body: { link: 'https://a.example/' } });
    expect(res.status).toBe(401);
  });
});

describe('GET /bookmark/{id}', () => {
  it('answers 404 "Not found" for an unknown id and 400 for a non-numeric one', async () => {
    const u = await user();
    const missing = await s.api('GET', '/bookmark/987654', { token: u.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ result: false, status: 404, errorMessage: 'Not found' });
    const bad = await s.api('GET', '/bookmark/abc', { token: u.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/id/);
  });

  it('lets anyone read a bookmark of a public collection, but not of a private one or Unsorted', async () => {
    const u = await user();
    const pub = await collection(u.token, 'Public', { public: true });
    const priv = await collection(u.token, 'Private');
    const a = await create(u.token, { link: 'https://pub.example/', collectionId: pub });
    const b = await create(u.token, { link: 'https://priv.example/', collectionId: priv });
    const c = await create(u.token, { link: 'https://unsorted.example/' });
    const open = await s.api('GET', `/bookmark/${a._id}`);
    expect(open.status).toBe(200);
    expect(open.body.item.link).toBe('https://pub.example/');
    expect((await s.api('GET', `/bookmark/${b._id}`)).status).toBe(401);
    expect((await s.api('GET', `/bookmark/${c._id}`)).status).toBe(401);
    // Public means readable, not writable.
    const stranger = await user();
    expect((await s.api('GET', `/bookmark/${a._id}`, { token: stranger.token })).status).toBe(200);
    expect((await s.api('PUT', `/bookmark/${a._id}`, { token: stranger.token, body: { title: 'mine' } })).status).toBe(403);
  });
});

describe('PUT /bookmark/{id}', () => {
  it('changes only the fields sent and moves lastUpdate', async () => {
    const u = await user();
    const item = await create(u.token, { link: 'https://a.example/x', title: 'Old', tags: ['a', 'b'], note: 'keep' });
    clock.advance(60_000);
    const res = await s.api('PUT', `/bookmark/${item._id}`, {
      token: u.token,
      body: { title: 'New', tags: ['c', ' c ', 'd'], important: true, excerpt: 'E', type: 'video' },
    });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({
      _id: item._id,
      title: 'New',
      tags: ['c', 'd'],
      important: true,
      excerpt: 'E',
      type: 'video',
      note: 'keep',
      link: 'https://a.example/x',
      created: item.created,
      lastUpdate: new Date(clock.now()).toISOString(),
    });
  });

  it('recomputes domain and the duplicate key when the link changes, and refuses non-http links', async () => {
    const u = await user();
    const item = await create(u.token, { link: 'https://a.example/x', title: 'T' });
    const res = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { link: 'https://www.b.example/y/' } });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ link: 'https://www.b.example/y/', domain: 'b.example', title: 'T' });
    const exists = await s.api('GET', '/import/url/exists?url=' + encodeURIComponent('http://b.example/y'), { token: u.token });
    expect(exists.body.ids).toEqual([item._id]);
    const bad = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { link: 'mailto:me@example.com', title: 'X' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toBe('link must be an http(s) URL');
    expect((await s.api('GET', `/bookmark/${item._id}`, { token: u.token })).body.item.title).toBe('T');
  });

  it('clears tags with [] and falls back to the link for an empty title', async () => {
    const u = await user();
    const item = await create(u.token, { link: 'https://a.example/z', title: 'T', tags: ['a'] });
    const res = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { tags: [], title: '' } });
    expect(res.body.item.tags).toEqual([]);
    expect(res.body.item.title).toBe('https://a.example/z');
    const tagRows = (await s.sql('SELECT count(*) AS n FROM bookmark_tags WHERE bookmark_id = ?', item._id))[0] as { n: number };
    expect(tagRows.n).toBe(0);
  });

  it('moves a bookmark between collections and to Unsorted', async () => {
    const u = await user();
    const c1 = await collection(u.token, 'One');
    const c2 = await collection(u.token, 'Two');
    const item = await create(u.token, { link: 'https://m.example/', collectionId: c1 });
    const moved = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { collection: { $id: c2 } } });
    expect(moved.status).toBe(200);
    expect(moved.body.item).toMatchObject({ collectionId: c2, collection: { $id: c2 }, removed: false });
    const flat = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { collectionId: -1 } });
    expect(flat.body.item.collectionId).toBe(-1);
    const nowhere = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { collection: { $id: 424242 } } });
    expect(nowhere.status).toBe(404);
    const all = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: { collection: { $id: 0 } } });
    expect(all.status).toBe(400);
    expect((await s.api('GET', `/bookmark/${item._id}`, { token: u.token })).body.item.collectionId).toBe(-1);
  });

  it('answers 404 for an unknown bookmark and 400 for a body that is not an object', async () => {
    const u = await user();
    const res = await s.api('PUT', '/bookmark/999999', { token: u.token, body: { title: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body.errorMessage).toBe('Not found');
    const item = await create(u.token, { link: 'https://a.example/' });
    const arr = await s.api('PUT', `/bookmark/${item._id}`, { token: u.token, body: [1, 2] });
    expect(arr.status).toBe(400);
  });
});

describe('manual order', () => {
  /** Links of a collection in manual order (ascending `sort`). */
  async function ordered(token: string, ids: number[]): Promise<string[]> {
    const items = await Promise.all(ids.map(async (id) => (await s.api('GET', `/bookmark/${id}`, { token })).body.item));
    return items
      .filter((i) => i)
      .sort((a, b) => a.sort - b.sort)
      .map((i) => new URL(i.link).pathname.slice(1));
  }

  it('puts new bookmarks first; `order` places one at that position and shifts the others', async () => {
    const u = await user();
    const c = await collection(u.token);
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) ids.push((await create(u.token, { link: `https://o.example/${name}`, collectionId: c }))._id);
    expect(await ordered(u.token, ids)).toEqual(['c', 'b', 'a']);
    ids.push((await create(u.token, { link: 'https://o.example/d', collectionId: c, order: 1 }))._id);
    expect(await ordered(u.token, ids)).toEqual(['c', 'd', 'b', 'a']);
    ids.push((await create(u.token, { link: 'https://o.example/e', collectionId: c, order: 0 }))._id);
    expect(await ordered(u.token, ids)).toEqual(['e', 'c', 'd', 'b', 'a']);
    ids.push((await create(u.token, { link: 'https://o.example/f', collectionId: c, order: 99 }))._id);
    expect(await ordered(u.token, ids)).toEqual(['e', 'c', 'd', 'b', 'a', 'f']);
    // Reorder existing ones.
    await s.api('PUT', `/bookmark/${ids[0]}`, { token: u.token, body: { order: 0 } });
    expect(await ordered(u.token, ids)).toEqual(['a', 'e', 'c', 'd', 'b', 'f']);
    await s.api('PUT', `/bookmark/${ids[0]}`, { token: u.token, body: { order: 3 } });
    expect(await ordered(u.token, ids)).toEqual(['e', 'c', 'd', 'a', 'b', 'f']);
  });

  it('a move with `order` places the bookmark at that position in the target', async () => {
    const u = await user();
    const c1 = await collection(u.token, 'From');
    const c2 = await collection(u.token, 'To');
    const inTarget: number[] = [];
    for (const name of ['x', 'y', 'z']) inTarget.push((await create(u.token, { link: `https://o.example/${name}`, collectionId: c2 }))._id);
    const mover = await create(u.token, { link: 'https://o.example/m', collectionId: c1 });
    await s.api('PUT', `/bookmark/${mover._id}`, { token: u.token, body: { collection: { $id: c2 }, order: 2 } });
    expect(await ordered(u.token, [...inTarget, mover._id])).toEqual(['z', 'y', 'm', 'x']);
  });
});

describe('DELETE /bookmark/{id}', () => {
  it('answers 404 for an unknown id', async () => {
    const u = await user();
    const res = await s.api('DELETE', '/bookmark/999999', { token: u.token });
    expect(res.status).toBe(404);
    expect(res.body.errorMessage).toBe('Not found');
  });
});

describe('change tracking', () => {
  it('every write records when the owner\'s bookmarks changed (user stats changedBookmarksDate)', async () => {
    const u = await user();
    const changed = async () => (await s.api('GET', '/user/stats', { token: u.token })).body.meta.changedBookmarksDate;
    const step = async (call: () => Promise<unknown>) => {
      clock.advance(5_000);
      await call();
      expect(await changed()).toBe(new Date(clock.now()).toISOString());
    };
    let id = 0;
    await step(async () => (id = (await create(u.token, { link: 'https://track.example/' }))._id));
    await step(() => s.api('PUT', `/bookmark/${id}`, { token: u.token, body: { title: 'T' } }));
    await step(() => s.api('POST', '/bookmarks', { token: u.token, body: { items: [{ link: 'https://track.example/2' }] } }));
    await step(() => s.api('PUT', '/bookmarks/-1', { token: u.token, body: { important: true } }));
    await step(() => s.api('DELETE', `/bookmark/${id}`, { token: u.token }));
    await step(() => s.api('DELETE', '/bookmarks/-99', { token: u.token }));
  });
});
