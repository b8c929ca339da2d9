import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

async function collection(token: string, title = 'Bulk'): Promise<number> {
  return (await s.createItem('/collection', token, { title }))._id;
}

async function createMany(token: string, items: Record<string, unknown>[]) {
  const res = await s.api('POST', '/bookmarks', { token, body: { items } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as any[];
}

async function get(token: string, id: number) {
  return (await s.api('GET', `/bookmark/${id}`, { token })).body.item;
}

async function countOf(userId: number): Promise<number> {
  return ((await s.sql('SELECT count(*) AS n FROM bookmarks WHERE user_id = ?', userId))[0] as { n: number }).n;
}

const links = (n: number, base = 'https://bulk.example/') => Array.from({ length: n }, (_, i) => ({ link: `${base}${i}` }));

describe('POST /bookmarks', () => {
  it('creates 100 bookmarks and answers them in the order sent', async () => {
    const u = await s.createUser();
    const items = await createMany(u.token, links(100).map((it, i) => ({ ...it, title: `T${i}`, tags: [`t${i % 3}`] })));
    expect(items).toHaveLength(100);
    expect(items.map((i) => i.title)).toEqual(Array.from({ length: 100 }, (_, i) => `T${i}`));
    expect(new Set(items.map((i) => i._id)).size).toBe(100);
    expect(items[5]).toMatchObject({ link: 'https://bulk.example/5', collectionId: -1, domain: 'bulk.example', tags: ['t2'], user: { $id: u.id } });
    expect(await countOf(u.id)).toBe(100);
  });

  it('keeps the batch order at the top of the collection', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const [old] = await createMany(u.token, [{ link: 'https://o.example/old', collectionId: c }]);
    const items = await createMany(u.token, links(3, 'https://o.example/n').map((i) => ({ ...i, collectionId: c })));
    const sorts = [...items, old].map((i) => i.sort);
    expect([...sorts].sort((a, b) => a - b)).toEqual(sorts);
  });

  it('answers 413 for 101 items and creates nothing', async () => {
    const u = await s.createUser();
    const res = await s.api('POST', '/bookmarks', { token: u.token, body: { items: links(101) } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ result: false, status: 413 });
    expect(res.body.errorMessage).toMatch(/at most 100/);
    expect(await countOf(u.id)).toBe(0);
  });

  it('answers 400 for an empty or missing items array', async () => {
    const u = await s.createUser();
    const empty = await s.api('POST', '/bookmarks', { token: u.token, body: { items: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.errorMessage).toMatch(/items/);
    const missing = await s.api('POST', '/bookmarks', { token: u.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toMatch(/items is required/);
  });

  it('answers 400 naming the index of one invalid item and creates none of them', async () => {
    const u = await s.createUser();
    const items: Record<string, unknown>[] = links(6);
    items[3] = { link: 'file:///etc/passwd' };
    const res = await s.api('POST', '/bookmarks', { token: u.token, body: { items } });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toBe('items.3.link must be an http(s) URL');
    const typed: Record<string, unknown>[] = links(4);
    typed[2] = { link: 'https://ok.example/', important: 'very' };
    const res2 = await s.api('POST', '/bookmarks', { token: u.token, body: { items: typed } });
    expect(res2.status).toBe(400);
    expect(res2.body.errorMessage).toMatch(/items\.2\.important/);
    const hl: Record<string, unknown>[] = links(3);
    hl[1] = { link: 'https://ok.example/', highlights: [{ text: '' }] };
    const res3 = await s.api('POST', '/bookmarks', { token: u.token, body: { items: hl } });
    expect(res3.status).toBe(400);
    expect(res3.body.errorMessage).toMatch(/items\.1\.highlights\.0\.text/);
    expect(await countOf(u.id)).toBe(0);
  });

  it('creates into several collections; a collection the caller cannot write fails the whole batch', async () => {
    const a = await s.createUser();
    const b = await s.createUser();
    const ca = await collection(a.token, 'A1');
    const cb = await collection(b.token, 'B1');
    const ok = await createMany(a.token, [
      { link: 'https://x.example/1', collection: { $id: ca } },
      { link: 'https://x.example/2' },
    ]);
    expect(ok.map((i) => i.collectionId)).toEqual([ca, -1]);
    const res = await s.api('POST', '/bookmarks', {
      token: a.token,
      body: { items: [{ link: 'https://x.example/3' }, { link: 'https://x.example/4', collectionId: cb }] },
    });
    expect(res.status).toBe(403);
    expect(await countOf(a.id)).toBe(2);
    expect(await countOf(b.id)).toBe(0);
  });
});

describe('PUT /bookmarks/{collectionId}', () => {
  it('sets important on the listed ids only', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const items = await createMany(u.token, links(4).map((i) => ({ ...i, collectionId: c })));
    const res = await s.api('PUT', `/bookmarks/${c}`, { token: u.token, body: { ids: [items[0]._id, items[2]._id], important: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, modified: 2 });
    const flags = await Promise.all(items.map(async (i) => (await get(u.token, i._id)).important));
    expect(flags).toEqual([true, false, true, false]);
    const off = await s.api('PUT', `/bookmarks/${c}`, { token: u.token, body: { important: false } });
    expect(off.body.modified).toBe(4);
    expect((await get(u.token, items[0]._id)).important).toBe(false);
  });

  it('appends tags without repeats, and [] removes all tags', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const [a, b] = await createMany(u.token, [
      { link: 'https://t.example/a', collectionId: c, tags: ['x', 'y'] },
      { link: 'https://t.example/b', collectionId: c },
    ]);
    const res = await s.api('PUT', `/bookmarks/${c}`, { token: u.token, body: { tags: ['y', ' z '] } });
    expect(res.body.modified).toBe(2);
    expect((await get(u.token, a._id)).tags).toEqual(['x', 'y', 'z']);
    expect((await get(u.token, b._id)).tags).toEqual(['y', 'z']);
    // The tag index and search see the new tag.
    const tagged = (await s.sql("SELECT count(*) AS n FROM bookmark_tags WHERE tag = 'z' AND user_id = ?", u.id))[0] as { n: number };
    expect(tagged.n).toBe(2);
    const clear = await s.api('PUT', `/bookmarks/${c}`, { token: u.token, body: { ids: [a._id], tags: [] } });
    expect(clear.body.modified).toBe(1);
    expect((await get(u.token, a._id)).tags).toEqual([]);
    expect((await get(u.token, b._id)).tags).toEqual(['y', 'z']);
    const left = (await s.sql('SELECT count(*) AS n FROM bookmark_tags WHERE bookmark_id = ?', a._id))[0] as { n: number };
    expect(left.n).toBe(0);
  });

  it('appends media and [] clears it; sets a cover URL or <screenshot>, refusing other covers', async () => {
    const u = await s.createUser();
    const [a] = await createMany(u.token, [{ link: 'https://m.example/a', media: [{ type: 'image', link: 'https://m.example/1.png' }] }]);
    const add = await s.api('PUT', '/bookmarks/-1', {
      token: u.token,
      body: { ids: [a._id], media: [{ type: 'image', link: 'https://m.example/1.png' }, { type: 'video', link: 'https://m.example/v.mp4' }] },
    });
    expect(add.body.modified).toBe(1);
    expect((await get(u.token, a._id)).media).toEqual([
      { type: 'image', link: 'https://m.example/1.png' },
      { type: 'video', link: 'https://m.example/v.mp4' },
    ]);
    await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { ids: [a._id], media: [] } });
    expect((await get(u.token, a._id)).media).toEqual([]);
    await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { ids: [a._id], cover: 'https://m.example/cover.jpg' } });
    expect((await get(u.token, a._id)).cover).toBe('https://m.example/cover.jpg');
    await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { ids: [a._id], cover: '<screenshot>' } });
    expect((await get(u.token, a._id)).cover).toBe('<screenshot>');
    const bad = await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { ids: [a._id], cover: 'javascript:alert(1)' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/cover/);
    expect((await get(u.token, a._id)).cover).toBe('<screenshot>');
  });

  it('moves the listed bookmarks to another collection', async () => {
    const u = await s.createUser();
    const from = await collection(u.token, 'From');
    const to = await collection(u.token, 'To');
    const items = await createMany(u.token, links(3).map((i) => ({ ...i, collectionId: from })));
    const res = await s.api('PUT', `/bookmarks/${from}`, { token: u.token, body: { ids: [items[0]._id, items[1]._id], collection: { $id: to } } });
    expect(res.body).toEqual({ result: true, modified: 2 });
    expect((await get(u.token, items[0]._id)).collectionId).toBe(to);
    expect((await get(u.token, items[1]._id)).collectionId).toBe(to);
    expect((await get(u.token, items[2]._id)).collectionId).toBe(from);
  });

  it('acts only on bookmarks in the named collection, even when other ids are listed', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const [inC] = await createMany(u.token, [{ link: 'https://c.example/in', collectionId: c }]);
    const [outside] = await createMany(u.token, [{ link: 'https://c.example/out' }]);
    const res = await s.api('PUT', `/bookmarks/${c}`, { token: u.token, body: { ids: [inC._id, outside._id], important: true } });
    expect(res.body.modified).toBe(1);
    expect((await get(u.token, outside._id)).important).toBe(false);
  });

  it('narrows the targets with `search`, with and without ids', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const items = await createMany(u.token, [
      { link: 'https://s.example/1', title: 'Ocean tides explained', collectionId: c, tags: ['sea'] },
      { link: 'https://s.example/2', title: 'Mountain weather', collectionId: c },
      { link: 'https://s.example/3', title: 'Tides and the moon', collectionId: c },
    ]);
    const res = await s.api('PUT', `/bookmarks/${c}?search=tides`, { token: u.token, body: { tags: ['tide'] } });
    expect(res.body.modified).toBe(2);
    expect((await get(u.token, items[0]._id)).tags).toEqual(['sea', 'tide']);
    expect((await get(u.token, items[1]._id)).tags).toEqual([]);
    expect((await get(u.token, items[2]._id)).tags).toEqual(['tide']);
    const both = await s.api('PUT', `/bookmarks/${c}?search=${encodeURIComponent('#sea')}`, {
      token: u.token,
      body: { ids: [items[1]._id, items[2]._id], important: true },
    });
    expect(both.body.modified).toBe(0);
    const tagSearch = await s.api('PUT', `/bookmarks/${c}?search=${encodeURIComponent('#tide')}`, { token: u.token, body: { important: true } });
    expect(tagSearch.body.modified).toBe(2);
    expect((await get(u.token, items[1]._id)).important).toBe(false);
  });

  it('refuses collectionId 0, empty or oversized ids, and a body without changes', async () => {
    const u = await s.createUser();
    const zero = await s.api('PUT', '/bookmarks/0', { token: u.token, body: { important: true } });
    expect(zero.status).toBe(400);
    expect(zero.body.errorMessage).toBe('bulk update does not support collectionId 0 yet: use a collection id, -1 or -99');
    const empty = await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { ids: [], important: true } });
    expect(empty.status).toBe(413);
    expect(empty.body.errorMessage).toBe('ids array is larger than max 100 or empty');
    const big = await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { ids: Array.from({ length: 101 }, (_, i) => i + 1), important: true } });
    expect(big.status).toBe(413);
    const nothing = await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { ids: [1] } });
    expect(nothing.status).toBe(400);
    expect(nothing.body.errorMessage).toMatch(/nothing to update/);
    const wrongType = await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { tags: 'a' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errorMessage).toMatch(/tags must be array/);
    const unknown = await s.api('PUT', '/bookmarks/777777', { token: u.token, body: { important: true } });
    expect(unknown.status).toBe(404);
  });
});

