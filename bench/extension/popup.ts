// Popup timings in Chromium with the built extension and the real server on loopback:
// - open -> interactive: from chrome.action.openPopup() to the form painted with the collection list;
// - open -> stored: from chrome.action.openPopup() to the server finishing POST /bookmark.
import type { Page } from '@playwright/test';
import { ExtensionBrowser } from '../../tests/e2e/helpers/extension-browser.js';
import { TestSite } from '../../tests/e2e/helpers/test-pages.js';
import { TidemarkServer } from '../../tests/e2e/helpers/tidemark-server.js';

export interface PopupFigures {
  runs: number;
  /** From openPopup() to the popup document starting to load: the browser's part. */
  windowMs: number[];
  /** All from openPopup(); `fromDocument` the same from the popup document's start (the extension's part). */
  newPage: { interactiveMs: number[]; storedMs: number[]; interactiveFromDocument: number[]; storedFromDocument: number[]; firstRequestsFromDocument: number[] };
  savedPage: { interactiveMs: number[]; interactiveFromDocument: number[] };
  /** An empty popup in the same browser: open -> first frame after its script, and from its document start. */
  baseline: { interactiveMs: number[]; interactiveFromDocument: number[] };
}

const openInWorker = async () => {
  const start = Date.now();
  await (globalThis as unknown as { chrome: { action: { openPopup(): Promise<void> } } }).chrome.action.openPopup();
  return start;
};

async function openTimed(b: ExtensionBrowser, tab: Page): Promise<{ t0: number; popup: Page; origin: number }> {
  await b.focus(tab);
  const t0 = await b.inWorker(openInWorker);
  const popup = await b.openPopupPage();
  return { t0, popup, origin: await popup.evaluate(() => performance.timeOrigin) };
}

async function markAt(popup: Page, name: string): Promise<number> {
  await popup.waitForFunction((n) => performance.getEntriesByName(n).length > 0, name, { timeout: 10_000 });
  return popup.evaluate((n) => performance.timeOrigin + performance.getEntriesByName(n)[0].startTime, name);
}

export async function benchPopup(extensionDir: string, baselineDir: string, runs = 15): Promise<PopupFigures> {
  const server = await TidemarkServer.start();
  const site = await TestSite.start();
  const { token } = await server.createUser('bench@example.test', 'correct horse battery', 'Bench');
  // A realistic account: 60 collections (some nested) and 300 bookmarks.
  const roots: number[] = [];
  for (let i = 0; i < 20; i++) roots.push((await server.api('POST', '/collection', token, { title: `Topic ${i}` })).body.item._id);
  for (let i = 0; i < 40; i++) await server.api('POST', '/collection', token, { title: `Sub ${i}`, parent: { $id: roots[i % 20] } });
  for (let i = 0; i < 3; i++) {
    const items = Array.from({ length: 100 }, (_, j) => ({ link: `https://seed.example/${i * 100 + j}`, collection: { $id: roots[j % 20] } }));
    await server.api('POST', '/bookmarks', token, { items });
  }
  const b = await ExtensionBrowser.launch(extensionDir, { alsoLoad: [baselineDir] });
  const figures: PopupFigures = {
    runs,
    windowMs: [],
    newPage: { interactiveMs: [], storedMs: [], interactiveFromDocument: [], storedFromDocument: [], firstRequestsFromDocument: [] },
    savedPage: { interactiveMs: [], interactiveFromDocument: [] },
    baseline: { interactiveMs: [], interactiveFromDocument: [] },
  };
  const baselineWorker = async () => {
    const w = b.context.serviceWorkers().find((x) => x.url().endsWith('/worker.js')) ?? (await b.context.waitForEvent('serviceworker', (x) => x.url().endsWith('/worker.js')));
    return w;
  };
  try {
    await b.signInWithTestToken(server.origin, token);
    const tab = await b.context.newPage();
    // Warm up: the first popup of a session also loads the worker's caches.
    await tab.goto(site.add('/warmup', { title: 'Warm up' }));
    await (await b.openPopup(tab)).close();

    for (let i = 0; i < runs; i++) {
      const url = site.add(`/new-${i}`, { title: `New ${i}`, ogTitle: `A new page ${i}`, description: 'Description', image: `${site.origin}/i.png` });
      await tab.goto(url);
      const before = server.timings.length;
      const { t0, popup, origin } = await openTimed(b, tab);
      const interactive = await markAt(popup, 'tidemark:interactive');
      await popup.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      const created = server.timings.slice(before).find((r) => r.route === 'POST /rest/v1/bookmark');
      if (!created) throw new Error('no POST /bookmark seen');
      figures.windowMs.push(origin - t0);
      figures.newPage.interactiveMs.push(interactive - t0);
      figures.newPage.storedMs.push(created.finishedAt - t0);
      figures.newPage.interactiveFromDocument.push(interactive - origin);
      figures.newPage.storedFromDocument.push(created.finishedAt - origin);
      // When the popup's first requests left (lib/popup/first-requests.ts); builds without that script have no such mark.
      const asked = await popup.evaluate(() => performance.getEntriesByName('tidemark:first-requests')[0]?.startTime ?? null);
      if (asked !== null) figures.newPage.firstRequestsFromDocument.push(asked);
      await popup.close();

      // The same page again: already saved, opened for editing.
      const again = await openTimed(b, tab);
      const againAt = await markAt(again.popup, 'tidemark:interactive');
      figures.savedPage.interactiveMs.push(againAt - again.t0);
      figures.savedPage.interactiveFromDocument.push(againAt - again.origin);
      await again.popup.close();

      // The empty baseline popup, same browser, same tab.
      await b.focus(tab);
      const bt0 = await (await baselineWorker()).evaluate(openInWorker);
      const base = await b.openPopupPage('/baseline.html');
      const baseAt = await markAt(base, 'baseline:interactive');
      const baseOrigin = await base.evaluate(() => performance.timeOrigin);
      figures.baseline.interactiveMs.push(baseAt - bt0);
      figures.baseline.interactiveFromDocument.push(baseAt - baseOrigin);
      await base.close();
    }
  } finally {
    await b.close();
    await site.close();
    await server.close();
  }
  return figures;
}
