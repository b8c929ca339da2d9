// The popup opens at the height it keeps, in Chromium against the real server 600 ms away (a delaying
// proxy, helpers/delaying-proxy.ts): its height in every frame from the first one after its load
// (Chromium shows an extension's popup once its first load stopped) until the form and the page's
// highlights are there (helpers/popup-heights.ts). What the Highlights section says about site access
// is known before the bookmark (lib/popup/site-access-state.ts) and shown from the first frame; the
// hint that depends on the highlights has its room held. Before: 621 px, then 897 px when the
// site-access hint and question arrived with the highlights.
import { expect, test, type Page } from '@playwright/test';
import { DelayingProxy } from './helpers/delaying-proxy.js';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { saveWithHighlights } from './helpers/highlighting.js';
import { PopupHeightWatch, popupHeights, shownHeights, type PopupHeight } from './helpers/popup-heights.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

const SLOW_MS = 600;
/** How much the popup's height may change between its first shown frame and the settled form (px). */
const TOLERANCE_PX = 3;
const ASK = 'Allow Tidemark to read the sites you visit?';

let server: TidemarkServer;
let site: TestSite;
let token: string;
let proxy: DelayingProxy;
let browser: ExtensionBrowser;
let tab: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'height@example.test', name: 'Hal Height' }));
  proxy = await DelayingProxy.start(server.origin, SLOW_MS);
  // The extension knows the server only by the proxy's address.
  browser = await launchSignedIn({ origin: proxy.origin } as TidemarkServer, token, { toolbarButton: true });
  tab = await browser.context.newPage();
});

test.afterAll(() => closeAll(browser, proxy, site, server));

/** Opens the popup with the toolbar button, waits for `settled`, and gives the heights it was shown at. */
async function shownUntil(settled: (popup: Page) => Promise<void>): Promise<PopupHeight[]> {
  const watch = await PopupHeightWatch.start(browser);
  try {
    const popup = await browser.clickToolbarButton(tab);
    await settled(popup);
    // Whatever comes after the highlights (tag suggestions, the fresh collection list, the queue).
    await popup.waitForTimeout(2 * SLOW_MS);
    const shown = shownHeights(await popupHeights(popup));
    await popup.close();
    return shown;
  } finally {
    await watch.stop();
  }
}

const spread = (shown: PopupHeight[]) => Math.max(...shown.map((f) => f.height)) - Math.min(...shown.map((f) => f.height));
const describe = (shown: PopupHeight[]) => shown.map((f) => `${f.height} px at ${f.at} ms`).join(', then ');

async function newPage(path: string): Promise<string> {
  const url = site.add(path, { title: `Tide tables ${path}`, body: '<p>How the sea keeps time, and the tide keeps the harbour.</p>' });
  await tab.goto(url);
  return url;
}

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
    // The settled popup is the one that grew before: the hint on highlighting without access, and the question.
    await expect(popup.getByText('On this site: select text, then right-click it')).toBeVisible();
    await expect(popup.getByText(ASK)).toBeVisible();
  });
  // It was shown while the server had not answered yet (the loading room), and then settled.
  expect(shown.length, describe(shown)).toBeGreaterThan(0);
  expect(shown[0].height).toBeGreaterThan(600);
  expect(spread(shown), describe(shown)).toBeLessThanOrEqual(TOLERANCE_PX);
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
  expect(fresh.length, describe(fresh)).toBeGreaterThan(0);
  expect(spread(fresh), describe(fresh)).toBeLessThanOrEqual(TOLERANCE_PX);

  const url = await newPage('/height-highlighted-with-access');
  await saveWithHighlights(server, token, url, [{ text: 'the tide keeps the harbour', color: 'yellow' }]);
  const highlighted = await shownUntil(async (popup) => {
    await expect(popup.getByRole('status')).toHaveText('Already saved: editing it');
    await expect(popup.getByTestId('highlight-summary')).toHaveText('1 highlight');
    // How to highlight more: the same line as on a page without highlights, not a blank one.
    await expect(popup.getByText('Select text on the page to highlight it.')).toBeVisible();
  });
  expect(highlighted.length, describe(highlighted)).toBeGreaterThan(0);
  expect(spread(highlighted), describe(highlighted)).toBeLessThanOrEqual(TOLERANCE_PX);
  // The same popup on both pages: the hint is there whether or not the page has highlights.
  expect(Math.abs(highlighted[0].height - fresh[0].height)).toBeLessThanOrEqual(TOLERANCE_PX);
});
