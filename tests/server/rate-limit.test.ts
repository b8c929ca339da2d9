// Rate limits on every answer: 401s and unknown-route 404s carry the x-ratelimit-* headers, and
// requests with a bad token and POST /oauth/access_token are limited per IP address (small bucket),
// while signed-in callers keep their own per-user count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

let s: TestServer;
const clock = new TestClock();
const MAIN = 12;
const SMALL = 5;

function expectHeaders(headers: Headers, limit: number) {
  expect(headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(Number(headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
  expect(Number(headers.get('x-ratelimit-reset'))).toBeGreaterThan(clock.now() / 1000);
}

beforeAll(async () => {
  s = await startServer({ clock, rateLimit: { perMinute: MAIN, smallPerMinute: SMALL } });
});
afterAll(async () => s.close());

describe('rate limits on every answer', () => {
  it('a 401 (no token, bad token) and an unknown route 404 carry the headers', async () => {
    const none = await s.api('GET', '/user', { token: null });
    expect(none.status).toBe(401);
    expectHeaders(none.headers, SMALL);
    const bad = await s.api('GET', '/user', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expectHeaders(bad.headers, SMALL);
    const missing = await s.api('GET', '/no/such/route', { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ result: false, status: 404 });
    expectHeaders(missing.headers, MAIN);
    const page = await fetch(`${s.origin}/definitely-not-here`);
    expect(page.status).toBe(404);
    expectHeaders(page.headers, MAIN);
    clock.advance(61_000);
  });

  it('bad-token requests are limited per IP; a signed-in user from that IP is not affected', async () => {
    const user = await s.createUser();
    const statuses: number[] = [];
    let last: Headers | undefined;
    for (let i = 0; i < SMALL + 3; i++) {
      const res = await s.api('GET', '/bookmarks/0', { token: `guess-${i}` });
      statuses.push(res.status);
      last = res.headers;
      if (res.status === 429) expect(res.body).toMatchObject({ result: false, status: 429 });
    }
    expect(statuses).toEqual([...Array(SMALL).fill(401), 429, 429, 429]);
    expect(Number(last!.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.get('x-ratelimit-remaining')).toBe('0');
    const ok = await s.api('GET', '/user', { token: user.token });
    expect(ok.status).toBe(200);
    expectHeaders(ok.headers, MAIN);
    // Next minute, bad tokens get their 401 again.
    clock.advance(61_000);
    expect((await s.api('GET', '/user', { token: 'guess-again' })).status).toBe(401);
    clock.advance(61_000);
  });

  it('POST /oauth/access_token is limited per IP', async () => {
    const statuses: number[] = [];
    let body: any;
    let headers: Headers | undefined;
    for (let i = 0; i < SMALL + 2; i++) {
      const res = await fetch(`${s.origin}/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'authorization_code', client_id: 'x', client_secret: 'y', code: `c${i}`, redirect_uri: 'https://a.example/cb' }),
      });
      statuses.push(res.status);
      headers = res.headers;
      body = await res.json();
      expectHeaders(res.headers, SMALL);
    }
    expect(statuses.slice(0, SMALL).every((st) => st === 400 || st === 401)).toBe(true);
    expect(statuses.slice(SMALL)).toEqual([429, 429]);
    expect(body).toMatchObject({ result: false, status: 429 });
    expect(Number(headers!.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(61_000);
  });

  it('unknown routes count too: a flood of 404s ends in 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < MAIN + 2; i++) statuses.push((await s.api('GET', `/nothing-${i}`, { token: null })).status);
    expect(statuses).toEqual([...Array(MAIN).fill(404), 429, 429]);
    clock.advance(61_000);
  });
});

describe('unsupported methods', () => {
  it('a known path with a method it does not take answers 405, the envelope and Allow', async () => {
    const res = await s.api('PATCH', '/bookmark/1', { token: null });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ result: false, status: 405 });
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(MAIN));
    const unknown = await s.api('PATCH', '/no/such/thing', { token: null });
    expect(unknown.status).toBe(404);
  });
});
