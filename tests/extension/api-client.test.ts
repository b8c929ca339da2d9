// The extension's API client over real HTTP: retries with backoff on network errors, 5xx and 429
// (honouring Retry-After), one refresh on a 401, and typed calls against the real server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClientError, TidemarkApi, checkTidemarkServer, parseRetryAfter, type TokenSource } from '../../lib/api/client/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { ScriptedServer } from './helpers/scripted-server.js';

let scripted: ScriptedServer;
let real: TestServer;
beforeAll(async () => {
  [scripted, real] = await Promise.all([ScriptedServer.start(), startServer()]);
});
afterAll(async () => {
  await scripted.close();
  await real.close();
});
beforeEach(() => scripted.reset());

const USER = { result: true, user: { _id: 7, fullName: 'Ada', email: 'ada@example.test' } };

function client(opts: { tokens?: Partial<TokenSource>; retries?: number } = {}) {
  const delays: number[] = [];
  const refreshes: string[] = [];
  const tokens: TokenSource = {
    getAccessToken: async () => 'old-token',
    refreshAfterUnauthorized: async (rejected) => {
      refreshes.push(rejected);
      return 'new-token';
    },
    ...opts.tokens,
  };
  const api = new TidemarkApi({
    serverUrl: () => scripted.origin,
    tokens,
    retry: { retries: opts.retries ?? 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 },
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 1,
  });
  return { api, delays, refreshes };
}

