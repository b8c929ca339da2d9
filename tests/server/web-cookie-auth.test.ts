// The web app calls the API with the browser's session cookie. The API takes it only from this
// site's own pages: a page elsewhere (another port is another origin) cannot use a signed-in
// browser's cookie to change anything (403 with the error envelope) or to read anything (401).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApiResponse, startServer, type ApiResponse, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

let s: TestServer;
let pages: http.Server;
let pagesOrigin: string;
const password = 'correct horse battery';
let user: { id: number; email: string; token: string };
const EVIL = 'http://127.0.0.1:1';

beforeAll(async () => {
  // A page to save by its address (the reader may reach loopback only with allowPrivateNetwork).
  pages = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><head><title>Tide tables</title><meta name="description" content="When the sea comes in."><meta property="og:image" content="https://img.example/tide.png"></head><body><p>Tides.</p></body></html>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  s = await startServer({ allowPrivateNetwork: true });
  user = await s.createUser(undefined, { password });
});
afterAll(async () => {
  await s?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

async function signedIn(): Promise<WebClient> {
  const web = new WebClient(s.origin);
  const res = await web.signIn(user.email, password);
  expect(res.status).toBe(303);
  expect(web.cookies.get('tidemark_session')).toBeTruthy();
  return web;
}

/** An API call as a browser makes it: the cookie jar of `web`, and the headers a browser adds. */
async function call(web: WebClient, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${s.url}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  return readApiResponse(res);
}

const sameOrigin = () => ({ 'sec-fetch-site': 'same-origin', origin: s.origin });
const crossSite = { 'sec-fetch-site': 'cross-site', origin: EVIL };

describe('the session cookie on the API', () => {
  it('signs in requests from the site itself: reads and writes', async () => {
    const web = await signedIn();
    const me = await call(web, 'GET', '/user', { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(me.status).toBe(200);
    expect(me.body.user._id).toBe(user.id);

    const created = await call(web, 'POST', '/collection', { headers: sameOrigin(), body: { title: 'From the web app' } });
    expect(created.status).toBe(200);
    expect(created.body.item.user.$id).toBe(user.id);
    const saved = await call(web, 'POST', '/bookmark', { headers: sameOrigin(), body: { link: 'https://example.com/web', collection: { $id: created.body.item._id } } });
    expect(saved.status).toBe(200);
    const removed = await call(web, 'DELETE', `/bookmark/${saved.body.item._id}`, { headers: sameOrigin() });
    expect(removed.status).toBe(200);
  });

  it('accepts a same-origin change whose Origin is hidden (no-referrer pages send Origin: null) when Sec-Fetch-Site says same-origin', async () => {
    const web = await signedIn();
    const res = await call(web, 'POST', '/collection', { headers: { 'sec-fetch-site': 'same-origin', origin: 'null' }, body: { title: 'Hidden origin' } });
    expect(res.status).toBe(200);
  });

  it('without Sec-Fetch-Site (older browsers) goes by Origin: the own origin is accepted, another refused', async () => {
    const web = await signedIn();
    expect((await call(web, 'POST', '/collection', { headers: { origin: s.origin }, body: { title: 'Old browser' } })).status).toBe(200);
    const evil = await call(web, 'POST', '/collection', { headers: { origin: EVIL }, body: { title: 'Evil' } });
    expect(evil.status).toBe(403);
    expect(evil.body.result).toBe(false);
    expect(evil.body.errorMessage).toContain(EVIL);
  });

  it.each(['POST', 'PUT', 'DELETE'])('refuses a %s from another site with 403 and the envelope, and changes nothing', async (method) => {
    const web = await signedIn();
    const mine = await s.createItem('/collection', user.token, { title: `Keep me ${method}` });
    const path = method === 'POST' ? '/collection' : `/collection/${mine._id}`;
    const body = method === 'DELETE' ? undefined : { title: 'Changed by another site' };
    for (const headers of [crossSite, { 'sec-fetch-site': 'same-site', origin: 'http://sub.127.0.0.1.example' }, { origin: EVIL }, {}] as Record<string, string>[]) {
      const res = await call(web, method, path, { headers, body });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toMatchObject({ result: false, status: 403, errorMessage: expect.stringMatching(/sign-in cookie, which only this site's own pages may use: nothing was changed/) });
    }
    const after = await s.api('GET', `/collection/${mine._id}`, { token: user.token });
    expect(after.body.item.title).toBe(`Keep me ${method}`);
    const titles = (await s.api('GET', '/collections', { token: user.token })).body.items.map((c: { title: string }) => c.title);
    expect(titles).not.toContain('Changed by another site');
  });

  it('treats a read from another site as not signed in (401), and a public collection stays readable to it', async () => {
    const web = await signedIn();
    for (const headers of [crossSite, { 'sec-fetch-site': 'same-site' }, { origin: EVIL }] as Record<string, string>[]) {
      const res = await call(web, 'GET', '/user', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.result).toBe(false);
      expect(res.body.errorMessage).toMatch(/only on requests from its own pages/);
    }
    const open = await s.createItem('/collection', user.token, { title: 'Open', public: true });
    const closed = await s.createItem('/collection', user.token, { title: 'Closed' });
    expect((await call(web, 'GET', `/collection/${open._id}`, { headers: crossSite })).status).toBe(200);
    expect((await call(web, 'GET', `/collection/${closed._id}`, { headers: crossSite })).status).toBe(401);
  });

  it('sends no CORS header that would let another origin read a cookie-signed answer', async () => {
    const web = await signedIn();
    const res = await fetch(`${s.url}/user`, { headers: { cookie: `tidemark_session=${web.cookies.get('tidemark_session')}`, 'sec-fetch-site': 'same-origin', origin: EVIL } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await fetch(`${s.url}/collection`, { method: 'OPTIONS', headers: { origin: EVIL, 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // The extension's origin gets CORS, but never credentials: it calls with its bearer token.
    const ext = await fetch(`${s.url}/user`, { headers: { origin: 'chrome-extension://abcdefghijklmnop', authorization: `Bearer ${user.token}` } });
    expect(ext.headers.get('access-control-allow-origin')).toBe('chrome-extension://abcdefghijklmnop');
    expect(ext.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lets a bearer token take precedence over the cookie, as before', async () => {
    const web = await signedIn();
    const other = await s.createUser();
    const res = await call(web, 'GET', '/user', { headers: { ...crossSite, authorization: `Bearer ${other.token}` } });
    expect(res.status).toBe(200);
    expect(res.body.user._id).toBe(other.id);
    const bad = await call(web, 'GET', '/user', { headers: { 'sec-fetch-site': 'same-origin', authorization: 'Bearer not-a-token' } });
    expect(bad.status).toBe(401);
    const write = await call(web, 'POST', '/collection', { headers: { ...crossSite, authorization: `Bearer ${other.token}` }, body: { title: 'Bearer from anywhere' } });
    expect(write.status).toBe(200);
    expect(write.body.item.user.$id).toBe(other.id);
  });

  it('no longer accepts the cookie once its browser signed out', async () => {
    const web = await signedIn();
    const cookie = web.cookies.get('tidemark_session')!;
    await web.get('/account');
    const out = await web.post('/signout', {});
    expect(out.status).toBe(303);
    const res = await fetch(`${s.url}/user`, { headers: { cookie: `tidemark_session=${cookie}`, 'sec-fetch-site': 'same-origin' } });
    expect(res.status).toBe(401);
    expect((await res.json()).errorMessage).toMatch(/session has ended/);
  });

  it('"Sign out everywhere" ends every browser\'s session, for the pages and the API', async () => {
    const phone = await signedIn();
    const laptop = await signedIn();
    const phoneCookie = phone.cookies.get('tidemark_session')!;
    expect((await call(phone, 'GET', '/user', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    const account = await laptop.get('/account');
    expect(account.text).toContain('action="/account/signout-everywhere"');
    const out = await laptop.post('/account/signout-everywhere', {});
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${s.origin}/signin`);
    expect(laptop.cookies.has('tidemark_session')).toBe(false);
    const res = await fetch(`${s.url}/user`, { headers: { cookie: `tidemark_session=${phoneCookie}`, 'sec-fetch-site': 'same-origin' } });
    expect(res.status).toBe(401);
    expect((await phone.get('/account')).status).toBe(303);
    // Tokens are not sessions: the extension keeps working.
    expect((await s.api('GET', '/user', { token: user.token })).status).toBe(200);
  });

  it('"Sign out everywhere" needs the form\'s CSRF token', async () => {
    const web = await signedIn();
    await web.get('/account');
    const res = await web.post('/account/signout-everywhere', { _csrf: null });
    expect(res.status).toBe(403);
    expect((await call(web, 'GET', '/user', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });

  it('keeps the web session when the password is changed through the API with the cookie', async () => {
    const own = await s.createUser(undefined, { password });
    const web = new WebClient(s.origin);
    await web.signIn(own.email, password);
    const other = new WebClient(s.origin);
    await other.signIn(own.email, password);
    const res = await call(web, 'PUT', '/user', { headers: sameOrigin(), body: { oldpassword: password, newpassword: 'another long password' } });
    expect(res.status).toBe(200);
    expect((await call(web, 'GET', '/user', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect((await call(other, 'GET', '/user', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(401);
  });
});

describe('save by address, as the web app does it with the cookie', () => {
  it('reads the page, finds no duplicate, saves, and then finds the saved one', async () => {
    const web = await signedIn();
    const read = { headers: { 'sec-fetch-site': 'same-origin' } };
    const address = `${pagesOrigin}/tides?utm_source=share`;
    const parsed = await call(web, 'GET', `/import/url/parse?url=${encodeURIComponent(address)}`, read);
    expect(parsed.status).toBe(200);
    expect(parsed.body.result).toBe(true);
    expect(parsed.body.item).toMatchObject({ title: 'Tide tables', excerpt: 'When the sea comes in.', type: 'link' });
    expect(parsed.body.item.media).toContainEqual({ type: 'image', link: 'https://img.example/tide.png' });

    const before = await call(web, 'GET', `/import/url/exists?url=${encodeURIComponent(address)}`, read);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ result: false, ids: [] });

    const into = await call(web, 'POST', '/collection', { headers: sameOrigin(), body: { title: 'Sea' } });
    const saved = await call(web, 'POST', '/bookmark', {
      headers: sameOrigin(),
      body: { link: address, title: parsed.body.item.title, excerpt: parsed.body.item.excerpt, cover: parsed.body.item.media[0].link, tags: ['sea'], collection: { $id: into.body.item._id } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.item).toMatchObject({ title: 'Tide tables', tags: ['sea'], collectionId: into.body.item._id, cover: 'https://img.example/tide.png' });

    // The same page under another spelling (tracking parameter gone) is found, not saved twice.
    const after = await call(web, 'POST', '/import/url/exists', { headers: sameOrigin(), body: { urls: [`${pagesOrigin}/tides`] } });
    expect(after.body).toEqual({ result: true, ids: [saved.body.item._id], duplicates: [{ _id: saved.body.item._id, link: address }] });
  });

  it('refuses each of these calls from another site', async () => {
    const web = await signedIn();
    expect((await call(web, 'GET', `/import/url/parse?url=${encodeURIComponent(`${pagesOrigin}/x`)}`, { headers: crossSite })).status).toBe(401);
    expect((await call(web, 'GET', `/import/url/exists?url=${encodeURIComponent(`${pagesOrigin}/x`)}`, { headers: crossSite })).status).toBe(401);
    expect((await call(web, 'POST', '/import/url/exists', { headers: crossSite, body: { urls: ['https://example.com/'] } })).status).toBe(403);
    expect((await call(web, 'POST', '/bookmark', { headers: crossSite, body: { link: 'https://example.com/forced' } })).status).toBe(403);
  });
});
