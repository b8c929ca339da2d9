// What the web app's specs run against: the real server serving the built web app, one user with a
// small library (two collections, six bookmarks), and a local site whose pages (with a cover image)
// the server reads when a page is saved by its address.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ROOT } from '../../../scripts/build-extension.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { ensureWebBuilt } from './web-build.js';

const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Tide tables of the North Sea</title>
<meta name="description" content="When the water turns, port by port, for the whole year.">
<meta property="og:image" content="/cover.png">
</head><body><article><h1>Tide tables of the North Sea</h1><p>${'High water comes twice a day. '.repeat(40)}</p></article></body></html>`;

/** The pages' cover image (og:image), any real PNG. */
const COVER = fs.readFileSync(path.join(ROOT, 'web/public/icons/icon-192.png'));

/** The local site's page titles by path (any other path: the North Sea). */
const SEAS: Record<string, string> = { '/shared': 'Irish Sea', '/phone': 'Baltic' };

export interface WebBackend {
  s: TestServer;
  token: string;
  email: string;
  password: string;
  /** The local site's origin (http://127.0.0.1:port). */
  siteOrigin: string;
  /** Collections (`reading`, `work`) and seeded bookmarks (by title). */
  ids: Record<string, number>;
  titles(page: Page): Promise<string[]>;
  apiTitles(collectionId: number, search?: string): Promise<string[]>;
  bookmark(id: number): Promise<{ title: string; tags: string[]; collectionId: number }>;
  /**
   * Opens `path`, signs in on the page the server redirects to, and waits to be back. From then on
   * the page records what its Content-Security-Policy blocked (read with `blocked`).
   */
  signIn(page: Page, path?: string): Promise<void>;
  /** What the policy blocked on the page since it last loaded: "directive blocked-address (sample)" each. */
  blocked(page: Page): Promise<string[]>;
  close(): Promise<void>;
}

export async function startWebBackend(email: string): Promise<WebBackend> {
  const password = 'correct horse battery';
  const s = await startServer({ webAppDir: await ensureWebBuilt(), allowPrivateNetwork: true });
  const token = (await s.createUser(email, { password, pro: true })).token;
  const site = http.createServer((req, res) => {
    if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(COVER);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(ARTICLE.replace('North Sea', SEAS[req.url ?? ''] ?? 'North Sea'));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));

  const ids: Record<string, number> = {};
  ids.reading = (await s.createItem('/collection', token, { title: 'Reading' }))._id;
  ids.work = (await s.createItem('/collection', token, { title: 'Work' }))._id;
  const seed = [
    { title: 'Neap and spring tides', tags: ['tide', 'science'], c: ids.reading },
    { title: 'Storm surge warnings', tags: ['tide', 'storm'], c: ids.reading },
    { title: 'Reading the harbour charts', tags: ['charts'], c: ids.reading },
    { title: 'Quarterly report', tags: ['work'], c: ids.work },
    { title: 'Team offsite notes', tags: [], c: ids.work },
    { title: 'Loose note', tags: ['tide'], c: -1 },
  ];
  for (const [i, b] of seed.entries()) {
    ids[b.title] = (await s.createItem('/bookmark', token, { link: `https://example.com/${i}`, title: b.title, tags: b.tags, collection: { $id: b.c } }))._id;
  }

  return {
    s,
    token,
    email,
    password,
    siteOrigin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    ids,
    titles: (page) => page.locator('.bookmark .title').allTextContents(),
    apiTitles: async (collectionId, search = '') =>
      ((await s.api('GET', `/bookmarks/${collectionId}?perpage=50${search ? `&search=${encodeURIComponent(search)}` : ''}`, { token })).body.items as { title: string }[]).map((b) => b.title),
    bookmark: async (id) => (await s.api('GET', `/bookmark/${id}`, { token })).body.item,
    signIn: async (page, path = '/') => {
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __blocked: string[] }).__blocked = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} (${e.sample || 'no sample'})`));
      });
      await page.goto(`${s.origin}${path}`);
      await expect(page).toHaveURL(/\/signin\?next=/);
      await page.fill('#email', email);
      await page.fill('#password', password);
      await page.click('button[type=submit]');
      await expect(page).toHaveURL(new RegExp(`^${s.origin.replace(/[.]/g, '\\.')}/`));
    },
    blocked: (page) => page.evaluate(() => (window as unknown as { __blocked?: string[] }).__blocked ?? ['the page was not watched']),
    close: async () => {
      await s.close();
      await new Promise((resolve) => site.close(resolve));
    },
  };
}

/** A phone: 390x844, touch, as a mobile browser reports itself. */
export async function phone(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  return { context, page: await context.newPage() };
}
