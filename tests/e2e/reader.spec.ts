// The library's reader in Chromium with the built extension against the real server: a saved page
// whose text the server has indexed opens in the reader with its title, byline and reading time;
// nothing of the page's runs (an inline script, an image's onerror) and its images load without a
// referrer; a highlight made in the reader is stored as the highlighter stores one and painted on the
// live page by the extension; one made on the live page shows in the reader; Escape goes back.
// With READER_SHOTS=<dir> it also saves the reader, light and dark, with its highlights there.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { bookmarkOf, clickPhrase, dragSelect, highlightToolbar, painted } from './helpers/highlighting.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let library: Page;
let link: string;
let id: number;

/** Requests the site's images and scripts make from the library, with the referrer each carried. */
const seen: { path: string; referer: string | null }[] = [];

test.describe.configure({ mode: 'serial' });

const PHRASES = {
  reader: 'the slow rise and fall of the tide reaches the float',
  live: 'Engineers designing harbour walls read this curve',
};

const article = (at: string) => `
<article>
  <h1>The oldest tide gauge in France</h1>
  <p class="byline">By <span rel="author">Marie Le Goff</span></p>
  <p>The tide gauge at Brest has measured the height of the sea since 1679, with a few gaps for wars and storms. It is the oldest continuous record of sea level in France, and one of the longest in the world.</p>
  <figure><img src="${at}/gauge.png" alt="The stilling well"><figcaption>The stilling well of the Brest gauge.</figcaption></figure>
  <p>A float sits in a stilling well: a pipe open to the sea at its foot, so that waves are damped and only ${PHRASES.reader}. The float turns a drum, and a pen draws the curve of the water on paper.</p>
  <p><img src="${at}/missing.png" onerror="fetch('${at}/ran-onerror')" alt="">Modern gauges use radar, pointed down at the water from above, and send a reading every minute. The old well is still kept, because the two records must agree.</p>
  <script>fetch('${at}/ran-script')</script>
  <p>Sea level at Brest has risen about twenty centimetres in a century. ${PHRASES.live} before anything else, and so do the people who insure the ports.</p>
  ${'<p>The record is read every day by people who never see the sea, in offices far inland, and it tells them where to build.</p>'.repeat(12)}
</article>`;

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'reader@example.test', name: 'Rita Reader' }));
  // Images on the page's own host and port: the server keeps no other loopback address in a page's text.
  link = site.add('/brest', { title: 'The oldest tide gauge in France', body: article(site.origin) });
  const created = await server.api('POST', '/bookmark', token, { link, title: 'The oldest tide gauge in France', collectionId: -1 });
  expect(created.status).toBe(200);
  id = created.body.item._id;
  // The page as the extension's capture sends it: the server extracts, sanitises and indexes it.
  const page = `<!doctype html><html><head><title>The oldest tide gauge in France</title><meta property="og:site_name" content="Ocean Notes"></head><body>${article(site.origin)}</body></html>`;
  const put = await server.api('PUT', `/bookmark/${id}/article`, token, { html: page, url: link });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  await expect.poll(async () => (await server.api('GET', `/bookmark/${id}/article`, token)).body.status, { timeout: 20_000 }).toBe('indexed');

  browser = await launchSignedIn(server, token);
  await expect.poll(async () => (await browser.registeredScripts()).map((s) => s.id)).toEqual(['tidemark-highlighter']);
  library = await browser.context.newPage();
  library.on('request', (req) => {
    if (!req.url().startsWith(site.origin)) return;
    void req.headerValue('referer').then((referer) => seen.push({ path: new URL(req.url()).pathname, referer }));
  });
});

test.afterAll(() => closeAll(browser, site, server));

const reader = () => library.getByRole('region', { name: 'Reader' });
const SHOTS = process.env.READER_SHOTS;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: null });
}

test('Read opens the article: title, site, byline, reading time; nothing of the page runs; images go without a referrer', async () => {
  await library.goto(browser.url('library.html'));
  const row = library.locator('.bookmark', { hasText: 'The oldest tide gauge in France' });
  await row.getByRole('button', { name: /^Read/ }).click();
  await expect(library).toHaveURL(new RegExp(`[?&]read=${id}$`));
  await expect(reader().getByRole('heading', { level: 1 })).toHaveText('The oldest tide gauge in France');
  await expect(reader().locator('.reader-byline')).toContainText('Marie Le Goff');
  await expect(reader().locator('.reader-time')).toHaveText(/^\d+ min read$/);
  await expect(reader().locator('.reader-article')).toContainText(PHRASES.reader);

  // Both images were asked for (they fail, the site answers a page: an onerror would run now, if it were there).
  await expect.poll(() => seen.map((s) => s.path)).toEqual(expect.arrayContaining(['/gauge.png', '/missing.png']));
  await expect
    .poll(() => library.evaluate(() => [...document.querySelectorAll<HTMLImageElement>('.reader-article img')].every((img) => img.complete)))
    .toBe(true);
  for (const s of seen) expect(s.referer, `${s.path} was asked for with a referrer`).toBeNull();
  expect(seen.map((s) => s.path)).not.toContain('/ran-script');
  expect(seen.map((s) => s.path)).not.toContain('/ran-onerror');
  const unsafe = await library.evaluate(() => {
    const root = document.querySelector('.reader-article')!;
    return {
      scripts: root.querySelectorAll('script').length,
      handlers: [...root.querySelectorAll('*')].flatMap((el) => el.getAttributeNames().filter((n) => n.startsWith('on'))),
      referrer: [...root.querySelectorAll('img')].map((img) => img.getAttribute('referrerpolicy')),
    };
  });
  expect(unsafe.scripts).toBe(0);
  expect(unsafe.handlers).toEqual([]);
  expect(unsafe.referrer.length).toBeGreaterThan(0);
  expect(new Set(unsafe.referrer)).toEqual(new Set(['no-referrer']));
});

