import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

describe('transport', () => {
  it('answers 401 with the envelope without a token', async () => {
    const res = await s.api('GET', '/user');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: false, status: 401 });
    expect(res.body.errorMessage).toMatch(/Bearer/);
  });

  it('answers 401 for a malformed or unknown token', async () => {
    expect((await s.api('GET', '/user', { token: 'nope' })).status).toBe(401);
    expect((await s.api('GET', '/user', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const { token } = await s.createUser();
    const res = await s.api('GET', '/nothing-here', { token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: false, status: 404 });
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await fetch(`${s.url}/openapi.json`).then((r) => r.json());
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of ['/rest/v1/bookmark/{id}', '/rest/v1/bookmarks/{collectionId}', '/rest/v1/collections', '/rest/v1/user']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    const page = await fetch(`${s.url}/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger/i);
  });

  it('allows extension origins through CORS and exposes the rate-limit headers', async () => {
    const res = await fetch(`${s.url}/user`, {
      method: 'OPTIONS',
      headers: {
        origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('chrome-extension://abcdefghijklmnopabcdefghijklmnop');
    expect(res.headers.get('access-control-allow-methods')).toMatch(/PUT/);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toMatch(/origin/i);
    // An OPTIONS that is no preflight gets a clear error; one from another origin is not served (405).
    const notPreflight = await s.api('OPTIONS', '/user', { headers: { origin: 'moz-extension://1234-abcd' } });
    expect(notPreflight.status).toBe(400);
    expect(notPreflight.body).toMatchObject({ result: false, errorMessage: expect.stringMatching(/Access-Control-Request-Method/) });
    const foreign = await s.api('OPTIONS', '/user', { headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(foreign.status).toBe(405);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const { token } = await s.createUser();
    const get = await fetch(`${s.url}/user`, {
      headers: { origin: 'moz-extension://1234-abcd', authorization: `Bearer ${token}` },
    });
    expect(get.headers.get('access-control-expose-headers')).toMatch(/x-ratelimit-remaining/);
    const evil = await fetch(`${s.url}/user`, { headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    // Clients that are not browsers send no Origin and get no CORS headers at all.
    const plain = await fetch(`${s.url}/user`, { headers: { authorization: `Bearer ${token}` } });
    expect([...plain.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(plain.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });
});
