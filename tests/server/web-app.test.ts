// The web app as the server serves it: the library at / for a signed-in browser (sign-in first,
// then back to the very address), the build's files with their cache lifetimes, a strict CSP on
// every answer, a clear page when there is no build, the share target and the bookmarklet.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

let s: TestServer;
let bare: TestServer;
let build: string;
const password = 'correct horse battery';
let email: string;
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-3f9a1c.js"></script><link rel="manifest" href="/manifest.webmanifest"></head><body><div id="app"></div></body></html>';

beforeAll(async () => {
  build = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-web-build-'));
  fs.mkdirSync(path.join(build, 'assets'));
  fs.mkdirSync(path.join(build, 'icons'));
  fs.writeFileSync(path.join(build, 'index.html'), INDEX);
  fs.writeFileSync(path.join(build, 'assets', 'index-3f9a1c.js'), 'console.log("library");\n');
  fs.writeFileSync(path.join(build, 'assets', 'index-77b2e0.css'), 'body{margin:0}\n');
  fs.writeFileSync(path.join(build, 'manifest.webmanifest'), JSON.stringify({ name: 'Tidemark', start_url: '/' }));
  fs.writeFileSync(path.join(build, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');
  fs.writeFileSync(path.join(build, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  fs.writeFileSync(path.join(build, '.env'), 'SECRET=1');
  s = await startServer({ webAppDir: build });
  bare = await startServer();
  email = (await s.createUser(undefined, { password })).email;
  await bare.createUser(email, { password });
});
afterAll(async () => {
  await s?.close();
  await bare?.close();
  fs.rmSync(build, { recursive: true, force: true });
});

async function signedIn(server = s): Promise<WebClient> {
  const web = new WebClient(server.origin);
  expect((await web.signIn(email, password, '/')).status).toBe(303);
  return web;
}

/** Every directive of a CSP header, by name. */
function csp(headers: Headers): Map<string, string> {
  const value = headers.get('content-security-policy');
  expect(value, 'Content-Security-Policy').toBeTruthy();
  return new Map(value!.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...rest]) => [name, rest.join(' ')]));
}

function expectStrictCsp(headers: Headers): void {
  const d = csp(headers);
  expect(d.get('script-src')).toBe("'self'");
  expect(d.get('object-src')).toBe("'none'");
  expect(d.get('base-uri')).toBe("'none'");
  expect(d.get('frame-ancestors')).toBe("'none'");
  // Images from any web site: the reader shows articles' images (without a referrer); an image runs nothing.
  expect(d.get('img-src')).toBe("'self' https: http: data:");
  expect(d.get('connect-src')).toBe("'self'");
  expect(d.get('worker-src')).toBe("'self'");
  expect(d.get('manifest-src')).toBe("'self'");
  expect(d.get('default-src')).toBe("'none'");
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}

/** Pages of the server itself (no app code): no script may run at all. */
function expectNoScriptCsp(headers: Headers): void {
  const d = csp(headers);
  expect(d.get('default-src')).toBe("'none'");
  expect(d.has('script-src')).toBe(false);
  expect(d.get('frame-ancestors')).toBe("'none'");
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}

describe('the library at /', () => {
  it('sends a browser that is not signed in to sign in, with the whole deep link, and back there afterwards', async () => {
    const web = new WebClient(s.origin);
    const first = await web.get('/?collection=12&q=%23tag');
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/signin?next=%2F%3Fcollection%3D12%26q%3D%2523tag');
    const form = await web.get(first.location!);
    expect(form.status).toBe(200);
    expect(web.hidden('next')).toBe('/?collection=12&q=%23tag');
    const after = await web.post('/signin', { email, password, next: web.hidden('next')! });
    expect(after.status).toBe(303);
    expect(after.location).toBe(`${s.origin}/?collection=12&q=%23tag`);
    const app = await web.get(after.location!);
    expect(app.status).toBe(200);
    expect(app.text).toBe(INDEX);
  });

  it('serves index.html to a signed-in browser: no-cache, strict CSP, nosniff, no framing', async () => {
    const web = await signedIn();
    const res = await web.get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expectStrictCsp(res.headers);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    // Revalidation: the same file answers 304.
    const again = await fetch(`${s.origin}/`, { headers: { cookie: `tidemark_session=${web.cookies.get('tidemark_session')}`, 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('leads to the library after sign-in when no next is given, since the app is built', async () => {
    const web = new WebClient(s.origin);
    await web.get('/signin');
    expect(web.hidden('next')).toBe('/');
    const res = await web.post('/signin', { email, password, next: '' });
    expect(res.location).toBe(`${s.origin}/`);
    expect((await web.get('/signin?next=%2F%2Fevil.example')).location).toBe(`${s.origin}/`);
  });

  it('without a build: / says how to build it (503) to a signed-in browser, and sign-in leads to the account page', async () => {
    const web = new WebClient(bare.origin);
    const res = await web.signIn(email, password, '');
    expect(res.location).toBe(`${bare.origin}/account`);
    const page = await web.get('/');
    expect(page.status).toBe(503);
    expectNoScriptCsp(page.headers);
    expect(page.text).toContain('vite build -c vite.web.config.ts');
    expect(page.text).toContain('dist/web/');
    const anonymous = await new WebClient(bare.origin).get('/?collection=3');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/signin?next=%2F%3Fcollection%3D3');
    for (const p of ['/sw.js', '/manifest.webmanifest', '/assets/index-3f9a1c.js']) expect((await fetch(bare.origin + p)).status).toBe(404);
  });

  it('links the account page to the library', async () => {
    const web = await signedIn();
    const page = await web.get('/account');
    const { document } = parseHTML(page.text);
    expect(document.querySelector('a[href="/"]')?.textContent).toBe('Open your library');
  });
});

describe('the build\'s files', () => {
  it('serves hashed assets for a year, immutable, to anyone (the code holds no data)', async () => {
    for (const [file, type] of [
      ['/assets/index-3f9a1c.js', 'text/javascript; charset=utf-8'],
      ['/assets/index-77b2e0.css', 'text/css; charset=utf-8'],
    ]) {
      const res = await fetch(s.origin + file);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expectStrictCsp(res.headers);
    }
    expect(await (await fetch(`${s.origin}/assets/index-3f9a1c.js`)).text()).toBe('console.log("library");\n');
  });

  it('serves the manifest and the service worker from the build, checked on every use', async () => {
    const manifest = await fetch(`${s.origin}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect((await manifest.json()).name).toBe('Tidemark');
    const sw = await fetch(`${s.origin}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expectStrictCsp(sw.headers);
    const icon = await fetch(`${s.origin}/icons/icon-192.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
  });

  it.each([
    '/assets/missing-123.js',
    '/assets/../index.html',
    '/assets/%2e%2e/index.html',
    '/assets/..%2findex.html',
    '/assets/.env',
    '/assets/%2e%2e%2f.env',
    '/icons/../../etc/passwd',
    '/assets/',
  ])('answers %s with 404, never a file outside assets/', async (p) => {
    const res = await fetch(s.origin + p);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('SECRET');
  });
});

describe('the share target', () => {
  const share = (q: Record<string, string>) => `/share?${new URLSearchParams(q)}`;
  const saveForm = (location: string | null) => {
    const url = new URL(location!);
    expect(url.origin).toBe(s.origin);
    expect(url.pathname).toBe('/');
    return { save: url.searchParams.get('save'), title: url.searchParams.get('title') };
  };

  it('sends a signed-in browser to the save form with the shared address and title', async () => {
    const web = await signedIn();
    const res = await web.get(share({ url: 'https://example.com/a?b=1&c=%23d', title: 'A & B', text: '' }));
    expect(res.status).toBe(303);
    expect(saveForm(res.location)).toEqual({ save: 'https://example.com/a?b=1&c=%23d', title: 'A & B' });
  });

  it('finds the address inside text (as Android sends it), without the sentence\'s punctuation', async () => {
    const web = await signedIn();
    expect(saveForm((await web.get(share({ title: 'Good read', text: 'Look at this: https://example.org/post/1. Really.' }))).location)).toEqual({
      save: 'https://example.org/post/1',
      title: 'Good read',
    });
    expect(saveForm((await web.get(share({ text: 'Read (https://example.org/x)' }))).location)).toEqual({ save: 'https://example.org/x', title: 'Read ( )' });
    expect(saveForm((await web.get(share({ url: 'not a url', title: 'https://example.net/t' }))).location)).toEqual({ save: 'https://example.net/t', title: null });
  });

  it.each([
    ['javascript:', { url: 'javascript:alert(1)' }],
    ['text without an address', { text: 'no address here' }],
    ['ftp:', { url: 'ftp://example.com/x' }],
    ['an address over 4096 characters', { url: `https://example.com/${'a'.repeat(5000)}` }],
    ['nothing', {}],
  ])('refuses a share of %s with a page saying so (400)', async (_label, q) => {
    const web = await signedIn();
    const res = await web.get(share(q as Record<string, string>));
    expect(res.status).toBe(400);
    expect(res.text).toContain('holds no web address');
    expectNoScriptCsp(res.headers);
  });

  it('sends a browser that is not signed in to sign in, then to the filled form', async () => {
    const web = new WebClient(s.origin);
    const res = await web.get(share({ url: 'https://example.com/p', title: 'P' }));
    expect(res.status).toBe(303);
    const signin = new URL(res.location!);
    expect(signin.pathname).toBe('/signin');
    expect(signin.searchParams.get('next')).toBe('/?save=https%3A%2F%2Fexample.com%2Fp&title=P');
    await web.get(res.location!);
    const after = await web.post('/signin', { email, password, next: web.hidden('next')! });
    expect(saveForm(after.location)).toEqual({ save: 'https://example.com/p', title: 'P' });
  });

  it('shows a bookmarklet on the account page that opens the share target, with a sentence on its use', async () => {
    const web = await signedIn();
    const { document } = parseHTML((await web.get('/account')).text);
    const link = document.querySelector('a.bookmarklet')!;
    const href = link.getAttribute('href')!;
    expect(href.startsWith('javascript:')).toBe(true);
    expect(decodeURIComponent(href)).toContain(`window.open("${s.origin}/share?url="+encodeURIComponent(location.href)+'&title='+encodeURIComponent(document.title),'_blank')`);
    expect(link.parentElement!.textContent).toMatch(/Drag this link to your browser's bookmarks bar/);
  });
});

describe('next= never leaves the site, for the web app\'s links too', () => {
  const HOSTILE = ['//evil.example', '/\\evil.example', 'https://evil.example/', 'https:evil.example', '%2F%2Fevil.example', '/%2F/evil.example', '/%5Cevil.example', '\\\\evil.example', 'javascript:alert(1)', '/.//evil.example'];
  it.each(HOSTILE)('next=%j after sign-in goes to the library, on this site', async (next) => {
    const web = new WebClient(s.origin);
    const res = await web.signIn(email, password, next);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const again = await web.get(`/signin?next=${encodeURIComponent(next)}`);
    expect(again.headers.get('location')).toBe('/');
  });

  it('the header\'s Sign in and Sign up links keep a deep link on its way', async () => {
    const web = new WebClient(s.origin);
    const deep = '/?collection=12&q=%23tag';
    const { document } = parseHTML((await web.get(`/signin?next=${encodeURIComponent(deep)}`)).text);
    const links = [...document.querySelectorAll('header nav a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual([`/signin?next=${encodeURIComponent(deep)}`, `/signup?next=${encodeURIComponent(deep)}`]);
  });

  it('next= after signing up goes to the library too, for every one of them', async () => {
    for (const [i, next] of HOSTILE.entries()) {
      const web = new WebClient(s.origin);
      await web.get(`/signup?next=${encodeURIComponent(next)}`);
      const res = await web.post('/signup', { name: 'New', email: `next-${i}@example.test`, password, next });
      expect(res.status, `next=${next}`).toBe(303);
      expect(res.headers.get('location'), `next=${next}`).toBe('/');
    }
  });

  it.each(['https://evil.example/', '//evil.example/x', 'https:\\\\evil.example'])('a share of %j only ever leads to the save form on this site', async (url) => {
    const web = await signedIn();
    const res = await web.get(`/share?url=${encodeURIComponent(url)}&text=${encodeURIComponent(url)}`);
    if (res.status === 303) {
      expect(new URL(res.location!).origin).toBe(s.origin);
      expect(res.headers.get('location')!.startsWith('/?save=')).toBe(true);
    } else expect(res.status).toBe(400);
  });
});
