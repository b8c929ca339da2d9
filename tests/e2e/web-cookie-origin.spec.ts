// In Chromium: the web app's own pages call the API with the session cookie; a page on another port
// (another origin, though the same site, so SameSite=Lax still sends the cookie) cannot use it to
// change anything or to read anything.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let build: string;
let other: http.Server;
let otherOrigin: string;
const password = 'correct horse battery';
const email = 'web-cookie@example.test';

// The stand-in app: what any build of the web app does, a read and a write with the cookie.
const APP_JS = `
const read = await fetch('/rest/v1/user');
const write = await fetch('/rest/v1/collection', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'From the app' }) });
document.title = 'app ' + read.status + ' ' + write.status;
`;

/** A page elsewhere trying the same calls, with credentials, in every way a page can send them. */
function otherPage(target: string): string {
  return `<!doctype html><script>
(async () => {
  const out = [];
  const attempt = async (name, url, init) => {
    try { const r = await fetch(url, init); out.push(name + ' ' + (r.type === 'opaque' ? 'opaque' : r.status)); }
    catch { out.push(name + ' unreadable'); }
  };
  await attempt('cors-post', '${target}/rest/v1/collection', { method: 'POST', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"title":"From another origin"}' });
  await attempt('no-cors-post', '${target}/rest/v1/collection', { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"title":"From another origin, no-cors"}' });
  await attempt('cors-get', '${target}/rest/v1/user', { credentials: 'include' });
  document.title = 'other ' + out.join(', ');
})();
</script>`;
}

/**
 * A form elsewhere posting to the API as soon as it loads: a top-level navigation, which carries the
 * cookie (the two ports are one site, so SameSite=Lax sends it) and needs no CORS. text/plain lets
 * the body be JSON: the field's name and value join as `{"title":"From a form","x":"="}`.
 */
function apiForm(target: string): string {
  return `<!doctype html><form method="post" action="${target}/rest/v1/collection" enctype="text/plain">
<input type="hidden" name='{"title":"From a form","x":"' value='"}'></form>
<script>document.forms[0].submit();</script>`;
}

/** A form elsewhere posting to the account page's "Sign out everywhere" (it cannot know the page's form token). */
function accountForm(target: string): string {
  return `<!doctype html><form method="post" action="${target}/account/signout-everywhere"></form>
<script>document.forms[0].submit();</script>`;
}

test.beforeAll(async () => {
  build = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-web-build-'));
  fs.mkdirSync(path.join(build, 'assets'));
  fs.writeFileSync(path.join(build, 'index.html'), '<!doctype html><title>loading</title><script type="module" src="/assets/app-1a2b3c.js"></script>');
  fs.writeFileSync(path.join(build, 'assets', 'app-1a2b3c.js'), APP_JS);
  s = await startServer({ webAppDir: build });
  await s.createUser(email, { password });
  other = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/form-api' ? apiForm(s.origin) : req.url === '/form-account' ? accountForm(s.origin) : otherPage(s.origin));
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await s?.close();
  await new Promise((resolve) => other?.close(resolve));
  fs.rmSync(build, { recursive: true, force: true });
});

test('the cookie works from the app and is refused from a page on another port', async ({ page }) => {
  const answers: { from: string; method: string; path: string; status: number }[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/rest/v1/')) answers.push({ from: new URL(r.frame().url()).origin, method: r.request().method(), path: new URL(r.url()).pathname, status: r.status() });
  });

  await page.goto(`${s.origin}/?collection=1`);
  await expect(page).toHaveURL(/\/signin\?next=%2F%3Fcollection%3D1$/);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await expect(page).toHaveURL(`${s.origin}/?collection=1`);
  await expect(page).toHaveTitle('app 200 200');

  await page.goto(otherOrigin);
  await expect(page).toHaveTitle(/^other /);
  // The answers are unreadable there (no CORS for this origin) ...
  expect(await page.title()).toBe('other cors-post unreadable, no-cors-post opaque, cors-get unreadable');
  // ... and the server refused the writes: only the app's collection exists.
  const titles = (await s.sql<{ title: string }>('SELECT title FROM collections')).map((r) => r.title);
  expect(titles).toEqual(['From the app']);
  // What the server answered, as the browser received it (Chromium reports the no-cors answer; the
  // CORS ones fail before they reach the page): the write was refused by the cookie rule, 403,
  // before its text/plain body was even read.
  const fromOther = answers.filter((a) => a.from === otherOrigin);
  expect(fromOther).toContainEqual({ from: otherOrigin, method: 'POST', path: '/rest/v1/collection', status: 403 });
  for (const a of fromOther) expect(a.status).toBeGreaterThanOrEqual(400);
  expect(answers.filter((a) => a.from === s.origin).map((a) => a.status)).toEqual([200, 200]);
});

test('forms on a page on another port cannot post with the cookie: the API refuses, the account pages refuse', async ({ page }) => {
  await page.goto(`${s.origin}/signin`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await expect(page).toHaveURL(`${s.origin}/`);
  await expect(page).toHaveTitle('app 200 200');
  const collectionsBefore = (await s.sql<{ title: string }>('SELECT title FROM collections')).map((r) => r.title);

  // A form posting JSON-looking text to the API: 403 with the error envelope, nothing created.
  const apiAnswer = page.waitForResponse((r) => r.url() === `${s.origin}/rest/v1/collection` && r.request().method() === 'POST');
  await page.goto(`${otherOrigin}/form-api`);
  const api = await apiAnswer;
  expect(api.status()).toBe(403);
  expect(await api.json()).toMatchObject({ result: false, errorMessage: expect.any(String) });
  expect((await s.sql<{ title: string }>('SELECT title FROM collections')).map((r) => r.title)).toEqual(collectionsBefore);

  // A form posting to "Sign out everywhere": refused without the page's own form token ...
  const accountAnswer = page.waitForResponse((r) => r.url() === `${s.origin}/account/signout-everywhere`);
  await page.goto(`${otherOrigin}/form-account`);
  expect((await accountAnswer).status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Form expired' })).toBeVisible();
  // ... and the session still works.
  await page.goto(`${s.origin}/`);
  await expect(page).toHaveURL(`${s.origin}/`);
  await expect(page).toHaveTitle('app 200 200');
});
