// The extension end to end in Chromium against the real server: OAuth sign-in through the real
// pages, saving from the real popup, editing, and re-opening a saved page.
import { expect, test } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchExtension, PASSWORD, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
const EMAIL = 'reader@example.test';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: EMAIL, name: 'Ada Reader' }));
  browser = await launchExtension();
});

test.afterAll(() => closeAll(browser, site, server));

test('signs in through the real OAuth pages from the options page', async () => {
  const options = await browser.options();
  await options.getByLabel('Server URL').fill(server.origin);
  await options.getByRole('button', { name: 'Sign in' }).click();
  // identity.launchWebAuthFlow opens the server's sign-in page in its own window.
  const auth = await browser.waitForPage(`${server.origin}/signin`);
  await auth.waitForLoadState();
  await auth.getByLabel('Email').fill(EMAIL);
  await auth.getByLabel('Password').fill(PASSWORD);
  await auth.getByRole('button', { name: 'Sign in' }).click();
  await auth.getByRole('button', { name: 'Allow' }).click();
  await expect(options.getByTestId('account')).toContainText('Ada Reader', { timeout: 15_000 });
  await expect(options.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The tokens stay in the background: nothing a page can read holds them.
  const local = await options.evaluate(() => (globalThis as any).chrome.storage.local.get(null));
  expect(JSON.stringify(local)).not.toContain('token":"');
  await options.close();
});

test('opening the popup on an unsaved page creates the bookmark with the page metadata', async () => {
  const url = site.add('/article', {
    title: 'Plain title',
    ogTitle: 'The Tides of March',
    description: 'How the sea keeps time.',
    image: `${site.origin}/cover.png`,
  });
  const page = await browser.context.newPage();
  await page.goto(url);
  const popup = await browser.openPopup(page);
  await expect(popup.getByRole('status')).toHaveText('Saved');
  const list = await server.api('GET', '/bookmarks/0', token);
  expect(list.body.items).toHaveLength(1);
  expect(list.body.items[0]).toMatchObject({
    link: url,
    title: 'The Tides of March',
    excerpt: 'How the sea keeps time.',
    cover: `${site.origin}/cover.png`,
    collectionId: -1,
  });
  await expect(popup.getByLabel('Title')).toHaveValue('The Tides of March');
});

test('reopening the popup on the saved page edits the same bookmark; collection, tags, favourite and note reach the server', async () => {
  const reading = (await server.api('POST', '/collection', token, { title: 'Reading' })).body.item._id;
  const longReads = (await server.api('POST', '/collection', token, { title: 'Long reads', parent: { $id: reading } })).body.item._id;
  await server.api('POST', '/bookmark', token, { link: 'https://elsewhere.example/', tags: ['tides'] });

  const page = browser.context.pages().find((p) => p.url() === `${site.origin}/article`)!;
  const popup = await browser.openPopup(page);
  await expect(popup.getByRole('status')).toHaveText('Already saved: editing it');
  const [mine] = (await server.api('GET', '/bookmarks/0?search=' + encodeURIComponent('Tides of March'), token)).body.items;

  const collection = popup.getByRole('combobox', { name: 'Collection' });
  await collection.click();
  await collection.fill('long');
  await popup.getByRole('option', { name: 'Reading / Long reads' }).click();
  await expect(collection).toHaveValue('Reading / Long reads');

  const tags = popup.getByRole('combobox', { name: 'Tags' });
  await tags.fill('ocean');
  await tags.press('Enter');
  await tags.fill('tid');
  await popup.getByRole('option', { name: /tides/ }).click();
  await popup.getByLabel('Favourite').check();
  await popup.getByLabel('Note').fill('Worth rereading');
  await expect(popup.getByRole('status')).toHaveText('Saved');

  await expect
    .poll(async () => (await server.api('GET', `/bookmark/${mine._id}`, token)).body.item)
    .toMatchObject({ collectionId: longReads, tags: ['ocean', 'tides'], important: true, note: 'Worth rereading' });
  expect((await server.api('GET', '/bookmarks/0', token)).body.count).toBe(2); // no duplicate

  // A chip is removed from the keyboard.
  await popup.getByRole('button', { name: 'Remove tag ocean' }).focus();
  await popup.keyboard.press('Delete');
  // A new collection is created from the picker.
  await collection.click();
  await collection.fill('Later');
  await popup.getByRole('option', { name: 'Create collection “Later”' }).click();
  await expect(collection).toHaveValue('Later');
  await expect(popup.getByRole('status')).toHaveText('Saved');
  await expect
    .poll(async () => {
      const item = (await server.api('GET', `/bookmark/${mine._id}`, token)).body.item;
      const later = (await server.api('GET', '/collections', token)).body.items.find((c: { title: string }) => c.title === 'Later');
      return { tags: item.tags, inLater: later !== undefined && item.collectionId === later._id };
    })
    .toEqual({ tags: ['tides'], inLater: true });
});

test('signing out forgets the tokens: the popup and the badge show signed out', async () => {
  const page = browser.context.pages().find((p) => p.url() === `${site.origin}/article`)!;
  await expect.poll(() => browser.badgeOf(page.url())).toMatchObject({ text: '✓' });
  const options = await browser.options();
  await options.getByRole('button', { name: 'Sign out' }).click();
  await expect(options.getByTestId('account')).toHaveText('You are not signed in. Sign in to save pages.');
  await expect(options.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await options.close();
  await expect.poll(() => browser.badgeOf(page.url())).toMatchObject({ text: '' });
  const popup = await browser.openPopup(page);
  await expect(popup.getByText('You are not signed in. Sign in to save pages.')).toBeVisible();
  expect(await browser.inWorker(() => (globalThis as any).chrome.storage.session.get(null))).toEqual({});
  expect((await server.api('GET', '/bookmarks/0', token)).body.count).toBe(2); // nothing else changed
});
