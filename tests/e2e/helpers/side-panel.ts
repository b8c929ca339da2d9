// The side panel in tests. Headless Chromium offers no way to open the real side panel (it needs a
// user gesture in the browser's own UI), so the panel's page is opened in a window of its own and
// told which window to follow (`?windowId=`): from there on it runs the same code as in the real
// panel (it follows that window's active tab through the same tab events).
import type { Page } from '@playwright/test';
import type { ExtensionBrowser } from './extension-browser.js';

/** Opens the side panel's page following the window of `tab`, and returns it. */
export async function openSidePanel(b: ExtensionBrowser, tab: Page): Promise<Page> {
  await b.focus(tab);
  const windowId = await b.inWorker(async (url) => {
    const c = (globalThis as any).chrome;
    const found = (await c.tabs.query({})).find((t: { url?: string }) => t.url === url);
    if (!found) throw new Error(`No tab with ${url}`);
    return found.windowId as number;
  }, tab.url());
  const url = b.url(`sidepanel.html?windowId=${windowId}`);
  const opened = b.context.waitForEvent('page', { predicate: (p) => p.url() === url, timeout: 10_000 });
  await b.inWorker((u) => (globalThis as any).chrome.windows.create({ url: u, type: 'popup', focused: false, width: 420, height: 900 }), url);
  const panel = await opened;
  await panel.waitForLoadState('domcontentloaded');
  return panel;
}