test('a highlight made in the reader is stored as the highlighter stores one, and the extension paints it on the live page', async () => {
  await dragSelect(library, PHRASES.reader);
  const bar = highlightToolbar(library);
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'Green' }).click();
  await expect.poll(() => painted(library)).toEqual({ green: [PHRASES.reader] });
  await expect.poll(async () => (await bookmarkOf(server, token, link))?.highlights.length).toBe(1);
  const [h] = (await bookmarkOf(server, token, link))!.highlights;
  // The same form the live page's highlighter writes: the quote, its occurrence, about 32 characters of context.
  expect(h).toMatchObject({ text: PHRASES.reader, color: 'green', position: 0 });
  expect(h.prefix?.endsWith('waves are damped and only ')).toBe(true);
  expect(h.suffix?.startsWith('. The float turns a drum')).toBe(true);
  await expect(reader().locator('.reader-highlights .hl')).toHaveText([new RegExp(PHRASES.reader)]);
  // Back in the list, the row counts the new highlight.
  await library.keyboard.press('Escape');
  const row = library.locator('.bookmark', { hasText: 'The oldest tide gauge in France' });
  await expect(row.locator('.hl-count')).toHaveText('✎ 1');
  await row.getByRole('button', { name: /^Read/ }).click();

  const live = await browser.context.newPage();
  await live.goto(link);
  await expect.poll(() => painted(live), { timeout: 15_000 }).toEqual({ green: [PHRASES.reader] });

  // Made on the live page in its turn: the reader shows it, painted, when it is opened again.
  await dragSelect(live, PHRASES.live);
  await highlightToolbar(live).getByRole('button', { name: 'Blue' }).click();
  await expect.poll(async () => (await bookmarkOf(server, token, link))?.highlights.length).toBe(2);
  await live.close();
  await library.reload();
  await expect(reader().locator('.reader-article')).toContainText(PHRASES.live);
  await expect.poll(() => painted(library)).toEqual({ green: [PHRASES.reader], blue: [PHRASES.live] });
  await expect(reader().locator('.reader-highlights .hl')).toHaveCount(2);
});

test('a note added in the reader is the highlight’s note; a highlight not in the reader’s text is listed as not found here', async () => {
  const put = await server.api('PUT', `/bookmark/${id}`, token, { highlights: [{ text: 'Only on the live page, in its footer', color: 'pink' }] });
  expect(put.status).toBe(200);
  await library.reload();
  await expect(reader().locator('.reader-highlights .not-found .hl')).toHaveText([/Only on the live page, in its footer/]);
  await expect.poll(() => painted(library)).toEqual({ green: [PHRASES.reader], blue: [PHRASES.live] });

  const found = reader().locator('.reader-highlights .hl', { hasText: PHRASES.reader });
  await found.getByRole('button', { name: 'Add note' }).click();
  await library.locator('#reader-note').fill('Stilling wells damp the waves.');
  await library.getByRole('button', { name: 'Save note' }).click();
  await expect.poll(async () => (await bookmarkOf(server, token, link))?.highlights.find((x) => x.text === PHRASES.reader)?.note).toBe('Stilling wells damp the waves.');
  await expect(found.locator('.hl-note')).toHaveText('Stilling wells damp the waves.');
  await expect.poll(async () => (await painted(library, { notes: true })).note).toEqual([PHRASES.reader]);
  await reader().evaluate((el) => el.scrollTo(0, 0));
  await shots(library, 'reader');
  await found.getByRole('button', { name: /^Go to the highlight/ }).click();
  await expect(highlightToolbar(library)).toBeVisible();
  await shots(library, 'reader-toolbar');
  await reader().evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await shots(library, 'reader-list');
});

test('a click on a highlight in the reader offers its toolbar: recolour, then delete with Undo (the note comes back)', async () => {
  const colorOf = async (text: string) => (await bookmarkOf(server, token, link))?.highlights.find((x) => x.text === text)?.color;
  await clickPhrase(library, 'harbour walls read');
  const bar = highlightToolbar(library);
  await expect(bar.getByRole('button', { name: 'Delete' })).toBeVisible();
  await bar.getByRole('button', { name: 'Yellow' }).click();
  await expect.poll(() => colorOf(PHRASES.live)).toBe('yellow');
  await expect.poll(async () => (await painted(library)).yellow).toEqual([PHRASES.live]);

  await clickPhrase(library, 'rise and fall of the tide');
  await bar.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => colorOf(PHRASES.reader)).toBeUndefined();
  await expect.poll(async () => (await painted(library)).green).toBeUndefined();
  await library.getByRole('status').getByRole('button', { name: 'Undo' }).click();
  await expect.poll(async () => (await bookmarkOf(server, token, link))?.highlights.find((x) => x.text === PHRASES.reader)).toMatchObject({ color: 'green', note: 'Stilling wells damp the waves.' });
  await expect.poll(async () => (await painted(library, { notes: true })).note).toEqual([PHRASES.reader]);
});

test('Escape leaves the reader for the list, the Read button focused again', async () => {
  await library.goto(browser.url('library.html'));
  const row = library.locator('.bookmark', { hasText: 'The oldest tide gauge in France' });
  await row.getByRole('button', { name: /^Read/ }).click();
  await expect(reader()).toBeVisible();
  await library.keyboard.press('Escape');
  await expect(reader()).toHaveCount(0);
  await expect(library).toHaveURL(browser.url('library.html'));
  await expect(row.getByRole('button', { name: /^Read/ })).toBeFocused();
});
