// The popup's first requests (lib/popup/first-requests.ts) leave from a classic script in its <head>,
// before its app is loaded and run, and the app takes their answers instead of asking again: in
// Chromium against the real server, one check and one create per opening of an unsaved page, none on
// the saved page, and the form shows the bookmark and the cached collections. The app itself is one
// script and one style sheet (entrypoints/popup-app/index.tsx), not a module graph of shared chunks.
import { expect, test, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'first@example.test', name: 'Fay First' }));
  await server.api('POST', '/collection', token, { title: 'Reading list' });
  browser = await launchSignedIn(server, token);
});

test.afterAll(() => closeAll(browser, site, server));

test('the popup loads its app as one script and one style sheet, after the script that asks first', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.add('/first-files', { title: 'Files' }));
  const popup = await browser.openPopup(page);
  await expect(popup.getByRole('status')).toHaveText('Saved');
  const files = await popup.evaluate(() => ({
    scripts: [...document.querySelectorAll('script[src]')].map((s) => new URL((s as HTMLScriptElement).src).pathname),
    preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
    sheets: [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => new URL((l as HTMLLinkElement).href).pathname),
  }));
  // WXT adds its (empty) plugin module to every page: not part of the app.
  expect(files.scripts.filter((s) => !s.includes('wxt-html-plugins'))).toEqual(['/popup-first-requests.js', '/popup-app.js']);
  expect(files.preloads).toBe(0);
  expect(files.sheets).toEqual(['/assets/popup-app.css']);
  await popup.close();
  await page.close();
});

/** When the popup's first requests left, and when its document was parsed (module scripts run after that). */
const firstRequestsAt = (popup: Page) =>
  popup.evaluate(() => {
    const asked = performance.getEntriesByName('tidemark:first-requests')[0]?.startTime ?? null;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { asked, parsed: nav.domInteractive };
  });

const requestsSince = (from: number, route: string) => server.timings.slice(from).filter((r) => r.route === route).length;

test('an unsaved page: the bookmark is asked for before the popup\'s app runs, checked and created once', async () => {
  const page = await browser.context.newPage();
  const url = site.add('/first-new', { title: 'First requests' });
  const savedCopies = async () => ((await server.api('GET', '/bookmarks/0', token)).body.items as { link: string }[]).filter((b) => b.link === url).length;
  await page.goto(url);
  const before = server.timings.length;
  const popup = await browser.openPopup(page);
  await expect(popup.getByRole('status')).toHaveText('Saved');
  await expect(popup.getByLabel('Title')).toHaveValue('First requests');
  await popup.getByRole('combobox', { name: 'Collection' }).click();
  await expect(popup.getByRole('option', { name: 'Reading list' })).toBeVisible();
  const at = await firstRequestsAt(popup);
  expect(at.asked).not.toBeNull();
  expect(at.asked!).toBeLessThan(at.parsed);
  expect(requestsSince(before, 'POST /rest/v1/import/url/exists')).toBe(1);
  expect(requestsSince(before, 'POST /rest/v1/bookmark')).toBe(1);
  expect(await savedCopies()).toBe(1);
  await popup.close();

  // The same page again: the stored bookmark, read once, nothing created.
  const again = server.timings.length;
  const reopened = await browser.openPopup(page);
  await expect(reopened.getByRole('status')).toHaveText('Already saved: editing it');
  await expect(reopened.getByLabel('Title')).toHaveValue('First requests');
  const at2 = await firstRequestsAt(reopened);
  expect(at2.asked!).toBeLessThan(at2.parsed);
  expect(requestsSince(again, 'POST /rest/v1/bookmark')).toBe(0);
  expect(await savedCopies()).toBe(1);
  await reopened.close();
  await page.close();
});
