// Editing highlights while the server is down, in Chromium with the built extension against the real
// server: a highlight made offline is recoloured, given a note and a second one is made and deleted,
// all before anything was delivered; the page shows the current state after the service worker
// stopped and the page was reloaded (still offline); once the server is back it holds exactly the
// final state (one highlight, the new colour and the note, nothing duplicated, nothing refused).
import { expect, test } from './helpers/extension-test.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import type { Page } from '@playwright/test';
import { bookmarksOf, clickPhrase, dragSelect, highlightToolbar, painted } from './helpers/highlighting.js';
import { openSidePanel } from './helpers/side-panel.js';
import { ARTICLE } from './fixtures/highlight/article.js';

let tab: Page;

test.describe.configure({ mode: 'serial' });

test.use({ account: { email: 'offline-highlights@example.test', name: 'Olive Offline' } });

test.beforeAll(async ({ extension: browser }) => {
  await expect.poll(() => browser.registeredScripts()).toHaveLength(1);
  tab = await browser.context.newPage();
});

const bookmarks = (server: TidemarkServer, token: string, link: string) => bookmarksOf(server, token, link);

/** How many highlights the page marks as having a note (never the note itself). */
const noteMarks = (page: Page) => page.evaluate(() => (CSS as any).highlights.get('tidemark-note')?.size ?? 0);

async function pickColour(page: Page, name: string): Promise<void> {
  const bar = highlightToolbar(page);
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'More colours' }).click();
  await bar.getByRole('button', { name }).click();
}

/** The offline queue as stored by the extension. */
const storedQueue = (browser: ExtensionBrowser) =>
  browser.inWorker(async () => (await (globalThis as any).chrome.storage.local.get('queue')).queue as { entries: unknown[]; failures: { message: string }[] });

/** Drains the offline queue (its alarm's handler) until it is empty. */
const deliverQueue = (browser: ExtensionBrowser) =>
  expect
    .poll(
      async () => {
        await browser.fireAlarm('queue-drain');
        return (await storedQueue(browser)).entries.length;
      },
      { timeout: 15_000 },
    )
    .toBe(0);

test('highlights edited while offline (recolour, note, a second one made and deleted), across a worker restart and a reload, reach the server as exactly the final state', async ({ server, site, token, extension: browser }) => {
  const quote = ARTICLE.quotes.harbour;
  const other = ARTICLE.quotes.spring;
  const url = site.add('/offline-edits', { title: 'Tides, edited offline', body: ARTICLE.body });
  await tab.goto(url);
  // The page was saved earlier (the popup saves it on open).
  const saving = await browser.openPopup(tab);
  await expect.poll(async () => (await bookmarks(server, token, url)).length).toBe(1);
  await saving.close();

  await server.stop();

  // 1. A highlight, made offline.
  await dragSelect(tab, quote);
  await pickColour(tab, 'Green');
  await expect.poll(() => painted(tab)).toEqual({ green: [quote] });

  // 2. Recoloured before it was delivered.
  await clickPhrase(tab, quote);
  await expect(highlightToolbar(tab).getByRole('button', { name: 'Delete' })).toBeVisible();
  await pickColour(tab, 'Purple');
  await expect.poll(() => painted(tab)).toEqual({ purple: [quote] });

  // 3. A note, in the side panel (notes are never shown in the page).
  const panel = await openSidePanel(browser, tab);
  const item = panel.getByRole('region', { name: 'Highlights' }).locator('li').filter({ hasText: quote });
  await item.getByLabel('Note').fill('ask the harbour master at low tide');
  await expect.poll(() => noteMarks(tab)).toBe(1);
  await panel.close();
  expect(await tab.evaluate(() => document.documentElement.outerHTML)).not.toContain('harbour master at low tide');

  // 4. A second highlight, then deleted with the toolbar.
  await dragSelect(tab, other);
  await pickColour(tab, 'Orange');
  await expect.poll(() => painted(tab)).toEqual({ purple: [quote], orange: [other] });
  await clickPhrase(tab, other);
  await highlightToolbar(tab).getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => painted(tab)).toEqual({ purple: [quote] });

  // Nothing has reached the server yet.
  expect((await storedQueue(browser)).entries.length).toBeGreaterThan(0);

  // 5. The browser stops the idle service worker; the reader reloads the page, still offline: the
  //    current state is painted from the local copy.
  await browser.stopWorker();
  await tab.reload();
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ purple: [quote] });
  await expect.poll(() => noteMarks(tab)).toBe(1);

  // 6. The server is back: the queue (drained by its alarm's handler) delivers the final state.
  await server.start();
  await deliverQueue(browser);
  const [bookmark, ...duplicates] = await bookmarks(server, token, url);
  expect(duplicates).toEqual([]);
  expect(bookmark.highlights.map(({ text, color, note }) => ({ text, color, note }))).toEqual([
    { text: quote, color: 'purple', note: 'ask the harbour master at low tide' },
  ]);
  expect((await storedQueue(browser)).failures).toEqual([]);

  // 7. Back online, the highlight painted with its offline key can still be changed from the page.
  await clickPhrase(tab, quote);
  await pickColour(tab, 'Blue');
  await expect.poll(async () => (await bookmarks(server, token, url))[0].highlights.map((h) => h.color)).toEqual(['blue']);
  await expect.poll(() => painted(tab)).toEqual({ blue: [quote] });
  expect((await bookmarks(server, token, url))[0].highlights).toHaveLength(1);
});

test('on a page never saved, a highlight made offline saves the page too; edits before delivery arrive as one bookmark with the final highlight', async ({ server, site, token, extension: browser }) => {
  const quote = ARTICLE.quotes.mark;
  const url = site.add('/offline-unsaved', { title: 'Tides, never saved', body: ARTICLE.body });
  await tab.goto(url);
  await server.stop();

  await dragSelect(tab, quote);
  await pickColour(tab, 'Yellow');
  await expect.poll(() => painted(tab)).toEqual({ yellow: [quote] });
  await clickPhrase(tab, quote);
  await pickColour(tab, 'Red');
  await expect.poll(() => painted(tab)).toEqual({ red: [quote] });
  await dragSelect(tab, ARTICLE.quotes.closing);
  await pickColour(tab, 'Teal');
  await expect.poll(() => painted(tab)).toEqual({ red: [quote], teal: [ARTICLE.quotes.closing] });
  await clickPhrase(tab, ARTICLE.quotes.closing);
  await highlightToolbar(tab).getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => painted(tab)).toEqual({ red: [quote] });

  await tab.reload();
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ red: [quote] });

  await server.start();
  await deliverQueue(browser);
  const saved = await bookmarks(server, token, url);
  expect(saved).toHaveLength(1);
  expect(saved[0].highlights.map(({ text, color }) => ({ text, color }))).toEqual([{ text: quote, color: 'red' }]);
  expect((await storedQueue(browser)).failures).toEqual([]);
});
