// The extension's real toolbar button in tests. Chromium's CDP command Extensions.triggerAction runs
// the extension's action on a tab as a click on the button does: the popup opens and the extension
// gets activeTab for that tab (chrome.action.openPopup() from the worker opens the popup but grants
// nothing). The command needs --enable-unsafe-extension-debugging and a client on the debugging pipe,
// which is how Playwright talks to the browser.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../playwright.config.js';
import { EXTENSION_ID } from '../../../lib/extension-id.js';
import { ExtensionBrowser } from './extension-browser.js';
import { freePort } from './tidemark-server.js';

/** ExtensionBrowser.launch, plus the flag that lets the test press the toolbar button (and `moreArgs`). */
export async function launchWithToolbarButton(extensionDir: string, moreArgs: string[] = []): Promise<ExtensionBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-chromium-'));
  const debugPort = await freePort();
  const context = await chromium.launchPersistentContext(userDataDir, {
    headless: true,
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      `--remote-debugging-port=${debugPort}`,
      '--enable-unsafe-extension-debugging',
      ...moreArgs,
    ],
  });
  // Same object as ExtensionBrowser.launch makes (its constructor is private to keep callers on launch()).
  const Ctor = ExtensionBrowser as unknown as new (...args: unknown[]) => ExtensionBrowser;
  const b = new Ctor(context, userDataDir, debugPort);
  await b.worker();
  return b;
}

/** Clicks the toolbar button on `page`'s tab and returns the popup that opens. */
export async function clickToolbarButton(b: ExtensionBrowser, page: Page): Promise<Page> {
  const browser = b.context.browser();
  if (!browser) throw new Error('No browser connection to send Extensions.triggerAction on.');
  await b.closePopups();
  await b.focus(page);
  const session = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await session.send('Target.getTargets', { filter: [{ type: 'tab' }] } as never)) as {
      targetInfos: { targetId: string; type: string; url: string; embedderData?: { tabActive?: boolean } }[];
    };
    // `page` was just brought to the front: the active tab with its address.
    const tabs = targetInfos.filter((t) => t.type === 'tab' && t.url === page.url() && t.embedderData?.tabActive);
    if (tabs.length !== 1) throw new Error(`Expected one tab at ${page.url()}, found ${tabs.length} active.`);
    await session.send('Extensions.triggerAction' as never, { id: EXTENSION_ID, targetId: tabs[0].targetId } as never);
  } finally {
    await session.detach().catch(() => {});
  }
  return b.openPopupPage();
}
