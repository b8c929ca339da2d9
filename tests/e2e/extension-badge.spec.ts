// The saved-page badge in Chromium against the real server: synced index, no request per
// navigation, SPA URL changes, updates right after a save or remove; the context menu and keyboard
// command handlers; the test-token sign-in path.
import { expect, test } from './helpers/extension-test.js';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import type { Page } from '@playwright/test';

let tab: Page;

test.describe.configure({ mode: 'serial' });

test.use({ account: { email: 'badge@example.test', name: 'Bea Badge' }, launch: { signedIn: false } });

const badge = (browser: ExtensionBrowser, url: string) => browser.badgeOf(url);

test('a wrong test token is refused with a clear message; the right one signs in', async ({ server, site, token, extension: browser }) => {
  const options = await browser.options();
  await options.getByLabel('Server URL').fill(server.origin);
  await options.getByText('Advanced: paste a test token').click();
  await options.getByLabel('Test token').fill('not-a-real-token');
  await options.getByRole('button', { name: 'Use token' }).click();
  await expect(options.getByRole('alert')).toHaveText(/did not accept this token/);
  await options.close();

  // Saved on "another device" before this sign-in: the first sync brings it in.
  const reading = (await server.api('POST', '/collection', token, { title: 'Reading' })).body.item._id;
  await server.api('POST', '/bookmark', token, { link: `${site.origin}/saved-elsewhere`, collection: { $id: reading } });
  await browser.signInWithTestToken(server.origin, token);
  await expect.poll(() => browser.inWorker(() => (globalThis as any).tidemark.indexState())).toEqual({ state: 'ready', size: 1 });
});

test('shows a check mark on saved pages, naming the collection, with no request per navigation', async ({ server, site, extension: browser }) => {
  const saved = site.add('/saved-elsewhere', { title: 'Saved elsewhere' });
  const other = site.add('/not-saved', { title: 'Not saved' });
  tab = await browser.context.newPage();
  const before = server.requests.length;
  await tab.goto(saved);
  await expect.poll(() => badge(browser, saved)).toEqual({ text: '✓', title: 'Tidemark: saved in Reading' });
  await tab.goto(other);
  await expect.poll(() => badge(browser, other)).toEqual({ text: '', title: 'Save to Tidemark' });
  // A single-page app changing its URL (history.pushState) updates the badge too.
  await tab.evaluate(() => (window as any).goTo('/saved-elsewhere?utm_source=newsletter'));
  await expect.poll(() => badge(browser, `${saved}?utm_source=newsletter`)).toMatchObject({ text: '✓' });
  await tab.goto(other);
  await expect.poll(() => badge(browser, other)).toMatchObject({ text: '' });
  // Tab switches: back to a saved page in another tab.
  const second = await browser.context.newPage();
  await second.goto(saved);
  await expect.poll(() => badge(browser, saved)).toMatchObject({ text: '✓' });
  await second.close();
  // The saved check itself asks nothing: no url/exists and no index sync per navigation. (Other
  // features may fetch for a saved page, e.g. its highlights; that is not the check.)
  const checks = server.requests.slice(before).filter((r) => r === 'POST /rest/v1/import/url/exists' || r === 'GET /rest/v1/links' || r.startsWith('GET /rest/v1/import/url/exists'));
  expect(checks).toEqual([]);
});

test('the badge turns on right after a save from the popup and off after Remove; Undo brings it back', async ({ server, site, token, extension: browser }) => {
  const url = site.add('/to-save', { title: 'To save' });
  await tab.goto(url);
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '' });
  const popup = await browser.openPopup(tab);
  await expect(popup.getByRole('status')).toHaveText('Saved');
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '✓' });
  await popup.getByRole('button', { name: 'Remove' }).click();
  await expect(popup.getByRole('status')).toHaveText('Moved to Trash');
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '' });
  const [trashed] = (await server.api('GET', '/bookmarks/-99', token)).body.items;
  expect(trashed.link).toBe(url);
  await popup.getByRole('button', { name: 'Undo' }).click();
  await expect(popup.getByRole('status')).toHaveText('Saved');
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '✓' });
  expect((await server.api('GET', '/bookmarks/-99', token)).body.items).toEqual([]);
});

test('the badge follows a save and a remove made elsewhere after the next sync', async ({ server, site, token, extension: browser }) => {
  const url = site.add('/remote', { title: 'Remote' });
  await tab.goto(url);
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '' });
  const created = (await server.api('POST', '/bookmark', token, { link: url })).body.item;
  await browser.fireAlarm('index-sync');
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '✓' });
  await server.api('DELETE', `/bookmark/${created._id}`, token);
  await browser.fireAlarm('index-sync');
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '' });
});

test('context menu "Save link" and "Save image", and the keyboard command, save through the same handlers', async ({ server, site, token, extension: browser }) => {
  const pageUrl = site.add('/with-links', { title: 'With links', body: '<a href="/linked">a link</a>' });
  await tab.goto(pageUrl);
  const tabId = await browser.inWorker(async (url) => (await (globalThis as any).chrome.tabs.query({})).find((t: any) => t.url === url).id, pageUrl);
  const linked = `${site.origin}/linked`;
  await browser.inWorker(
    ({ id, link, page }) => (globalThis as any).tidemark.onMenuClicked({ menuItemId: 'save-link', linkUrl: link, pageUrl: page, editable: false }, { id, url: page, title: 'With links' }),
    { id: tabId, link: linked, page: pageUrl },
  );
  await browser.inWorker(
    ({ id, page }) => (globalThis as any).tidemark.onMenuClicked({ menuItemId: 'save-image', srcUrl: 'https://images.example/sea.jpg', pageUrl: page, editable: false }, { id, url: page, title: 'With links' }),
    { id: tabId, page: pageUrl },
  );
  await browser.inWorker(({ id, page }) => (globalThis as any).tidemark.onCommand('save-page', { id, url: page, title: 'With links' }), { id: tabId, page: pageUrl });
  const items = (await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as { link: string; type: string; cover: string }[];
  expect(items.find((i) => i.link === linked)).toBeTruthy();
  expect(items.find((i) => i.link === 'https://images.example/sea.jpg')).toMatchObject({ type: 'image', cover: 'https://images.example/sea.jpg' });
  expect(items.filter((i) => i.link === pageUrl)).toHaveLength(1);
  await expect.poll(() => badge(browser, pageUrl)).toMatchObject({ text: '✓' });
  // Saving the same link again does not make a duplicate.
  await browser.inWorker(
    ({ id, link, page }) => (globalThis as any).tidemark.onMenuClicked({ menuItemId: 'save-link', linkUrl: link, pageUrl: page, editable: false }, { id, url: page }),
    { id: tabId, link: linked, page: pageUrl },
  );
  const again = (await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as { link: string }[];
  expect(again.filter((i) => i.link === linked)).toHaveLength(1);
});

test('turning the badge off in the options clears it', async ({ site, extension: browser }) => {
  const url = `${site.origin}/with-links`;
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '✓' });
  const options = await browser.options();
  await options.getByLabel('Show a check mark on the toolbar button for pages you have saved').uncheck();
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '' });
  await options.getByLabel('Show a check mark on the toolbar button for pages you have saved').check();
  await expect.poll(() => badge(browser, url)).toMatchObject({ text: '✓' });
  await options.close();
});
