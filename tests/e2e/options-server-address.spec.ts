// The options page's first screen: a signed-out user types their server's address as they would in
// the address bar (no scheme) and signs in; an address where nothing answers gets an error that
// names the server and says what to check, and the page keeps the address for another try.
import { expect, test } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchExtension, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;

test.beforeAll(async () => {
  ({ server, site } = await startBackend({ email: 'address@example.test', name: 'Ada' }));
  browser = await launchExtension();
});

test.afterAll(() => closeAll(browser, site, server));

test('signed out, the first screen asks for the server address and says when nothing answers there', async () => {
  const options = await browser.options();
  await expect(options.getByTestId('account')).toContainText('You are not signed in');
  const field = options.getByLabel('Server URL');
  await expect(field).toBeVisible();
  await expect(field).toHaveAttribute('placeholder', 'https://tidemark.example.com');

  // Port 9 (discard) on this machine: nothing listens there.
  await field.fill('localhost:9');
  await options.getByRole('button', { name: 'Sign in' }).click();
  await expect(options.getByRole('alert')).toContainText(
    'Could not reach the Tidemark server at http://localhost:9. Check that it is running and that you are online.',
  );
  await expect(field).toHaveValue('localhost:9');
  await options.setViewportSize({ width: 900, height: 700 });
  await options.screenshot({ path: test.info().outputPath('options-server-address.png'), fullPage: true });

  // Not an address at all: said before anything is asked of the browser.
  await field.fill('http://');
  await options.getByRole('button', { name: 'Sign in' }).click();
  await expect(options.getByRole('alert')).toContainText("Enter the server's address, starting with http:// or https://.");
  await options.close();
});