describe('DELETE /bookmarks/{collectionId}', () => {
  it('moves the listed ids, the search matches, or the whole collection to Trash', async () => {
    const u = await s.createUser();
    const c = await collection(u.token);
    const items = await createMany(u.token, [
      { link: 'https://d.example/1', title: 'alpha', collectionId: c },
      { link: 'https://d.example/2', title: 'beta', collectionId: c },
      { link: 'https://d.example/3', title: 'gamma', collectionId: c },
      { link: 'https://d.example/4', title: 'delta', collectionId: c },
    ]);
    const byIds = await s.api('DELETE', `/bookmarks/${c}`, { token: u.token, body: { ids: [items[0]._id] } });
    expect(byIds.body).toEqual({ result: true, modified: 1 });
    expect(await get(u.token, items[0]._id)).toMatchObject({ collectionId: -99, removed: true });
    const bySearch = await s.api('DELETE', `/bookmarks/${c}?search=beta`, { token: u.token });
    expect(bySearch.body.modified).toBe(1);
    expect((await get(u.token, items[1]._id)).collectionId).toBe(-99);
    const rest = await s.api('DELETE', `/bookmarks/${c}`, { token: u.token });
    expect(rest.body.modified).toBe(2);
    expect((await get(u.token, items[3]._id)).removed).toBe(true);
    expect(await countOf(u.id)).toBe(4);
  });

  it('refuses collectionId 0 and empty or oversized ids', async () => {
    const u = await s.createUser();
    const zero = await s.api('DELETE', '/bookmarks/0', { token: u.token });
    expect(zero.status).toBe(400);
    expect(zero.body.errorMessage).toMatch(/collectionId 0/);
    const empty = await s.api('DELETE', '/bookmarks/-1', { token: u.token, body: { ids: [] } });
    expect(empty.status).toBe(413);
    const big = await s.api('DELETE', '/bookmarks/-1', { token: u.token, body: { ids: Array.from({ length: 101 }, (_, i) => i + 1) } });
    expect(big.status).toBe(413);
    expect(big.body.errorMessage).toBe('ids array is larger than max 100 or empty');
  });
});
