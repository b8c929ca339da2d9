// Signing in on Firefox through the real OAuth pages: identity.launchWebAuthFlow opens the server's
// sign-in page, the server redirects to Firefox's redirect URL for the pinned add-on id (the one the
// server registers for the extension), and the options page shows the account.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIREFOX_REDIRECT_URL } from '../../lib/api/extension-identity.js';
import { waitFor, type FirefoxExtension } from './helpers/firefox-extension.js';
import { closeAll, launchFirefox, startBackend } from './helpers/setup.js';
import type { TestSite } from '../e2e/helpers/test-pages.js';
import type { TidemarkServer } from '../e2e/helpers/tidemark-server.js';

const EMAIL = 'oauth-fox@example.test';
let server: TidemarkServer;
let site: TestSite;
let ff: FirefoxExtension;

beforeAll(async () => {
  ({ server, site } = await startBackend({ email: EMAIL, name: 'Olga Fox' }));
  ff = await launchFirefox();
});

afterAll(() => closeAll(ff, site, server));

test("Firefox's identity redirect URL for the pinned add-on id is the one the server registers", async () => {
  expect(await ff.inExtension((ext) => ext.identity.getRedirectURL('oauth'))).toBe(FIREFOX_REDIRECT_URL);
});

test('Sign in on the options page goes through the server\'s sign-in and consent pages and signs the extension in', async () => {
  const options = await ff.openExtensionPage('options.html');
  await options.click('#server-url', { count: 3 });
  await options.type('#server-url', server.origin);
  await options.click('button.primary'); // "Sign in"
  const auth = await waitFor('the sign-in window', async () => {
    for (const p of await ff.browser.pages()) if (p.url().startsWith(`${server.origin}/signin`)) return p;
    return undefined;
  });
  await auth.waitForSelector('input[name="email"]');
  await auth.type('input[name="email"]', EMAIL);
  await auth.type('input[name="password"]', 'correct horse battery');
  await Promise.all([auth.waitForNavigation(), auth.click('button[type="submit"]')]);
  await auth.click('button[value="allow"]');
  await options.waitForFunction(() => document.querySelector('[data-testid="account"]')?.textContent?.includes('Olga Fox'), { timeout: 15_000 });
  // The tokens stay in the background: nothing in extension storage a page could be given holds them.
  const local = await ff.inExtension((ext) => ext.storage.local.get(null));
  expect(JSON.stringify(local)).not.toContain('token":"');
});
