// The set-up both popup-height specs share (extension-popup-height.spec.ts and -edges.spec.ts): the real
// server behind a delaying proxy, Chromium with the built extension signed in to the proxy's address,
// a tab to open the popup from; opening the popup with the real toolbar button while PopupHeightWatch
// records its heights; and how a list of heights is judged and told.
import { expect, type Page } from '@playwright/test';
import { DelayingProxy } from './delaying-proxy.js';
import type { ExtensionBrowser } from './extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './extension-setup.js';
import { PopupHeightWatch, popupHeights, type PopupHeight, type PopupHeights } from './popup-heights.js';
import type { TestSite } from './test-pages.js';
import type { TidemarkServer } from './tidemark-server.js';

/** How far the server is (ms, each way through the proxy). */
export const SLOW_MS = 600;
/** How much the popup's height may change between its first shown frame and the settled form (px). */
export const TOLERANCE_PX = 3;
/** The popup's site-access question. */
export const ASK = 'Allow Tidemark to read the sites you visit?';

export interface SlowPopupSuite {
  server: TidemarkServer;
  site: TestSite;
  token: string;
  proxy: DelayingProxy;
  browser: ExtensionBrowser;
  tab: Page;
  close(): Promise<void>;
}

/** A new install signed in (as on the options page) to a server SLOW_MS away; no popup opened yet. */
export async function startSlowPopupSuite(user: { email: string; name: string }): Promise<SlowPopupSuite> {
  const { server, site, token } = await startBackend(user);
  const proxy = await DelayingProxy.start(server.origin, SLOW_MS);
  // The extension knows the server only by the proxy's address.
  const browser = await launchSignedIn({ origin: proxy.origin } as TidemarkServer, token, { toolbarButton: true });
  const tab = await browser.context.newPage();
  return { server, site, token, proxy, browser, tab, close: () => closeAll(browser, proxy, site, server) };
}

/**
 * Opens the popup with the toolbar button, lets `settled` run in it, waits for what comes after (tag
 * suggestions, the fresh collection list, the queue) and gives what the recorder noted. `before`: a
 * script run in the popup before its own (PopupHeightWatch).
 */
export async function openPopupUntil(suite: SlowPopupSuite, settled: (popup: Page) => Promise<void>, before = ''): Promise<PopupHeights> {
  const watch = await PopupHeightWatch.start(suite.browser, 8000, before);
  try {
    const popup = await suite.browser.clickToolbarButton(suite.tab);
    await settled(popup);
    // Everything the popup asks for after its bookmark has answered, and two frames have shown what came.
    await popup.waitForFunction(() => performance.getEntriesByName('tidemark:settled').length > 0, null, { timeout: 10 * SLOW_MS });
    await popup.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const noted = await popupHeights(popup);
    await popup.close();
    return noted;
  } finally {
    await watch.stop();
  }
}

/** A small page at `path`, open in the suite's tab; its address. */
export async function openNewPage(suite: SlowPopupSuite, path: string): Promise<string> {
  const url = suite.site.add(path, { title: `Tide tables ${path}`, body: '<p>How the sea keeps time, and the tide keeps the harbour.</p>' });
  await suite.tab.goto(url);
  return url;
}

const spread = (shown: PopupHeight[]) => Math.max(...shown.map((f) => f.height)) - Math.min(...shown.map((f) => f.height));
const describeHeights = (shown: PopupHeight[]) => shown.map((f) => `${f.height} px at ${f.at} ms`).join(', then ');

/** The popup was shown, and kept the height of its first shown frame within TOLERANCE_PX until settled. */
export function expectSteadyHeight(shown: PopupHeight[]): void {
  expect(shown.length, describeHeights(shown)).toBeGreaterThan(0);
  expect(spread(shown), describeHeights(shown)).toBeLessThanOrEqual(TOLERANCE_PX);
}
