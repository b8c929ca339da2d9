import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

// GET /highlights and GET /highlights/{collectionId}: order, paging, scope, access.

let s: TestServer;
const clock = new TestClock();

async function bookmark(token: string, body: Record<string, unknown>): Promise<{ _id: number; highlights: { _id: string }[] }> {
  clock.advance(60_000);
  return s.createItem('/bookmark', token, body);
}
async function addHighlight(token: string, id: number, text: string, extra: Record<string, unknown> = {}) {
  clock.advance(60_000);
  const res = await s.api('PUT', `/bookmark/${id}`, { token, body: { highlights: [{ text, ...extra }] } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
const texts = (res: { body: { items: { text: string }[] } }) => res.body.items.map((h) => h.text);

beforeAll(async () => {
  s = await startServer({ clock });
});
afterAll(async () => s.close());

describe('highlight listings', () => {
  let token: string;
  let collection: number;
  let inColl: { _id: number; highlights: { _id: string }[] };
  let inUnsorted: { _id: number };

  beforeAll(async () => {
    ({ token } = await s.createUser());
    collection = (await s.api('POST', '/collection', { token, body: { title: 'Reading' } })).body.item._id;
    inColl = await bookmark(token, {
      link: 'https://read.example.com/essay', title: 'An essay', tags: ['essays', 'long'], collectionId: collection,
      highlights: [{ text: 'first', note: 'a note', color: 'blue', position: 2, prefix: 'before ', suffix: ' after' }],
    });
    inUnsorted = await bookmark(token, { link: 'https://read.example.com/news', title: 'News' });
    await addHighlight(token, inUnsorted._id, 'second');
    await addHighlight(token, inColl._id, 'third');
    const trashed = await bookmark(token, { link: 'https://read.example.com/old', title: 'Old', highlights: [{ text: 'in trash' }] });
    expect((await s.api('DELETE', `/bookmark/${trashed._id}`, { token })).status).toBe(200);
    // Someone else's highlight never shows up.
    const other = await s.createUser();
    await bookmark(other.token, { link: 'https://read.example.com/theirs', highlights: [{ text: 'not mine' }] });
  });

  it('lists all highlights newest first, leaving Trash out', async () => {
    const res = await s.api('GET', '/highlights', { token });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    expect(texts(res)).toEqual(['third', 'second', 'first']);
    expect(texts(await s.api('GET', '/highlights/0', { token }))).toEqual(['third', 'second', 'first']);
  });

  it('answers each item with its bookmark link, title, tags and reference', async () => {
    const res = await s.api('GET', '/highlights', { token });
    const first = res.body.items[2];
    expect(first).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      text: 'first', note: 'a note', color: 'blue', position: 2, prefix: 'before ', suffix: ' after',
      created: expect.any(String), lastUpdate: expect.any(String),
      tags: ['essays', 'long'], link: 'https://read.example.com/essay', title: 'An essay', bookmarkRef: inColl._id,
    });
    expect(first._id).toBe(inColl.highlights[0]._id);
    expect(res.body.items[1]).toMatchObject({ text: 'second', note: '', color: 'yellow', tags: [], bookmarkRef: inUnsorted._id });
    expect(res.body.items[1]).not.toHaveProperty('position');
  });

  it('lists one collection, Unsorted or Trash', async () => {
    expect(texts(await s.api('GET', `/highlights/${collection}`, { token }))).toEqual(['third', 'first']);
    expect(texts(await s.api('GET', '/highlights/-1', { token }))).toEqual(['second']);
    expect(texts(await s.api('GET', '/highlights/-99', { token }))).toEqual(['in trash']);
  });

  it('follows changes: an updated bookmark title, a removed highlight', async () => {
    await s.api('PUT', `/bookmark/${inUnsorted._id}`, { token, body: { title: 'Renamed news' } });
    const res = await s.api('GET', '/highlights/-1', { token });
    expect(res.body.items[0].title).toBe('Renamed news');
    const hid = res.body.items[0]._id;
    await s.api('PUT', `/bookmark/${inUnsorted._id}`, { token, body: { highlights: [{ _id: hid, text: '' }] } });
    expect(texts(await s.api('GET', '/highlights/-1', { token }))).toEqual([]);
    await addHighlight(token, inUnsorted._id, 'second');
  });

  it('answers 401 without a token, 403 for another user\'s collection, 404 for an unknown one', async () => {
    expect((await s.api('GET', '/highlights')).status).toBe(401);
    expect((await s.api('GET', `/highlights/${collection}`)).status).toBe(401);
    const other = await s.createUser();
    const res = await s.api('GET', `/highlights/${collection}`, { token: other.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ result: false, status: 403 });
    expect((await s.api('GET', '/highlights', { token: other.token })).body.items).toEqual([]);
    expect((await s.api('GET', '/highlights/987654', { token })).status).toBe(404);
  });
});

describe('highlights in shared collections', () => {
  it('shows a collaborator the highlights of collections shared with them', async () => {
    const owner = await s.createUser();
    const friend = await s.createUser();
    const coll = (await s.api('POST', '/collection', { token: owner.token, body: { title: 'Club' } })).body.item._id;
    await bookmark(owner.token, { link: 'https://club.example.com/1', collectionId: coll, highlights: [{ text: 'shared words' }] });
    await bookmark(friend.token, { link: 'https://club.example.com/2', highlights: [{ text: 'my words' }] });
    expect((await s.api('GET', `/highlights/${coll}`, { token: friend.token })).status).toBe(403);
    expect(texts(await s.api('GET', '/highlights', { token: friend.token }))).toEqual(['my words']);
    await s.app.repos.sharing.setRole(coll, friend.id, 'viewer', owner.id);
    expect(texts(await s.api('GET', `/highlights/${coll}`, { token: friend.token }))).toEqual(['shared words']);
    expect(texts(await s.api('GET', '/highlights', { token: friend.token }))).toEqual(['my words', 'shared words']);
    expect(texts(await s.api('GET', '/highlights', { token: owner.token }))).toEqual(['shared words']);
  });
});

describe('highlight paging', () => {
  let token: string;

  beforeAll(async () => {
    ({ token } = await s.createUser());
    // 60 highlights, one a minute: h0 oldest, h59 newest.
    const b = await bookmark(token, { link: 'https://many.example.com/', title: 'Many' });
    for (let i = 0; i < 60; i++) await addHighlight(token, b._id, `h${i}`);
  });

  it('answers 25 by default, the newest first', async () => {
    const res = await s.api('GET', '/highlights', { token });
    expect(texts(res)).toEqual(Array.from({ length: 25 }, (_, i) => `h${59 - i}`));
  });

  it('pages without overlap and answers [] past the end', async () => {
    const page1 = texts(await s.api('GET', '/highlights?page=1', { token }));
    expect(page1).toEqual(Array.from({ length: 25 }, (_, i) => `h${34 - i}`));
    const page2 = texts(await s.api('GET', '/highlights?page=2', { token }));
    expect(page2).toEqual(Array.from({ length: 10 }, (_, i) => `h${9 - i}`));
    expect(texts(await s.api('GET', '/highlights?page=3', { token }))).toEqual([]);
  });

  it('caps perpage at 50 and reads perPage', async () => {
    expect((await s.api('GET', '/highlights?perpage=500', { token })).body.items).toHaveLength(50);
    expect(texts(await s.api('GET', '/highlights/0?perPage=2&page=1', { token }))).toEqual(['h57', 'h56']);
    expect((await s.api('GET', '/highlights?perpage=&page=', { token })).body.items).toHaveLength(25);
  });

  it('refuses a negative page with 400', async () => {
    const res = await s.api('GET', '/highlights?page=-1', { token });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/page/);
  });
});
