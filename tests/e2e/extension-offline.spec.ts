// The offline queue in Chromium against the real server: writes made while the server is down are
// kept, shown in the popup, and delivered exactly once when it is back, also when the service worker
// was stopped in between.
import { expect, test } from './helpers/extension-test.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import type { Page } from '@playwright/test';

let tab: Page;

test.describe.configure({ mode: 'serial' });

test.use({ account: { email: 'offline@example.test', name: 'Otto Offline' } });

test.beforeAll(async ({ extension: browser }) => {
  tab = await browser.context.newPage();
});

const saved = async (server: TidemarkServer, token: string, link: string) =>
  ((await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as { link: string; note: string; important: boolean }[]).filter(
    (i) => i.link === link,
  );

/** The labels of the writes waiting in the offline queue (the background's stored queue). */
const waitingLabels = (browser: ExtensionBrowser) =>
  browser.inWorker(async () => ((await (globalThis as any).chrome.storage.local.get('queue')).queue?.entries ?? []).map((e: { label: string }) => e.label));

test('a save and an edit made while the server is down are queued, shown, and delivered once when it is back', async ({ server, site, token, extension: browser }) => {
  const url = site.add('/offline-1', { title: 'Read later, offline', ogTitle: 'Offline reading' });
  await tab.goto(url);
  await server.stop();

  const popup = await browser.openPopup(tab);
  await expect(popup.getByRole('status')).toHaveText('Queued offline');
  // What happened and what to do, where the page's waiting writes are shown while its save waits.
  await expect(popup.getByTestId('queued-save-notice')).toContainText('Tidemark could not reach your server');
  await popup.getByLabel('Note').fill('written on the train');
  await expect(popup.getByRole('status')).toHaveText('Queued offline');
  await popup.getByLabel('Favourite').check();
  await expect.poll(() => waitingLabels(browser)).toEqual(['Offline reading', 'Offline reading']);
  await popup.close();

  // Reopening the popup while offline does not queue the page a second time.
  const again = await browser.openPopup(tab);
  await expect(again.getByRole('status')).toHaveText('Queued offline');
  await expect(again.getByTestId('queued-save-notice')).toBeVisible();
  await again.close();
  expect(await waitingLabels(browser)).toEqual(['Offline reading', 'Offline reading']);

  await server.start();
  // The alarm's handler (the same function the alarm listener calls) drains the queue.
  await browser.fireAlarm('queue-drain');
  await expect.poll(() => saved(server, token, url)).toHaveLength(1);
  expect((await saved(server, token, url))[0]).toMatchObject({ note: 'written on the train', important: true });
  // Draining again sends nothing more.
  await browser.fireAlarm('queue-drain');
  expect(await saved(server, token, url)).toHaveLength(1);
  const alarm = await browser.inWorker(() => (globalThis as any).chrome.alarms.get('queue-drain'));
  expect(alarm).toBeUndefined(); // no retry timer once the queue is empty
});

test('the queue survives the service worker being stopped: delivered exactly once after a restart of both', async ({ server, site, token, extension: browser }) => {
  const url = site.add('/offline-2', { title: 'Survives a stopped worker' });
  await tab.goto(url);
  await server.stop();
  const popup = await browser.openPopup(tab);
  await expect(popup.getByRole('status')).toHaveText('Queued offline');
  await popup.close();
  expect(await browser.inWorker(() => (globalThis as any).chrome.alarms.get('queue-drain'))).toMatchObject({ name: 'queue-drain' });

  await browser.stopWorker();
  expect(await browser.workerRunning()).toBe(false);
  await server.start();

  // Any event wakes the worker (here: the options page asking for the status); it drains on start.
  const options = await browser.options();
  await expect.poll(() => browser.workerRunning()).toBe(true);
  await expect(options.getByTestId('account')).toContainText('Otto Offline');
  await expect.poll(() => saved(server, token, url), { timeout: 10_000 }).toHaveLength(1);
  await options.close();
  await browser.fireAlarm('queue-drain');
  expect(await saved(server, token, url)).toHaveLength(1);
});

test('an open popup shows the queued save turning into "Saved" when it is delivered', async ({ server, site, token, extension: browser }) => {
  const url = site.add('/offline-3', { title: 'Watched while delivered' });
  await tab.goto(url);
  await server.stop();
  const popup = await browser.openPopup(tab);
  await expect(popup.getByRole('status')).toHaveText('Queued offline');
  await expect(popup.getByTestId('queued-save-notice').getByRole('button', { name: 'Try again' })).toBeVisible();
  await server.start();
  // Drain (as the alarm does) until it goes through: a drain begun while the server was down may still be finishing.
  await expect
    .poll(async () => {
      await browser.fireAlarm('queue-drain');
      return popup.getByRole('status').textContent();
    })
    .toBe('Saved');
  await expect(popup.getByRole('region', { name: 'Offline queue' })).toHaveCount(0);
  // Later edits go straight to the server's bookmark.
  await popup.getByLabel('Note').fill('after delivery');
  await expect(popup.getByRole('status')).toHaveText('Saved');
  await expect.poll(async () => (await saved(server, token, url)).map((b) => b.note)).toEqual(['after delivery']);
});
