// The popup opens at the height it keeps, in Chromium against the real server 600 ms away (a delaying
// proxy, helpers/delaying-proxy.ts): its height in every frame from the first one after its load
// (Chromium shows an extension's popup once its first load stopped) until the form and the page's
// highlights are there (helpers/popup-heights.ts). What the Highlights section says about site access
// is known before the bookmark (lib/popup/site-access-state.ts) and shown from the first frame; the
// hint that depends on the highlights has its room held. Before: 621 px, then 897 px when the
// site-access hint and question arrived with the highlights.
import { expect, test, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { saveWithHighlights } from './helpers/highlighting.js';
import { shownHeights, type PopupHeight } from './helpers/popup-heights.js';
import { ASK, TOLERANCE_PX, expectSteadyHeight, openNewPage, openPopupUntil, startSlowPopupSuite, type SlowPopupSuite } from './helpers/slow-popup-suite.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let suite: SlowPopupSuite;
let server: TidemarkServer;
let token: string;
let browser: ExtensionBrowser;
let tab: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  suite = await startSlowPopupSuite({ email: 'height@example.test', name: 'Hal Height' });
  ({ server, token, browser, tab } = suite);
});

test.afterAll(() => suite.close());

/** Opens the popup with the toolbar button, waits for `settled`, and gives the heights it was shown at. */
const shownUntil = async (settled: (popup: Page) => Promise<void>): Promise<PopupHeight[]> => shownHeights(await openPopupUntil(suite, settled));

const newPage = (path: string): Promise<string> => openNewPage(suite, path);

test('a new page on a slow server, without site access: the popup keeps the height it opens at', async () => {
  // Opened once before, as after any first use: the very first opening has no remembered site-access state
  // (lib/popup/site-access-state.ts) and may grow once when the answer comes after the popup is shown.
  await newPage('/height-first-opening');
  const first = await browser.clickToolbarButton(tab);
  await expect(first.getByRole('status')).toHaveText('Saved');
  await expect(first.getByText(ASK)).toBeVisible();
  await first.close();

  await newPage('/height-new-without-access');
  const shown = await shownUntil(async (popup) => {
    await expect(popup.getByRole('status')).toHaveText('Saved');
    await expect(popup.getByTestId('highlight-summary')).toHaveText('No highlights yet');
    // The settled popup has everything that could make it grow: the hint on highlighting without access, and the question.
    await expect(popup.getByText('On this site: select text, then right-click it')).toBeVisible();
    await expect(popup.getByText(ASK)).toBeVisible();
  });
  // It was shown while the server had not answered yet (the loading room), and then settled.
  expectSteadyHeight(shown);
  expect(shown[0].height).toBeGreaterThan(600);
});

test('with site access: a new page and a page with highlights keep the height they open at', async () => {
  // Site access as a person gives it: allowed on chrome://extensions (which spares the prompt headless
  // Chromium cannot answer), then switched on in the options page.
  const extensions = await browser.context.newPage();
  await extensions.goto('chrome://extensions/');
  await extensions.evaluate(
    (id) => new Promise<void>((resolve) => (globalThis as any).chrome.developerPrivate.addHostPermission(id, '*://*/*', () => resolve())),
    browser.extensionId,
  );
  await extensions.close();
  const options = await browser.options();
  await options.getByLabel('Let Tidemark read the sites you visit').check();
  await expect(options.getByLabel('Let Tidemark read the sites you visit')).toBeChecked();
  await options.close();

  await newPage('/height-new-with-access');
  const fresh = await shownUntil(async (popup) => {
    await expect(popup.getByRole('status')).toHaveText('Saved');
    await expect(popup.getByTestId('highlight-summary')).toHaveText('No highlights yet');
    await expect(popup.getByText('Select text on the page to highlight it.')).toBeVisible();
    await expect(popup.getByText(ASK)).toHaveCount(0);
  });
  expectSteadyHeight(fresh);

  const url = await newPage('/height-highlighted-with-access');
  await saveWithHighlights(server, token, url, [{ text: 'the tide keeps the harbour', color: 'yellow' }]);
  const highlighted = await shownUntil(async (popup) => {
    await expect(popup.getByRole('status')).toHaveText('Already saved: editing it');
    await expect(popup.getByTestId('highlight-summary')).toHaveText('1 highlight');
    // How to highlight more: the same line as on a page without highlights, not a blank one.
    await expect(popup.getByText('Select text on the page to highlight it.')).toBeVisible();
  });
  expectSteadyHeight(highlighted);
  // The same popup on both pages: the hint is there whether or not the page has highlights.
  expect(Math.abs(highlighted[0].height - fresh[0].height)).toBeLessThanOrEqual(TOLERANCE_PX);
});
