// The popup's height and status line in the cases extension-popup-height.spec.ts leaves out, in Chromium
// against the real server behind a delaying proxy (600 ms): the very first popup after install, a page
// saved already, and the server down. Heights from the first frame after the popup's load until settled
// (helpers/popup-heights.ts); the status line's every text from its first frame. The popup must not grow
// when a late answer comes (the permission check is answered 500 ms late here), nor when a save is
// queued or the waiting writes are sent, and a saved page must never say "Saving…".
import { expect, test, type Page } from '@playwright/test';
import type { DelayingProxy } from './helpers/delaying-proxy.js';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { bookmarkOf } from './helpers/highlighting.js';
import { shownHeights, type PopupHeights } from './helpers/popup-heights.js';
import type { TestSite } from './helpers/test-pages.js';
import { ASK, expectSteadyHeight, openNewPage, openPopupUntil, startSlowPopupSuite, type SlowPopupSuite } from './helpers/slow-popup-suite.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

/** Run in the popup before its scripts: the browser answers whether the extension may read sites 500 ms late. */
const LATE_SITE_ACCESS = `{
  const permissions = chrome.permissions;
  const contains = permissions.contains.bind(permissions);
  permissions.contains = (...args) =>
    new Promise((resolve) => setTimeout(resolve, 500))
      .then(() => contains(...args))
      .then((answer) => ((window.siteAccessAnsweredAt ??= performance.now()), answer));
}`;

let suite: SlowPopupSuite;
let server: TidemarkServer;
let site: TestSite;
let token: string;
let proxy: DelayingProxy;
let browser: ExtensionBrowser;
let tab: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  suite = await startSlowPopupSuite({ email: 'edges@example.test', name: 'Ed Edges' });
  ({ server, site, token, proxy, browser, tab } = suite);
});

test.afterAll(() => suite.close());

/** Opens the popup with the toolbar button, lets `settled` run in it, and gives what the recorder noted. */
const openUntil = (settled: (popup: Page) => Promise<void>, before = ''): Promise<PopupHeights> => openPopupUntil(suite, settled, before);

const newPage = (path: string): Promise<string> => openNewPage(suite, path);

test('the first popup after install keeps its height when the site-access answer comes after it is shown', async () => {
  let answeredAt = Infinity;
  await newPage('/edges-first-popup');
  const noted = await openUntil(async (popup) => {
    await expect(popup.getByRole('status')).toHaveText('Saved');
    await expect(popup.getByTestId('highlight-summary')).toHaveText('No highlights yet');
    await expect(popup.getByText(ASK)).toBeVisible();
    answeredAt = await popup.evaluate(() => (window as unknown as { siteAccessAnsweredAt: number }).siteAccessAnsweredAt);
  }, LATE_SITE_ACCESS);
  const shown = shownHeights(noted);
  // The late answer really came after the popup was loaded and shown (else this tests nothing).
  expect(noted.loadedAt).toBeGreaterThanOrEqual(0);
  expect(noted.loadedAt).toBeLessThan(answeredAt);
  expect(shown[0].at).toBeLessThan(answeredAt);
  expectSteadyHeight(shown);
});

test('a page saved already never says "Saving…": it says "Checking this page…" until the answer', async () => {
  const url = await newPage('/edges-saved-already');
  expect((await server.api('POST', '/bookmark', token, { link: url, title: 'Tide tables, saved before', collectionId: -1 })).status).toBeLessThan(300);
  const noted = await openUntil(async (popup) => {
    await expect(popup.getByRole('status')).toHaveText('Already saved: editing it');
  });
  const texts = noted.statuses.map((s) => s.text);
  expect(texts, JSON.stringify(noted.statuses)).not.toContain('Saving…');
  expect(texts[0]).toBe('Checking this page…');
  expect(texts.at(-1)).toBe('Already saved: editing it');
  const shown = shownHeights(noted);
  expectSteadyHeight(shown);
});

test('the server down: the popup keeps its height, says what happened and what to do, and its retry sends the page', async () => {
  const url = await newPage('/edges-server-down');
  proxy.down = true;
  let retried = false;
  try {
    const noted = await openUntil(async (popup) => {
      await expect(popup.getByRole('status')).toHaveText('Queued offline');
      const notice = popup.getByTestId('queued-save-notice');
      await expect(notice).toContainText(`Tidemark could not reach your server at ${proxy.origin}: is it running?`);
      await expect(notice).toContainText('This page is kept here and sent when it answers.');
      await expect(notice.getByRole('button', { name: 'Check its address' })).toBeVisible();
      // Nothing cut off: the form's last control and the footer are in the document's flow, below the notice.
      await expect(popup.getByRole('button', { name: 'Remove' })).toBeVisible();
      await expect(popup.getByRole('button', { name: 'Options' })).toBeVisible();
      // Still down: the retry says so, and the page stays queued.
      await notice.getByRole('button', { name: 'Try again' }).click();
      await expect(notice.getByRole('button', { name: 'Still unreachable: try again' })).toBeVisible();
      // The server is back: the retry sends the page, the notice goes and the excerpt field takes its room again.
      proxy.down = false;
      await notice.getByRole('button', { name: 'Still unreachable: try again' }).click();
      await expect(popup.getByRole('status')).toHaveText('Saved');
      await expect(popup.getByTestId('queued-save-notice')).toHaveCount(0);
      await expect(popup.getByLabel('Excerpt')).toBeVisible();
      retried = true;
    });
    expect(retried).toBe(true);
    const shown = shownHeights(noted);
    expectSteadyHeight(shown);
  } finally {
    proxy.down = false;
  }
  // Sent for real: the server has it.
  expect(await bookmarkOf(server, token, url)).toBeDefined();
});

test('the server down with other pages waiting, then back: the popup keeps its height, counts them in the retry, and never says offline once it answers', async () => {
  proxy.down = true;
  try {
    await newPage('/edges-down-first');
    const first = await browser.clickToolbarButton(tab);
    await expect(first.getByRole('status')).toHaveText('Queued offline');
    await first.close();

    await newPage('/edges-down-second');
    const noted = await openUntil(async (popup) => {
      await expect(popup.getByRole('status')).toHaveText('Queued offline');
      // Both pages' saves wait: the retry sends both, and says so.
      await expect(popup.getByTestId('queued-save-notice').getByRole('button', { name: 'Try again (2 waiting)' })).toBeVisible();
    });
    const shown = shownHeights(noted);
    expectSteadyHeight(shown);
  } finally {
    proxy.down = false;
  }
  // The server is back while both still wait: a new page's save queues behind them (the order is kept) and the
  // popup says that, not that the server is unreachable; it keeps its height while they are all sent.
  const url = await newPage('/edges-back-behind');
  const noted = await openUntil(async (popup) => {
    await expect(popup.getByRole('status')).toHaveText('Saved', { timeout: 15_000 });
  });
  const texts = noted.statuses.map((s) => s.text);
  expect(texts, JSON.stringify(noted.statuses)).not.toContain('Queued offline');
  const shown = shownHeights(noted);
  expectSteadyHeight(shown);
  expect(await bookmarkOf(server, token, url)).toBeDefined();
  await expect.poll(async () => (await bookmarkOf(server, token, `${site.origin}/edges-down-second`)) !== undefined).toBe(true);
});
