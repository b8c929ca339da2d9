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
