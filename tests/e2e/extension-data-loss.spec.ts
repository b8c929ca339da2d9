// Two ways the extension could lose data, in Chromium against the real server:
// 1. editing an already-saved page while the server is down must add to its tags and note, never
//    replace them with what the popup never saw;
// 2. signing out while writes wait must warn, and keep them for that account: signing in to it
//    again sends them.
import { expect, test } from './helpers/extension-test.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import type { Page } from '@playwright/test';

let tab: Page;

test.describe.configure({ mode: 'serial' });

test.use({ account: { email: 'dataloss@example.test', name: 'Dana Dataloss' } });

test.beforeAll(async ({ extension: browser }) => {
  tab = await browser.context.newPage();
});

type Saved = { _id: number; link: string; note: string; tags: string[]; title: string; important: boolean };
const saved = async (server: TidemarkServer, token: string, link: string) =>
  ((await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as Saved[]).filter((i) => i.link === link);

test('an offline edit of an already-saved page adds its tag and note to the stored ones; nothing is wiped', async ({ server, site, token, extension: browser }) => {
  const url = site.add('/data-loss-tags', { title: 'Page with tags', ogTitle: 'Page with tags' });
  await tab.goto(url);
  // Saved (online) with tags and a note, as a user would in the popup.
  const first = await browser.openPopup(tab);
  await expect(first.getByRole('status')).toHaveText('Saved');
  await first.getByLabel('Tags').fill('alpha');
  await first.getByLabel('Tags').press('Enter');
  await first.getByLabel('Tags').fill('beta');
  await first.getByLabel('Tags').press('Enter');
  await first.getByLabel('Note', { exact: true }).fill('kept from before');
  await expect.poll(async () => (await saved(server, token, url))[0]?.tags).toEqual(['alpha', 'beta']);
  await expect.poll(async () => (await saved(server, token, url))[0]?.note).toBe('kept from before');
  await first.close();

  await server.stop();
  const offline = await browser.openPopup(tab);
  // It says that the stored bookmark is not known, in the offline colour, not as a success.
  await expect(offline.getByTestId('partial-notice')).toContainText('saved tags and note are not stored on this computer');
  await expect(offline.getByRole('status')).toHaveText('Offline: changes wait until the server is reachable');
  await expect(offline.getByRole('status')).toHaveClass(/tone-offline/);
  await offline.getByLabel('Tags to add').fill('gamma');
  await offline.getByLabel('Tags to add').press('Enter');
  await offline.getByLabel('Note to add').fill('added on the train');
  await expect(offline.getByRole('region', { name: 'Offline queue' })).toContainText('Waiting to be sent (1)');
  await offline.close();

  // Reopened while still offline: what waits to be added is shown, not lost or doubled.
  const again = await browser.openPopup(tab);
  await expect(again.getByText('gamma')).toBeVisible();
  await expect(again.getByLabel('Note to add')).toHaveValue('added on the train');
  await again.close();

  await server.start();
  await browser.fireAlarm('queue-drain');
  await expect.poll(async () => (await saved(server, token, url))[0]?.tags).toEqual(['alpha', 'beta', 'gamma']);
  const [b] = await saved(server, token, url);
  expect(b.note).toBe('kept from before\n\nadded on the train');
  expect(b.title).toBe('Page with tags');
  // Delivered once: draining again adds nothing.
  await browser.fireAlarm('queue-drain');
  expect((await saved(server, token, url))[0]).toMatchObject({ tags: ['alpha', 'beta', 'gamma'], note: 'kept from before\n\nadded on the train' });
});

test('signing out with unsent writes warns; "sign out anyway" keeps them for the account, and signing back in sends them', async ({ server, site, token, extension: browser }) => {
  const url = site.add('/data-loss-signout', { title: 'Written before signing out' });
  await tab.goto(url);
  await server.stop();
  const popup = await browser.openPopup(tab);
  await expect(popup.getByRole('status')).toHaveText('Queued offline');
  await popup.getByLabel('Note', { exact: true }).fill('must not be lost');
  // The page's save and its note wait: said by the notice in the popup, counted by the options page below.
  await expect(popup.getByTestId('queued-save-notice')).toContainText('Tidemark could not reach your server');
  await expect(popup.getByRole('status')).toHaveText('Queued offline');
  await popup.close();

  const options = await browser.options();
  await options.getByRole('button', { name: 'Sign out' }).click();
  const warning = options.getByRole('alertdialog');
  await expect(warning).toContainText('2 changes have not reached the server yet');
  // "Send them first" while the server is still down: nothing is lost, it says they still wait.
  await warning.getByRole('button', { name: 'Send them first' }).click();
  await expect(options.getByRole('alert')).toContainText('2 changes still wait');
  await expect(options.getByTestId('account')).toContainText('Dana Dataloss');
  await options.getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(options.getByTestId('account')).toContainText('You are not signed in');
  await options.close();

  await server.start();
  expect(await saved(server, token, url)).toHaveLength(0);
  await browser.signInWithTestToken(server.origin, token);
  // Signing in to the same account sends what waited.
  await expect.poll(async () => (await saved(server, token, url)).map((b) => b.note), { timeout: 15_000 }).toEqual(['must not be lost']);
});

test('with nothing waiting, Sign out signs out at once', async ({ server, token, extension: browser }) => {
  const options = await browser.options();
  await expect(options.getByTestId('account')).toContainText('Dana Dataloss');
  await options.getByRole('button', { name: 'Sign out' }).click();
  await expect(options.getByTestId('account')).toContainText('You are not signed in');
  await expect(options.getByRole('alertdialog')).toHaveCount(0);
  await options.close();
  await browser.signInWithTestToken(server.origin, token);
});
