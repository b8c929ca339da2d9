import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

async function save(token: string, link: string): Promise<number> {
  const res = await s.api('POST', '/bookmark', { token, body: { link } });
  expect(res.status).toBe(200);
  return res.body.item._id;
}

async function exists(token: string, urls: string[]) {
  const res = await s.api('POST', '/import/url/exists', { token, body: { urls } });
  expect(res.status).toBe(200);
  return res.body;
}

describe('POST /import/url/exists', () => {
  it('answers result false with ids [] and HTTP 200 when nothing is saved', async () => {
    const u = await s.createUser();
    await save(u.token, 'https://saved.example/page');
    const res = await s.api('POST', '/import/url/exists', { token: u.token, body: { urls: ['https://other.example/'] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: false, ids: [] });
  });

  it('answers the ids and duplicates of saved links', async () => {
    const u = await s.createUser();
    const a = await save(u.token, 'https://saved.example/a');
    const b = await save(u.token, 'https://saved.example/b');
    const body = await exists(u.token, ['https://saved.example/b', 'https://nope.example/', 'https://saved.example/a']);
    expect(body.result).toBe(true);
    expect([...body.ids].sort()).toEqual([a, b].sort());
    expect(body.duplicates).toEqual(
      expect.arrayContaining([
        { _id: a, link: 'https://saved.example/a' },
        { _id: b, link: 'https://saved.example/b' },
      ]),
    );
    expect(body.duplicates).toHaveLength(2);
  });

  it('reports every saved copy of the same page', async () => {
    const u = await s.createUser();
    const one = await save(u.token, 'https://twice.example/x');
    const two = await save(u.token, 'http://www.twice.example/x/');
    const body = await exists(u.token, ['https://twice.example/x']);
    expect([...body.ids].sort()).toEqual([one, two].sort());
  });

  it('ignores scheme case, trailing slash, www., utm_* and other tracking parameters, and plain fragments', async () => {
    const u = await s.createUser();
    const id = await save(u.token, 'https://news.example.org/story/42?id=7');
    const same = [
      'HTTPS://news.example.org/story/42?id=7',
      'http://news.example.org/story/42?id=7',
      'https://NEWS.Example.org/story/42/?id=7',
      'https://www.news.example.org/story/42?id=7',
      'https://news.example.org/story/42?utm_source=feed&id=7&utm_medium=rss',
      'https://news.example.org/story/42?id=7&fbclid=abc&gclid=def',
      'https://news.example.org/story/42?id=7#comments',
    ];
    for (const url of same) {
      const body = await exists(u.token, [url]);
      expect(body, url).toMatchObject({ result: true, ids: [id] });
    }
    const different = [
      'https://news.example.org/story/43?id=7',
      'https://news.example.org/story/42?id=8',
      'https://news.example.org/story/42',
      'https://news.example.org/Story/42?id=7',
      'https://example.org/story/42?id=7',
    ];
    for (const url of different) expect(await exists(u.token, [url]), url).toEqual({ result: false, ids: [] });
  });

  it('treats an app-route fragment (#/..., #!...) as part of the page', async () => {
    const u = await s.createUser();
    const inbox = await save(u.token, 'https://app.example/#/inbox');
    expect((await exists(u.token, ['https://app.example/#/inbox'])).ids).toEqual([inbox]);
    expect(await exists(u.token, ['https://app.example/#/settings'])).toEqual({ result: false, ids: [] });
    expect(await exists(u.token, ['https://app.example/'])).toEqual({ result: false, ids: [] });
    const plain = await save(u.token, 'https://docs.example/guide');
    expect((await exists(u.token, ['https://docs.example/guide#section-2'])).ids).toEqual([plain]);
  });

  it('does not report bookmarks in Trash', async () => {
    const u = await s.createUser();
    const id = await save(u.token, 'https://gone.example/');
    await s.api('DELETE', `/bookmark/${id}`, { token: u.token });
    expect(await exists(u.token, ['https://gone.example/'])).toEqual({ result: false, ids: [] });
  });

  it('finds a link saved under its new address after an update, not under the old one', async () => {
    const u = await s.createUser();
    const id = await save(u.token, 'https://before.example/');
    await s.api('PUT', `/bookmark/${id}`, { token: u.token, body: { link: 'https://after.example/' } });
    expect(await exists(u.token, ['https://before.example/'])).toEqual({ result: false, ids: [] });
    expect((await exists(u.token, ['https://after.example/'])).ids).toEqual([id]);
  });

  it('never reports another user\'s links', async () => {
    const a = await s.createUser();
    const b = await s.createUser();
    await save(a.token, 'https://private.example/a-only');
    expect(await exists(b.token, ['https://private.example/a-only'])).toEqual({ result: false, ids: [] });
    const get = await s.api('GET', '/import/url/exists?url=' + encodeURIComponent('https://private.example/a-only'), { token: b.token });
    expect(get.body).toEqual({ result: false, ids: [] });
  });

  it('ignores links that are not http(s) and validates the request', async () => {
    const u = await s.createUser();
    expect(await exists(u.token, ['javascript:alert(1)', 'not a url', ''])).toEqual({ result: false, ids: [] });
    const empty = await s.api('POST', '/import/url/exists', { token: u.token, body: { urls: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.errorMessage).toMatch(/urls/);
    const many = await s.api('POST', '/import/url/exists', { token: u.token, body: { urls: Array.from({ length: 101 }, (_, i) => `https://x.example/${i}`) } });
    expect(many.status).toBe(400);
    expect(many.body.errorMessage).toMatch(/urls/);
    const wrong = await s.api('POST', '/import/url/exists', { token: u.token, body: { urls: 'https://x.example/' } });
    expect(wrong.status).toBe(400);
    expect((await s.api('POST', '/import/url/exists', { body: { urls: ['https://x.example/'] } })).status).toBe(401);
  });

  it('checks 100 URLs at once', async () => {
    const u = await s.createUser();
    const res = await s.api('POST', '/bookmarks', {
      token: u.token,
      body: { items: Array.from({ length: 50 }, (_, i) => ({ link: `https://many.example/${i}` })) },
    });
    const saved = res.body.items.map((i: { _id: number }) => i._id);
    const urls = Array.from({ length: 100 }, (_, i) => `http://www.many.example/${i}/`);
    const body = await exists(u.token, urls);
    expect([...body.ids].sort((x: number, y: number) => x - y)).toEqual([...saved].sort((x: number, y: number) => x - y));
  });
});

describe('GET /import/url/exists?url=', () => {
  it('checks one URL', async () => {
    const u = await s.createUser();
    const id = await save(u.token, 'https://single.example/p');
    const found = await s.api('GET', '/import/url/exists?url=' + encodeURIComponent('https://www.single.example/p/?utm_campaign=x'), { token: u.token });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ result: true, ids: [id], duplicates: [{ _id: id, link: 'https://single.example/p' }] });
    const none = await s.api('GET', '/import/url/exists?url=' + encodeURIComponent('https://single.example/q'), { token: u.token });
    expect(none.body).toEqual({ result: false, ids: [] });
    const missing = await s.api('GET', '/import/url/exists', { token: u.token });
    expect(missing.status).toBe(400);
    expect(missing.body.errorMessage).toMatch(/url is required/);
  });
});