describe('retries', () => {
  it('retries 5xx with exponential backoff and succeeds', async () => {
    scripted.script('GET /rest/v1/user', { status: 503 }, { status: 500 }, { status: 200, body: USER });
    const { api, delays } = client();
    const user = await api.getUser();
    expect(user._id).toBe(7);
    expect(delays).toEqual([100, 200]);
    expect(scripted.requests('GET /rest/v1/user')).toHaveLength(3);
  });

  it('waits as long as Retry-After says on a 429 (seconds and HTTP dates)', async () => {
    scripted.script('GET /rest/v1/user', { status: 429, headers: { 'retry-after': '2' }, body: { result: false, status: 429, errorMessage: 'slow down' } }, { status: 200, body: USER });
    const { api, delays } = client();
    await api.getUser();
    expect(delays).toEqual([2000]);
    expect(parseRetryAfter(new Date(Date.parse('2030-01-01T00:00:10Z')).toUTCString(), Date.parse('2030-01-01T00:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('gives up on a 429 whose Retry-After is too long, with the server\'s message', async () => {
    scripted.script('GET /rest/v1/user', { status: 429, headers: { 'retry-after': '600' }, body: { result: false, status: 429, errorMessage: 'Too many requests: wait 600 s' } });
    const { api, delays } = client();
    const err = await api.getUser().catch((e) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toMatchObject({ kind: 'http', status: 429, message: 'Too many requests: wait 600 s', temporary: true });
    expect(delays).toEqual([]);
  });

  it('retries when the connection drops, then reports the server as unreachable', async () => {
    scripted.always('GET /rest/v1/user', 'drop');
    const { api, delays } = client({ retries: 2 });
    const err = await api.getUser().catch((e) => e);
    expect(err).toMatchObject({ kind: 'network', temporary: true });
    expect(err.message).toMatch(/Could not reach the Tidemark server/);
    expect(delays).toEqual([100, 200]);
    expect(scripted.requests('GET /rest/v1/user')).toHaveLength(3);
  });

  it('reports a server that is not running as unreachable', async () => {
    const api = new TidemarkApi({
      serverUrl: () => 'http://127.0.0.1:9',
      tokens: { getAccessToken: async () => 't', refreshAfterUnauthorized: async () => null },
      retry: { retries: 0 },
    });
    await expect(api.getUser()).rejects.toMatchObject({ kind: 'network' });
  });

  it('does not retry other client errors and passes on the envelope message', async () => {
    scripted.script('PUT /rest/v1/bookmark/5', { status: 400, body: { result: false, status: 400, errorMessage: 'body.title must be string' } });
    const { api, delays } = client();
    await expect(api.updateBookmark(5, { title: 'x' })).rejects.toMatchObject({ kind: 'http', status: 400, message: 'body.title must be string', temporary: false });
    expect(delays).toEqual([]);
  });
});

describe('tokens', () => {
  it('sends the bearer token and the idempotency key', async () => {
    scripted.script('POST /rest/v1/bookmark', { status: 200, body: { result: true, item: { _id: 1 } } });
    const { api } = client();
    await api.createBookmark({ link: 'https://a.example/' }, { idempotencyKey: 'key-1' });
    const [req] = scripted.requests('POST /rest/v1/bookmark');
    expect(req.headers.authorization).toBe('Bearer old-token');
    expect(req.headers['idempotency-key']).toBe('key-1');
    expect(JSON.parse(req.body)).toEqual({ link: 'https://a.example/' });
  });

  it('refreshes once on a 401 and repeats the call with the new token', async () => {
    scripted.script('GET /rest/v1/user', { status: 401 }, { status: 200, body: USER });
    const { api, refreshes } = client();
    await api.getUser();
    expect(refreshes).toEqual(['old-token']);
    expect(scripted.requests('GET /rest/v1/user').map((r) => r.headers.authorization)).toEqual(['Bearer old-token', 'Bearer new-token']);
  });

  it('stops after one refresh: a second 401 means signed out', async () => {
    scripted.always('GET /rest/v1/user', { status: 401, body: { result: false, status: 401, errorMessage: 'bad token' } });
    const { api, refreshes } = client();
    await expect(api.getUser()).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(refreshes).toHaveLength(1);
    expect(scripted.requests('GET /rest/v1/user')).toHaveLength(2);
  });

  it('is signed out when the refresh fails, and when there is no token at all', async () => {
    scripted.always('GET /rest/v1/user', { status: 401 });
    const failed = client({ tokens: { refreshAfterUnauthorized: async () => null } });
    await expect(failed.api.getUser()).rejects.toMatchObject({ kind: 'unauthorized' });
    const none = client({ tokens: { getAccessToken: async () => null } });
    await expect(none.api.getUser()).rejects.toMatchObject({ kind: 'unauthorized', message: expect.stringMatching(/signed out/) });
    expect(scripted.requests('GET /rest/v1/user')).toHaveLength(1);
  });
});

describe('typed calls against the real server', () => {
  it('creates, finds, updates and removes a bookmark; url/exists and links agree', async () => {
    const u = await real.createUser();
    const api = new TidemarkApi({ serverUrl: () => real.origin, tokens: { getAccessToken: async () => u.token, refreshAfterUnauthorized: async () => null } });
    expect((await api.getUser())._id).toBe(u.id);
    const col = await api.createCollection({ title: 'Reading' });
    const b = await api.createBookmark({ link: 'https://www.example.com/x/?utm_medium=mail', title: 'X', collection: { $id: col._id } });
    expect(b).toMatchObject({ title: 'X', collectionId: col._id });
    const exists = await api.urlExists(['http://example.com/x']);
    expect(exists).toMatchObject({ result: true, ids: [b._id] });
    expect((await api.updateBookmark(b._id, { tags: ['sea'], important: true })).tags).toEqual(['sea']);
    expect((await api.getTags()).map((t) => t._id)).toEqual(['sea']);
    expect((await api.getCollections()).map((c) => c.title)).toEqual(['Reading']);
    const links = await api.links({});
    expect(links.items).toEqual([[b._id, 'example.com/x', col._id]]);
    const removed = await api.removeBookmark(b._id);
    expect(removed).toMatchObject({ removed: true, collectionId: -99 });
    expect((await api.links({ since: links.cursor })).removed).toEqual([b._id]);
    expect(await api.urlExists(['http://example.com/x'])).toEqual({ result: false, ids: [] });
  });

  it('reads tag suggestions as names', async () => {
    const u = await real.createUser();
    const api = new TidemarkApi({ serverUrl: () => real.origin, tokens: { getAccessToken: async () => u.token, refreshAfterUnauthorized: async () => null } });
    await api.createBookmark({ link: 'https://tides.example/a', tags: ['ocean'] });
    const b = await api.createBookmark({ link: 'https://tides.example/b' });
    expect(await api.suggestTags(b._id)).toEqual(['ocean']);
  });
});

describe('an address that is not a Tidemark server', () => {
  const HTML = { 'content-type': 'text/html; charset=utf-8' };
  const NOT_TIDEMARK = /^This address did not answer like a Tidemark server \(it returned an HTML page\)\./;

  it('a web page answering 200 is an error saying so, not a missing field', async () => {
    scripted.always('GET /rest/v1/user', { status: 200, raw: '<!doctype html><title>Router</title><p>Welcome', headers: HTML });
    const { api } = client();
    const err = await api.getUser().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect((err as ApiClientError).kind).toBe('not-tidemark');
    expect((err as Error).message).toMatch(NOT_TIDEMARK);
  });

  it('JSON of another shape (no boolean result) is refused the same way', async () => {
    scripted.always('GET /rest/v1/user', { status: 200, body: { id: 7, name: 'someone else' } });
    const { api } = client();
    await expect(api.getUser()).rejects.toThrow(/did not answer like a Tidemark server \(it returned JSON of another shape\)/);
  });

  it('a 404 web page is "not a Tidemark server", not "HTTP 404"', async () => {
    scripted.always('GET /rest/v1/user', { status: 404, raw: '<html><body>Not Found</body></html>', headers: HTML });
    const { api } = client({ retries: 0 });
    await expect(api.getUser()).rejects.toThrow(NOT_TIDEMARK);
  });

  it('checkTidemarkServer: passes for the real server, refuses a web page, says when nothing answers', async () => {
    await expect(checkTidemarkServer(real.origin)).resolves.toBeUndefined();
    scripted.always('GET /rest/v1/user', { status: 200, raw: '<html>hello</html>', headers: HTML });
    await expect(checkTidemarkServer(scripted.origin)).rejects.toThrow(NOT_TIDEMARK);
    await expect(checkTidemarkServer('http://127.0.0.1:9', fetch, 2000)).rejects.toThrow(/Could not reach the Tidemark server/);
  });
});

describe('idempotent writes: retried only when repeating them is safe', () => {
  it('every write carries an Idempotency-Key, createCollection included, and keeps it across its retries', async () => {
    scripted.script('POST /rest/v1/collection', 'drop', { status: 200, body: { result: true, item: { _id: 3, title: 'Reading' } } });
    scripted.script('PUT /rest/v1/collection/3', { status: 200, body: { result: true, item: { _id: 3, title: 'Read' } } });
    scripted.script('PUT /rest/v1/collections/merge', { status: 200, body: { result: true, modified: 0 } });
    scripted.script('DELETE /rest/v1/collection/3', { status: 200, body: { result: true } });
    const { api } = client();
    await api.createCollection({ title: 'Reading' });
    await api.updateCollection(3, { title: 'Read' });
    await api.mergeCollections([4], 3);
    await api.removeCollection(3);
    const creates = scripted.requests('POST /rest/v1/collection');
    expect(creates).toHaveLength(2);
    expect(creates[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(creates[1].headers['idempotency-key']).toBe(creates[0].headers['idempotency-key']);
    for (const route of ['PUT /rest/v1/collection/3', 'PUT /rest/v1/collections/merge', 'DELETE /rest/v1/collection/3']) {
      expect(scripted.requests(route)[0].headers['idempotency-key'], route).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A new key per write: two writes are never taken for one.
    const keys = new Set([creates[0], ...['PUT /rest/v1/collection/3', 'PUT /rest/v1/collections/merge'].map((r) => scripted.requests(r)[0])].map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(3);
  });

  it('a write without a key is not repeated after its answer was lost; a read is', async () => {
    const { createHttp } = await import('../../lib/api/client/http.js');
    const delays: number[] = [];
    const http = createHttp({
      serverUrl: () => scripted.origin,
      tokens: { getAccessToken: async () => 't', refreshAfterUnauthorized: async () => null },
      retry: { retries: 3, baseDelayMs: 1 },
      sleep: async (ms) => void delays.push(ms),
    });
    scripted.always('POST /rest/v1/collection/9/sharing', 'drop');
    await expect(http('POST', '/collection/9/sharing', { body: { emails: ['a@b.example'] } })).rejects.toMatchObject({ kind: 'network' });
    expect(scripted.requests('POST /rest/v1/collection/9/sharing')).toHaveLength(1);
    scripted.always('POST /rest/v1/collection/9/sharing', { status: 502 });
    await expect(http('POST', '/collection/9/sharing', { body: {} })).rejects.toMatchObject({ status: 502 });
    expect(scripted.requests('POST /rest/v1/collection/9/sharing')).toHaveLength(2);
    scripted.script('POST /rest/v1/import/url/exists', 'drop', { status: 200, body: { result: false, ids: [] } });
    const { api } = client();
    expect(await api.urlExists(['https://a.example/'])).toEqual({ result: false, ids: [] });
    expect(scripted.requests('POST /rest/v1/import/url/exists')).toHaveLength(2);
  });

  it('against the real server, an answer lost on the way back does not make a second collection or bookmark', async () => {
    const u = await real.createUser();
    const lost = new Set(['POST /rest/v1/collection', 'POST /rest/v1/bookmark']);
    // The request reaches the server and is done there; its answer never reaches the client.
    const losingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const route = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`;
      if (lost.delete(route)) {
        await res.arrayBuffer();
        throw new TypeError('fetch failed: connection reset');
      }
      return res;
    };
    const api = new TidemarkApi({
      serverUrl: () => real.origin,
      tokens: { getAccessToken: async () => u.token, refreshAfterUnauthorized: async () => null },
      fetch: losingFetch,
      retry: { baseDelayMs: 1 },
    });
    const col = await api.createCollection({ title: 'Reading' });
    const b = await api.createBookmark({ link: 'https://tides.example/lost-answer', collection: { $id: col._id } });
    expect(lost.size).toBe(0);
    expect((await api.getCollections()).filter((c) => c.title === 'Reading')).toHaveLength(1);
    const listed = await real.api('GET', `/bookmarks/${col._id}`, { token: u.token });
    expect(listed.body.items.map((i: { _id: number }) => i._id)).toEqual([b._id]);
  });
});

describe('cookie mode (the web app: no token source)', () => {
  it('sends no Authorization header, and a 401 means the session ended: no refresh, no retry', async () => {
    scripted.script('GET /rest/v1/user', { status: 200, body: USER }, { status: 401, body: { result: false, errorMessage: 'Sign in first.' } });
    const api = new TidemarkApi({ serverUrl: () => scripted.origin, retry: { retries: 3, baseDelayMs: 1 } });
    expect((await api.getUser())._id).toBe(7);
    expect(scripted.requests('GET /rest/v1/user')[0]!.headers.authorization).toBeUndefined();
    const err = await api.getUser().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toMatchObject({ kind: 'unauthorized', status: 401, message: expect.stringMatching(/^You are signed out: your session has ended\./) });
    expect(scripted.requests('GET /rest/v1/user')).toHaveLength(2);
  });
});
