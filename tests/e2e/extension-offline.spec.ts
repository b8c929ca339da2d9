// The offline queue in Chromium against the real server: writes made while the server is down are
// kept, shown in the popup, and delivered exactly once when it is back, also when the service worker
// was stopped in between.
import { expect, test, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let tab: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'offline@example.test', name: 'Otto Offline' }));
  browser = await launchSignedIn(server, token);
  tab = await browser.context.newPage();
});

test.afterAll(() => closeAll(browser, site, server));

const saved = async (link: string) =>
  ((await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as { link: string; note: string; important: boolean }[]).filter(
    (i) => i.link === link,
  );

/** The labels of the writes waiting in the offline queue (the background's stored queue). */
const waitingLabels = () =>
  browser.inWorker(async () => ((await (globalThis as any).chrome.storage.local.get('queue')).queue?.entries ?? []).map((e: { label: string }) => e.label));

test('a save and an edit made while the server is down are queued, shown, and delivered once when it is back', async () => {
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
  await expect.poll(() => waitingLabels()).toEqual(['Offline reading', 'Offline reading']);
  await popup.close();

  // Reopening the popup while offline does not queue the page a second time.
  const again = await browser.openPopup(tab);
  await expect(again.getByRole('status')).toHaveText('Queued offline');
  await expect(again.getByTestId('queued-save-notice')).toBeVisible();
  await again.close();
  expect(await waitingLabels()).toEqual(['Offline reading', 'Offline reading']);

  await server.start();
  // The alarm's handler (the same function the alarm listener calls) drains the queue.
  await browser.fireAlarm('queue-drain');
  await expect.poll(() => saved(url)).toHaveLength(1);
  expect((await saved(url))[0]).toMatchObject({ note: 'written on the train', important: true });
  // Draining again sends nothing more.
  await browser.fireAlarm('queue-drain');
  expect(await saved(url)).toHaveLength(1);
  const alarm = await browser.inWorker(() => (globalThis as any).chrome.alarms.get('queue-drain'));
  expect(alarm).toBeUndefined(); // no retry timer once the queue is empty
});

test('the queue survives the service worker being stopped: delivered exactly once after a restart of both', async () => {
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
  await expect.poll(() => saved(url), { timeout: 10_000 }).toHaveLength(1);
  await options.close();
  await browser.fireAlarm('queue-drain');
  expect(await saved(url)).toHaveLength(1);
});

test('an open popup shows the queued save turning into "Saved" when it is delivered', async () => {
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
  await expect.poll(async () => (await saved(url)).map((b) => b.note)).toEqual(['after delivery']);
});
