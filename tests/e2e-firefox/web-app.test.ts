// The web app in Firefox ESR (no extension): sign in on the server's page, the library opens with
// the list, a page is saved by its address (read by the server from a local test page), and the
// reader opens on it.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { ensureWebBuilt } from '../e2e/helpers/web-build.js';
import { FIREFOX_PATH, waitFor } from './helpers/firefox-extension.js';

let s: TestServer;
let site: http.Server;
let siteOrigin: string;
let browser: Browser;
let page: Page;
let token: string;
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-firefox-web-'));
const email = 'fox-web@example.test';
const password = 'correct horse battery';

beforeAll(async () => {
  s = await startServer({ webAppDir: await ensureWebBuilt(), allowPrivateNetwork: true });
  token = (await s.createUser(email, { password })).token;
  await s.createItem('/bookmark', token, { link: 'https://example.com/first', title: 'Already here', collection: { $id: -1 } });
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Foxes of the dunes</title><meta name="description" content="Where the dune foxes den, and when they hunt."><p>Dunes.</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, userDataDir: profileDir });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
  await new Promise((resolve) => site?.close(resolve));
  fs.rmSync(profileDir, { recursive: true, force: true });
});

/** The value of a form field, once it is `want` (the app fills it after the server answers). */
const valueOf = (selector: string, want: RegExp) =>
  waitFor(`${selector} to match ${want}`, async () => {
    const value = await page.$eval(selector, (el) => (el as HTMLInputElement).value).catch(() => '');
    return want.test(value) ? value : undefined;
  });

test('signs in, shows the list, and saves a page by its address', async () => {
  await page.goto(`${s.origin}/`);
  expect(new URL(page.url()).pathname).toBe('/signin');
  await page.type('#email', email);
  await page.type('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  await page.waitForSelector('.bookmark .title');
  expect(await page.$$eval('.bookmark .title', (els) => els.map((e) => e.textContent))).toEqual(['Already here']);

  await page.click('.save-button');
  await page.waitForSelector('#save-url');
  await page.type('#save-url', `${siteOrigin}/dunes`);
  expect(await valueOf('#save-title', /\S/)).toBe('Foxes of the dunes');
  expect(await valueOf('#save-excerpt', /\S/)).toBe('Where the dune foxes den, and when they hunt.');
  await page.click('.save-actions button[type=submit]');
  await page.waitForSelector('::-p-text(Saved in Unsorted.)');
  await waitFor('the saved bookmark in the list', async () =>
    (await page.$$eval('.bookmark .title', (els) => els.map((e) => e.textContent))).includes('Foxes of the dunes') ? true : undefined,
  );
  const saved = (await s.api('GET', '/bookmarks/-1?perpage=50', { token })).body.items as { title: string; link: string; excerpt: string }[];
  expect(saved.find((b) => b.link === `${siteOrigin}/dunes`)).toMatchObject({ title: 'Foxes of the dunes', excerpt: 'Where the dune foxes den, and when they hunt.' });

  // The reader, loaded when first used (a file of its own), opens on the saved page.
  await page.click('button[aria-label="Read “Foxes of the dunes”"]');
  expect(await waitFor('the reader', async () => (await page.$eval('.reader .reader-title', (h) => h.textContent).catch(() => '')) || undefined)).toBe('Foxes of the dunes');
});
