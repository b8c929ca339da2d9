// The options page shows the last failure of a background job (reported by lib/background/report-error.ts),
// as it happens, and says what to do.
import { expect, test } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchExtension, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;

test.beforeAll(async () => {
  ({ server, site } = await startBackend({ email: 'errors@example.test', name: 'Ada' }));
  browser = await launchExtension();
});

test.afterAll(() => closeAll(browser, site, server));

test('a background failure appears in the options page while it is open, with what to do', async () => {
  const options = await browser.options();
  await expect(options.getByTestId('account')).toBeVisible();
  await expect(options.getByTestId('background-error')).toHaveCount(0);
  // What reportError keeps when the index sync cannot reach the server.
  await options.evaluate(() =>
    (globalThis as unknown as { chrome: { storage: { local: { set(v: object): Promise<void> } } } }).chrome.storage.local.set({
      lastBackgroundError: { job: 'saved-link index sync', message: 'Could not reach the Tidemark server at http://localhost:8787.', at: Date.now() },
    }),
  );
  const shown = options.getByTestId('background-error');
  await expect(shown).toContainText('saved-link index sync failed (');
  await expect(shown).not.toContainText('..');
  await expect(shown).toContainText('Could not reach the Tidemark server at http://localhost:8787.');
  await expect(shown).toContainText('check the server URL and your connection');
  await options.screenshot({ path: test.info().outputPath('options-background-error.png'), fullPage: true });
  await options.close();
});
