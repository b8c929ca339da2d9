// The offline queue in Firefox: a save made while the server is down waits in the queue (the popup
// says so and lists it), survives the background page being restarted (the temporary add-on
// reloaded, as about:debugging's Reload does) while the server is down, and is delivered exactly once
// when the server is back (and not again after another restart).
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { waitFor } from './helpers/firefox-extension.js';
import { signedInFirefoxTest } from './helpers/setup.js';
import type { TidemarkServer } from '../e2e/helpers/tidemark-server.js';
import type { Bookmark } from '../../lib/api/types.js';

let tab: Page;

const test = signedInFirefoxTest({ email: 'offline-fox@example.test', name: 'Otto Fox' });

// Asking for the fixtures here starts them under the hook's time limit.
test.beforeAll(async ({ ff }) => {
  tab = await ff.browser.newPage();
});

const saved = async (server: TidemarkServer, token: string, link: string) =>
  ((await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as Bookmark[]).filter((i) => i.link === link);

test('a save made offline is queued, survives a background restart, and is delivered once when the server is back', async ({ server, site, token, ff }) => {
  const url = site.add('/offline-fox', { title: 'Read later, offline', ogTitle: 'Offline foxes' });
  await tab.goto(url);
  await server.stop();

  const popup = await ff.pressToolbarButton(tab);
  await popup.waitForStatus('Queued offline');
  // What happened and what to do (the page's own save waits: the notice says so instead of the queue's list).
  await waitFor('the notice in the popup', async () => ((await popup.text()).includes('Tidemark could not reach your server') ? true : undefined));
  expect(await popup.value('Title')).toBe('Offline foxes');
  await ff.closePopup();
  expect(await ff.inExtension((ext) => ext.alarms.get('queue-drain'))).toMatchObject({ name: 'queue-drain' });

  // The background restarts while the server is still down: the queued save is still there.
  await ff.reloadExtension();
  const waiting = await ff.inExtension(async (ext) => ((await ext.storage.local.get('queue')).queue as { entries: unknown[] }).entries.length);
  expect(waiting).toBe(1);

  await server.start();
  // The drain alarm's handler (the same function the alarm listener calls) delivers it.
  await ff.fireAlarm('queue-drain');
  await waitFor('the queued save on the server', async () => ((await saved(server, token, url)).length ? true : undefined), 15_000);
  expect(await saved(server, token, url)).toMatchObject([{ link: url, title: 'Offline foxes' }]);

  // Draining again sends nothing more, no retry alarm is left, and another restart re-sends nothing.
  await ff.fireAlarm('queue-drain');
  await waitFor('the drain alarm to be cleared', async () => ((await ff.inExtension((ext) => ext.alarms.get('queue-drain'))) ? undefined : true));
  await ff.reloadExtension();
  await ff.fireAlarm('queue-drain');
  expect(await saved(server, token, url)).toHaveLength(1);
  // Still signed in after the restart, and the page shows as saved.
  const again = await ff.pressToolbarButton(tab);
  await again.waitForStatus('Already saved: editing it');
  await ff.closePopup();
  await waitFor('the saved badge', async () => ((await ff.badgeOfActiveTab()).text === '✓' ? true : undefined));
});
