// Highlighting in Firefox: a real mouse drag over the text shows the highlight toolbar, a click on a
// colour stores the highlight on the server and paints it with the CSS Custom Highlight API (no
// rangy in the Firefox build); a fresh profile signed in as the same user (another device) paints it
// in the same place.
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { waitFor } from './helpers/firefox-extension.js';
import { launchSignedIn, signedInFirefoxTest } from './helpers/setup.js';
import { dragAcross, firstFrames, framesSeenInPage, framesWatchedInPage, paintedInPage, phraseBoxInPage, scrollToPhraseInPage, watchFramesInPage } from '../e2e/helpers/page-reading.js';
import { ARTICLE } from '../e2e/fixtures/highlight/article.js';
import type { TidemarkServer } from '../e2e/helpers/tidemark-server.js';
import type { Bookmark, Highlight } from '../../lib/api/types.js';
import { decodePng, shareOf } from '../e2e/fixtures/anchoring/harness.js';

let tab: Page;
let url: string;

const test = signedInFirefoxTest({ email: 'marker@example.test', name: 'Mara Marker' });

// Asking for the fixtures here starts them under the hook's time limit.
test.beforeAll(async ({ ff }) => {
  tab = await ff.browser.newPage();
});

async function highlightsOf(server: TidemarkServer, token: string, link: string): Promise<Highlight[]> {
  const items = (await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as Bookmark[];
  const mine = items.filter((i) => i.link === link);
  if (mine.length > 1) throw new Error(`${link} is saved ${mine.length} times`);
  if (!mine.length) return [];
  return ((await server.api('GET', `/bookmark/${mine[0]._id}`, token)).body.item as Bookmark).highlights ?? [];
}

/** The toolbar's buttons (in the highlighter's open shadow root) by their accessible name, with where they are. */
function toolbarButtons(page: Page): Promise<{ name: string; x: number; y: number }[]> {
  return page.evaluate(() => {
    const bar = document.querySelector('tidemark-ui')?.shadowRoot?.querySelector('[role="toolbar"]');
    if (!bar || !(bar as HTMLElement).checkVisibility()) return [];
    return [...bar.querySelectorAll('button')].map((b) => {
      const r = b.getBoundingClientRect();
      return { name: b.getAttribute('aria-label') ?? '', x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
  });
}

async function clickToolbarButton(page: Page, name: string): Promise<void> {
  const button = await waitFor(`the toolbar's ${name} button`, async () => (await toolbarButtons(page)).find((b) => b.name === name));
  await page.mouse.click(button.x, button.y);
}

test('a mouse-drag selection shows the toolbar; a colour click stores the highlight and paints it', async ({ server, site, token, ff }) => {
  url = site.add('/firefox-tides', { title: 'Tides', body: ARTICLE.body });
  // The highlighter's loader is registered for the pages the extension may read (here: localhost).
  await waitFor('the highlighter loader to be registered', async () => {
    const ids = await ff.inExtension(async (ext) => (await ext.scripting.getRegisteredContentScripts()).map((s) => s.id));
    return ids.includes('tidemark-highlighter') ? ids : undefined;
  });
  await tab.bringToFront();
  await tab.goto(url);
  const quote = ARTICLE.quotes.harbour;
  await tab.evaluate(scrollToPhraseInPage, quote);
  await dragAcross(tab.mouse, await tab.evaluate(phraseBoxInPage, quote));
  expect(await tab.evaluate(() => getSelection()?.toString())).toBe(quote);

  const shown = await waitFor('the highlight toolbar', async () => {
    const names = (await toolbarButtons(tab)).map((b) => b.name);
    return names.length ? names : undefined;
  });
  expect(shown).toContain('More colours');
  await clickToolbarButton(tab, 'More colours');
  await clickToolbarButton(tab, 'Green');

  const [h] = await waitFor('the highlight on the server', async () => {
    const hs = await highlightsOf(server, token, url);
    return hs.length ? hs : undefined;
  });
  expect(h).toMatchObject({ text: quote, color: 'green', position: 0 });
  expect(h.prefix).toBe('e sun. In the old harbour the fishermen '.slice(-32));
  await waitFor('the highlight to be painted', async () =>
    JSON.stringify(await tab.evaluate(paintedInPage, false)) === JSON.stringify({ green: [quote] }) ? true : undefined,
  );
  // Painted with CSS highlights: the page's DOM holds no highlight ids or wrapped text.
  const dom = await tab.evaluate(() => document.body.outerHTML);
  expect(dom).not.toContain(h._id);
  expect(dom).not.toContain('tidemark-hl-');
});

test('a fresh profile signed in as the same user (another device) paints the highlight in the same place', async ({ server, token }) => {
  const other = await launchSignedIn(server, token);
  try {
    await waitFor('the highlighter loader to be registered', async () =>
      (await other.inExtension(async (ext) => (await ext.scripting.getRegisteredContentScripts()).length)) ? true : undefined,
    );
    const page = await other.browser.newPage();
    await page.goto(url);
    await waitFor(
      'the repaint',
      async () => (JSON.stringify(await page.evaluate(paintedInPage, false)) === JSON.stringify({ green: [ARTICLE.quotes.harbour] }) ? true : undefined),
      15_000,
    );
  } finally {
    await other.close();
  }
});

test('the keyboard command after a mouse selection: its first frame drawn on the overlay, then painted through the Highlight API', async ({ server, token, ff }) => {
  const quote = ARTICLE.quotes.spring;
  await tab.bringToFront();
  await tab.evaluate(scrollToPhraseInPage, quote);
  const box = await tab.evaluate(phraseBoxInPage, quote);
  await dragAcross(tab.mouse, box);
  await waitFor('the highlight toolbar', async () => ((await toolbarButtons(tab)).length ? true : undefined));
  // Frame by frame from now on: the highlighter's overlay under the phrase, and the Highlight API's paint.
  await tab.evaluate(watchFramesInPage, { ...box.middle, text: quote });
  await waitFor('a frame watched before the command', async () => ((await tab.evaluate(framesSeenInPage)) > 0 ? true : undefined));
  await ff.inBackground(async (tidemark, u) => {
    const tabs = await (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<{ url?: string }[]> } } }).browser.tabs.query({});
    await tidemark.onCommand('highlight-selection', tabs.find((t) => t.url === u));
  }, url);
  await waitFor('the new highlight on the server', async () => ((await highlightsOf(server, token, url)).some((h) => h.text === quote) ? true : undefined));
  await waitFor('the new highlight painted', async () => ((await tab.evaluate(paintedInPage, false)).green?.includes(quote) ? true : undefined));
  const frames = await tab.evaluate(framesWatchedInPage);
  // Nothing painted in the frame before the command; then a frame with the overlay's colour under the phrase
  // before any frame with the Highlight API's range; from that one on, the overlay rubbed out.
  expect(firstFrames(frames), JSON.stringify(frames)).toEqual({ blankBefore: true, overlayFirst: true, overlayGoneOnceApi: true });
});

test('on a site the extension may not read by itself, the toolbar button paints the saved highlights: scoped to marked paragraphs, in colour', async ({ server, site, token, ff }) => {
  // 127.0.0.1 is not among the extension's hosts (localhost is): nothing runs there until the press,
  // which grants activeTab. The page then has no ::highlight() rules of the extension's: the painter
  // adds its own, scoped to the elements it marks (the scope-marks part), as in Chromium.
  const first = 'the pilot boat went out to meet the freighter';
  const second = 'ropes were thrown and the tugs took over';
  site.add('/firefox-pilot', {
    title: 'The pilot boat',
    body: `<style>body { font: 20px/1.6 sans-serif; margin: 24px; }</style><p>At six ${first} beyond the breakwater.</p><p>Inside the harbour ${second} for the last mile.</p>`,
  });
  const pilot = `http://127.0.0.1:${new URL(site.origin).port}/firefox-pilot`;
  const created = await server.api('POST', '/bookmark', token, { link: pilot, title: 'The pilot boat', collectionId: -1 });
  expect(created.status).toBe(200);
  const put = await server.api('PUT', `/bookmark/${created.body.item._id}`, token, {
    highlights: [
      { text: first, color: 'green' },
      { text: second, color: 'orange' },
    ],
  });
  expect(put.status).toBe(200);
  const page = await ff.browser.newPage();
  try {
    await page.goto(pilot);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await page.evaluate(paintedInPage, false)).toEqual({});
    await ff.pressToolbarButton(page);
    const expected = JSON.stringify({ green: [first], orange: [second] });
    await waitFor('the highlights painted after the press', async () => (JSON.stringify(await page.evaluate(paintedInPage, false)) === expected ? true : undefined), 15_000);
    expect(await page.evaluate(() => [...document.querySelectorAll('[data-tidemark-hl]')].map((e) => `${e.localName}:${e.getAttribute('data-tidemark-hl')}`))).toEqual([
      'p:green',
      'p:orange',
    ]);
    await ff.closePopup();
    // The colour is on screen: the middle of the first quote is green.
    const box = await page.evaluate(phraseBoxInPage, first);
    const shot = decodePng(Buffer.from(await page.screenshot({ clip: { x: box.middle.x - 30, y: box.middle.y - 6, width: 60, height: 12 } })));
    expect(shareOf(shot, ([r, g, b]) => g > r + 12 && g > b + 12)).toBeGreaterThan(0.3);
  } finally {
    await page.close();
  }
});
