// After signing in (or when already signed in) the pages send the browser to `next`, which must be
// a path on this site. A table of tricky inputs, each tried on GET /signin, POST /signin and
// GET /signup: whatever the spelling, the Location never leaves the site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

let s: TestServer;
const password = 'correct horse battery';
let email: string;

/** Inputs that must fall back to the account page. */
const HOSTILE = [
  '//evil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  '/a/..//evil.example',
  '/a/b/../..//evil.example',
  '/././/evil.example/path?x=1',
  '/\\evil.example',
  '/\\/evil.example',
  '/%5cevil.example',
  '/%2f/evil.example',
  '/\t/evil.example',
  '/%09/evil.example'.replace('%09', '\t'),
  'https://evil.example/',
  'http:evil.example',
  'evil.example',
  'javascript:alert(1)',
  '/\u0000/evil.example',
];
/** Inputs that are paths on this site, and where they lead. */
const SAFE: [string, string][] = [
  ['/apps', '/apps'],
  ['/account?tab=email#top', '/account?tab=email#top'],
  ['/a/../apps', '/apps'],
  ['/oauth/authorize?client_id=x&redirect_uri=https%3A%2F%2Fapp.example%2Fcb', '/oauth/authorize?client_id=x&redirect_uri=https%3A%2F%2Fapp.example%2Fcb'],
  ['/%2e/apps', '/apps'],
];

/** The Location header as sent (not resolved): what a browser would follow. */
function target(location: string | null): string {
  expect(location).not.toBeNull();
  const url = new URL(location!);
  expect(url.origin, `Location ${location} leaves the site`).toBe(s.origin);
  return url.pathname + url.search + url.hash;
}

beforeAll(async () => {
  s = await startServer();
  email = (await s.createUser(undefined, { password })).email;
});
afterAll(async () => s.close());

describe('next= after sign-in never leaves the site', () => {
  it.each(HOSTILE)('POST /signin with next=%j goes to /account', async (next) => {
    const web = new WebClient(s.origin);
    const res = await web.signIn(email, password, next);
    expect(res.status).toBe(303);
    const raw = res.headers.get('location')!;
    expect(raw.startsWith('//')).toBe(false);
    expect(target(res.location)).toBe('/account');
  });

  it.each(HOSTILE)('GET /signin and GET /signup when signed in, next=%j: /account', async (next) => {
    const web = new WebClient(s.origin);
    await web.signIn(email, password);
    for (const page of ['/signin', '/signup']) {
      const res = await web.get(`${page}?next=${encodeURIComponent(next)}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')!.startsWith('//')).toBe(false);
      expect(target(res.location)).toBe('/account');
    }
  });

  it.each(SAFE)('a path on this site, next=%j, is kept (%s)', async (next, where) => {
    const web = new WebClient(s.origin);
    expect(target((await web.signIn(email, password, next)).location)).toBe(where);
    expect(target((await web.get(`/signin?next=${encodeURIComponent(next)}`)).location)).toBe(where);
    expect(target((await web.get(`/signup?next=${encodeURIComponent(next)}`)).location)).toBe(where);
  });
});
