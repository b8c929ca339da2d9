// The web app in Firefox (no extension): open the server's address, sign in on its sign-in page, and
// save a page by its address with the app's save form; the server reads the page (a local test site)
// and the bookmark it stores has the page's title and description.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIREFOX_PATH, waitFor } from './helpers/firefox-extension.js';
import { ensureWebBuilt } from '../e2e/helpers/web-build.js';
import { startServer, type TestServer } from '../helpers/server.js';
import type { Bookmark } from '../../lib/api/types.js';

const email = 'web-fox@example.test';
const password = 'correct horse battery';
let s: TestServer;
let token: string;
let site: http.Server;
let siteOrigin: string;
let browser: Browser;
let profile: string;
let page: Page;

beforeAll(async () => {
  s = await startServer({ webAppDir: await ensureWebBuilt(), allowPrivateNetwork: true });
  token = (await s.createUser(email, { password })).token;
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Fox dens of the dunes</title><meta name="description" content="Where foxes raise their cubs by the sea."></head><body><p>Sand and marram grass.</p></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-firefox-web-'));
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, userDataDir: profile });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
  await new Promise((resolve) => site?.close(resolve));
  await s?.close();
});

const valueOf = (selector: string) => page.$eval(selector, (el) => (el as HTMLInputElement).value);

test('opens the web app, signs in, and saves a page by its address', async () => {
  await page.goto(`${s.origin}/`);
  expect(new URL(page.url()).pathname).toBe('/signin');
  await page.type('#email', email);
  await page.type('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  expect(page.url()).toBe(`${s.origin}/`);
  await page.waitForSelector('.library');
  await waitFor('the empty list', async () => ((await page.$eval('.count-line', (el) => el.textContent)) === '0 bookmarks' ? true : undefined));

  await page.click('.save-button');
  await page.waitForSelector('dialog.save-dialog[open]');
  await page.type('#save-url', `${siteOrigin}/dunes`);
  // The server reads the page: its title and description fill the form.
  await waitFor('the page read by the server', async () => ((await valueOf('#save-title')) === 'Fox dens of the dunes' ? true : undefined), 20_000);
  expect(await valueOf('#save-excerpt')).toBe('Where foxes raise their cubs by the sea.');
  await page.click('.save-actions button[type=submit]');
  await waitFor('the saved message', async () => ((await page.$eval('body', (el) => el.textContent ?? '')).includes('Saved in Unsorted.') ? true : undefined));
  expect(await page.$('dialog.save-dialog[open]')).toBeNull();

  const items = (await s.api('GET', '/bookmarks/0?perpage=50', { token })).body.items as Bookmark[];
  expect(items.map((b) => ({ link: b.link, title: b.title, excerpt: b.excerpt, collectionId: b.collectionId }))).toEqual([
    { link: `${siteOrigin}/dunes`, title: 'Fox dens of the dunes', excerpt: 'Where foxes raise their cubs by the sea.', collectionId: -1 },
  ]);
  // The list shows it without a reload.
  await waitFor('the new row', async () => ((await page.$$eval('.bookmark .title', (els) => els.map((e) => e.textContent))).includes('Fox dens of the dunes') ? true : undefined));
});
