// In Chromium, signed in nowhere: a public collection's page works with JavaScript switched off (title,
// cover, bookmarks with their notes, the public collection inside; no private child, no highlight),
// links its Atom feed, and the feed parses as XML with the newest bookmarks; a private collection's
// address and one made private answer 404. Also the installed app's manifest as Chromium reads it:
// installable, with its icons, and the share target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { startWebBackend, type WebBackend } from './helpers/web-app.js';

let w: WebBackend;
const ids: Record<string, number> = {};
let publicUrl: string;

test.beforeAll(async () => {
  w = await startWebBackend('web-public@example.test');
  const c = (body: object) => w.s.createItem('/collection', w.token, body);
  const pools = await c({ title: 'Tide pools', public: true, cover: ['https://img.example/pools.png'] });
  ids.pools = pools._id;
  publicUrl = pools.publicUrl;
  ids.inner = (await c({ title: 'Anemones', public: true, parent: { $id: pools._id } }))._id;
  ids.hidden = (await c({ title: 'Private notes inside', parent: { $id: pools._id } }))._id;
  ids.secret = (await c({ title: 'Secret list' }))._id;
  const b = (title: string, collection: number, extra: object = {}) => w.s.createItem('/bookmark', w.token, { link: `https://pools.example/${encodeURIComponent(title)}`, title, collection: { $id: collection }, ...extra });
  await b('Limpets at low water', ids.pools, { note: 'Best seen in the spring tides.', tags: ['shore'] });
  const crabs = await b('Shore crabs', ids.pools);
  expect((await w.s.api('PUT', `/bookmark/${crabs._id}`, { token: w.token, body: { highlights: [{ text: 'HIGHLIGHTED PASSAGE', note: 'HIGHLIGHT NOTE', color: 'yellow' }] } })).status).toBe(200);
  await b('Only in the private child', ids.hidden);
});
test.afterAll(() => w?.close());

test('a public page without JavaScript, its Atom feed parsed, private ones 404', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    expect(new URL(publicUrl).pathname).toBe(`/c/${ids.pools}-tide-pools`);
    const answer = await page.goto(publicUrl);
    expect(answer!.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tide pools');
    await expect(page.locator('img.cover')).toHaveAttribute('src', 'https://img.example/pools.png');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(['Collections inside', 'Shore crabs', 'Limpets at low water']);
    await expect(page.getByText('Best seen in the spring tides.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Anemones' })).toHaveAttribute('href', `/c/${ids.inner}-anemones`);
    const body = await page.locator('body').innerText();
    for (const absent of ['Private notes inside', 'Only in the private child', 'HIGHLIGHTED PASSAGE', 'HIGHLIGHT NOTE', 'Secret list']) expect(body).not.toContain(absent);
    // The link to the public child works without a script, too.
    await page.getByRole('link', { name: 'Anemones' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anemones');
    await page.goBack();

    // The feed, found the way a feed reader finds it: the page's rel=alternate link.
    const alternate = page.locator('link[rel="alternate"][type="application/atom+xml"]');
    const feedUrl = new URL((await alternate.getAttribute('href'))!, publicUrl).href;
    const feed = await context.request.get(feedUrl);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
    const xml = await feed.text();
    const reader = await browser.newPage();
    const parsed = await reader.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const ns = 'http://www.w3.org/2005/Atom';
      const entries = [...doc.getElementsByTagNameNS(ns, 'entry')];
      return {
        error: doc.getElementsByTagName('parsererror').length > 0,
        root: `${doc.documentElement.namespaceURI} ${doc.documentElement.localName}`,
        title: doc.documentElement.getElementsByTagNameNS(ns, 'title')[0]?.textContent,
        entries: entries.map((e) => ({
          title: e.getElementsByTagNameNS(ns, 'title')[0]?.textContent,
          link: e.getElementsByTagNameNS(ns, 'link')[0]?.getAttribute('href'),
          content: e.getElementsByTagNameNS(ns, 'content')[0]?.textContent ?? null,
        })),
      };
    }, xml);
    await reader.close();
    expect(parsed).toEqual({
      error: false,
      root: 'http://www.w3.org/2005/Atom feed',
      title: 'Tide pools',
      entries: [
        { title: 'Shore crabs', link: 'https://pools.example/Shore%20crabs', content: null },
        { title: 'Limpets at low water', link: 'https://pools.example/Limpets%20at%20low%20water', content: 'Best seen in the spring tides.' },
      ],
    });
    expect(xml).not.toContain('HIGHLIGHTED PASSAGE');
    expect(xml).not.toContain('Only in the private child');

    // Private: 404, the same as an address that was never there.
    for (const id of [ids.hidden, ids.secret]) {
      const res = await page.goto(`${w.s.origin}/c/${id}`);
      expect(res!.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('No public collection here');
      expect((await context.request.get(`${w.s.origin}/c/${id}/feed.atom`)).status()).toBe(404);
    }
    // Made private: the page and the feed go, and so does publicUrl.
    expect((await w.s.api('PUT', `/collection/${ids.pools}`, { token: w.token, body: { public: false } })).status).toBe(200);
    expect((await page.goto(publicUrl))!.status()).toBe(404);
    expect((await context.request.get(feedUrl)).status()).toBe(404);
    expect((await w.s.api('GET', `/collection/${ids.pools}`, { token: w.token })).body.item.publicUrl).toBeUndefined();
  } finally {
    await context.close();
  }
});

test('Chromium finds the app installable: manifest, icons, service worker, share target', async () => {
  // A profile on disk: Chromium never offers to install from an incognito-like context.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-install-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await w.signIn(page, '/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const cdp = await context.newCDPSession(page);
    const { errors, data } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[]; data?: string };
    expect(errors).toEqual([]);
    const manifest = JSON.parse(data!);
    expect(manifest).toMatchObject({ name: 'Tidemark', display: 'standalone', start_url: '/', theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i) });
    expect(manifest.share_target).toEqual({ action: '/share', method: 'GET', enctype: 'application/x-www-form-urlencoded', params: { url: 'url', title: 'title', text: 'text' } });
    // Each icon is the PNG its entry says, of its size.
    const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);
    for (const icon of icons) {
      const size = await page.evaluate(async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        return `${img.naturalWidth}x${img.naturalHeight}`;
      }, icon.src);
      expect(size).toBe(icon.sizes);
    }
    const installability = async () => ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }).installabilityErrors.map((e) => e.errorId);
    await expect.poll(installability).toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
