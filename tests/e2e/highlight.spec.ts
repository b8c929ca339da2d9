// Highlighting on the live page, in Chromium with the built extension against the real server:
// select -> toolbar -> colour -> stored on the server with its context; the context-menu path; repaint
// after a reload and on another device (a fresh browser profile); an edited page; offline highlights.
import { expect, test, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { bookmarkOf, clickPhrase, dragSelect, highlightToolbar, painted, phraseBox } from './helpers/highlighting.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import { openSidePanel } from './helpers/side-panel.js';
import { ARTICLE } from './fixtures/highlight/article.js';
import { firstFrames, framesSeenInPage, framesWatchedInPage, paintedInPage, watchFramesInPage } from './helpers/page-reading.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let tab: Page;

test.describe.configure({ mode: 'serial' });

const highlightsOf = async (link: string) => (await bookmarkOf(server, token, link))?.highlights ?? [];

/** Selects `phrase` from script (for the context-menu and keyboard paths, which do not need a drag). */
async function scriptSelect(page: Page, phrase: string): Promise<void> {
  await page.evaluate((text) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = (n.nodeValue ?? '').indexOf(text);
      if (i < 0) continue;
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + text.length);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(r);
      return;
    }
    throw new Error(`"${text}" is not on the page`);
  }, phrase);
}

/** Clicks a context-menu item (the same function the browser's menu listener calls). */
async function menuClick(b: ExtensionBrowser, pageUrl: string, menuItemId: string, selectionText: string) {
  await b.inWorker(
    async ({ url, id, text }) => {
      const c = (globalThis as any).chrome;
      const tab = (await c.tabs.query({})).find((t: { url?: string }) => t.url === url);
      await (globalThis as any).tidemark.onMenuClicked({ menuItemId: id, selectionText: text, pageUrl: url, editable: false }, tab);
    },
    { url: pageUrl, id: menuItemId, text: selectionText },
  );
}

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'highlighter@example.test', name: 'Hana Highlighter' }));
  browser = await launchSignedIn(server, token);
  // The loader is registered for the pages the extension may read (here: localhost).
  await expect
    .poll(async () => (await browser.registeredScripts()).map((s) => s.id))
    .toEqual(['tidemark-highlighter']);
  tab = await browser.context.newPage();
});

test.afterAll(() => closeAll(browser, site, server));

test('select text -> toolbar -> colour: the page is saved and the highlight stored with its colour, position and context, and painted', async () => {
  const url = site.add('/article', { title: 'Tides', body: ARTICLE.body });
  await tab.goto(url);
  await dragSelect(tab, ARTICLE.quotes.harbour);
  const bar = highlightToolbar(tab);
  await expect(bar).toBeVisible();
  // The 4 most used colours first, all 12 one click away.
  await expect(bar.locator('.swatch')).toHaveCount(4);
  await bar.getByRole('button', { name: 'More colours' }).click();
  await expect(bar.locator('.swatch')).toHaveCount(12);
  // Showing the toolbar and pressing it did not clear the page's selection.
  expect(await tab.evaluate(() => getSelection()!.toString())).toBe(ARTICLE.quotes.harbour);
  // What the first frame after the click shows (an animation-frame callback, asked for as the click
  // reaches the window, runs before that frame is rendered): the highlight, painted in the click's own
  // task, before it is described and sent.
  await tab.evaluate((read) => {
    const paintedNow = new Function(`return (${read})(false)`) as () => unknown;
    const record = () => requestAnimationFrame(() => ((window as unknown as { paintedInFirstFrame: unknown }).paintedInFirstFrame = paintedNow()));
    window.addEventListener('click', record, { capture: true, once: true });
  }, paintedInPage.toString());
  await bar.getByRole('button', { name: 'Green' }).click();
  await expect.poll(() => tab.evaluate(() => (window as unknown as { paintedInFirstFrame: unknown }).paintedInFirstFrame)).toEqual({ green: [ARTICLE.quotes.harbour] });

  await expect.poll(() => highlightsOf(url)).toHaveLength(1);
  const [h] = await highlightsOf(url);
  expect(h).toMatchObject({ text: ARTICLE.quotes.harbour, color: 'green', position: 0 });
  expect(h.prefix).toBe('e sun. In the old harbour the fishermen '.slice(-32));
  expect(h.suffix?.startsWith(' and the sound of the bell buoy.')).toBe(true);
  await expect.poll(() => painted(tab)).toEqual({ green: [ARTICLE.quotes.harbour] });
  await expect(tab.getByRole('status').filter({ hasText: 'Highlighted' })).toBeVisible();
  // Nothing about the highlight went into the page's DOM except the toolbar's host element.
  const dom = await tab.evaluate(() => document.documentElement.outerHTML);
  expect(dom).not.toContain(h._id);
});

test('the context menu "Highlight > Blue" goes through the same handler; Undo on the toast removes it again', async () => {
  const url = `${site.origin}/article`;
  await scriptSelect(tab, ARTICLE.quotes.spring);
  await menuClick(browser, url, 'highlight:blue', ARTICLE.quotes.spring);
  await expect.poll(async () => (await highlightsOf(url)).map((h) => `${h.color}:${h.text}`).sort()).toEqual(
    [`blue:${ARTICLE.quotes.spring}`, `green:${ARTICLE.quotes.harbour}`].sort(),
  );
  await expect.poll(() => painted(tab)).toEqual({ green: [ARTICLE.quotes.harbour], blue: [ARTICLE.quotes.spring] });

  // A third one, undone from the toast.
  await scriptSelect(tab, ARTICLE.quotes.closing);
  await menuClick(browser, url, 'highlight:red', ARTICLE.quotes.closing);
  await expect.poll(async () => (await highlightsOf(url)).length).toBe(3);
  await tab.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(async () => (await highlightsOf(url)).length).toBe(2);
  await expect.poll(() => painted(tab)).toEqual({ green: [ARTICLE.quotes.harbour], blue: [ARTICLE.quotes.spring] });
});

test('the keyboard command highlights in the last colour used (red, though undone); a click on a highlight offers change colour and delete', async () => {
  const url = `${site.origin}/article`;
  await scriptSelect(tab, ARTICLE.quotes.neap);
  await browser.inWorker(async (u) => {
    const tabs = await (globalThis as any).chrome.tabs.query({});
    await (globalThis as any).tidemark.onCommand('highlight-selection', tabs.find((t: { url?: string }) => t.url === u));
  }, url);
  await expect.poll(async () => (await highlightsOf(url)).find((h) => h.text === ARTICLE.quotes.neap)?.color).toBe('red');

  // Click inside the green highlight: the toolbar offers its actions.
  await clickPhrase(tab, ARTICLE.quotes.harbour);
  const bar = highlightToolbar(tab);
  await expect(bar.getByRole('button', { name: 'Delete' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Green' })).toHaveAttribute('aria-pressed', 'true');
  await bar.getByRole('button', { name: 'More colours' }).click();
  await bar.getByRole('button', { name: 'Purple' }).click();
  await expect.poll(async () => (await highlightsOf(url)).find((h) => h.text === ARTICLE.quotes.harbour)?.color).toBe('purple');
  await expect.poll(async () => (await painted(tab)).purple).toEqual([ARTICLE.quotes.harbour]);

  // Delete the neap one with the toolbar, then Ctrl+Z on the toolbar brings it back.
  await clickPhrase(tab, ARTICLE.quotes.neap);
  await bar.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(async () => (await highlightsOf(url)).some((h) => h.text === ARTICLE.quotes.neap)).toBe(false);
  // Focus on the toast's Undo keeps the toast up (a loaded machine can take its 6 s before the key).
  const undo = tab.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeVisible();
  await undo.focus();
  await expect(undo).toBeFocused();
  await tab.keyboard.press('Control+z');
  await expect.poll(async () => (await highlightsOf(url)).find((h) => h.text === ARTICLE.quotes.neap)?.color).toBe('red');
  await expect.poll(async () => (await painted(tab)).red).toEqual([ARTICLE.quotes.neap]);
});

test('a highlight made by the keyboard command after a mouse selection shows in the very next frame, drawn over its text, then is painted as the others are', async () => {
  const phrase = 'the first frame after the command already shows it';
  const url = site.add('/first-frame', { title: 'First frame', body: `<style>body { font: 20px/1.6 serif; margin: 24px; }</style><p>Words before, then ${phrase}, and words after.</p>` });
  // A tab of its own: the tests after this one go on with the article in `tab`.
  const tab = await browser.context.newPage();
  await tab.goto(url);
  await dragSelect(tab, phrase);
  await expect(highlightToolbar(tab)).toBeVisible();
  const { middle } = await phraseBox(tab, phrase);
  // Frame by frame from now on: the highlighter's overlay under the phrase, and the Highlight API's paint.
  await tab.evaluate(watchFramesInPage, { ...middle, text: phrase });
  await expect.poll(() => tab.evaluate(framesSeenInPage)).toBeGreaterThan(0);
  await browser.inWorker(async (u) => {
    const tabs = await (globalThis as any).chrome.tabs.query({});
    await (globalThis as any).tidemark.onCommand('highlight-selection', tabs.find((t: { url?: string }) => t.url === u));
  }, url);
  await expect.poll(async () => (await highlightsOf(url)).map((h) => h.text)).toEqual([phrase]);
  const color = (await highlightsOf(url))[0].color!;
  await expect.poll(() => painted(tab)).toEqual({ [color]: [phrase] });
  await expect(highlightToolbar(tab)).toBeHidden();
  const frames = await tab.evaluate(framesWatchedInPage);
  // Nothing painted in the frame before the command; then a frame with the overlay's colour under the phrase
  // before any frame with the Highlight API's range; from that one on, the overlay rubbed out.
  expect(firstFrames(frames), JSON.stringify(frames)).toEqual({ blankBefore: true, overlayFirst: true, overlayGoneOnceApi: true });
  await tab.close();
});

test('after a reload, and in a fresh browser profile signed in as the same user, the highlights are painted in the same places', async () => {
  const url = `${site.origin}/article`;
  const expected = {
    purple: [ARTICLE.quotes.harbour],
    blue: [ARTICLE.quotes.spring],
    red: [ARTICLE.quotes.neap],
  };
  await tab.reload();
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual(expected);

  const other = await launchSignedIn(server, token);
  try {
    await expect.poll(() => other.registeredScripts()).toHaveLength(1);
    const page = await other.context.newPage();
    await page.goto(url);
    await expect.poll(() => painted(page), { timeout: 10_000 }).toEqual(expected);
  } finally {
    await other.close();
  }
});

test('an edited version of the page: highlights still there are repainted, the removed one is painted nowhere', async () => {
  const url = site.add('/article', { title: 'Tides', body: ARTICLE.edited });
  await tab.goto(url);
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({
    purple: [ARTICLE.quotes.harbour],
    blue: [ARTICLE.quotes.spring],
  });
  // Nothing painted anywhere else once the highlighter has placed all three: the popup's summary is
  // its answer, with the removed one not found.
  const summary = await browser.openPopup(tab);
  await expect(summary.getByTestId('highlight-summary')).toHaveText('3 highlights, 1 not found');
  await summary.close();
  expect(await painted(tab)).toEqual({ purple: [ARTICLE.quotes.harbour], blue: [ARTICLE.quotes.spring] });
});

test('the popup counts the highlights; the side panel lists them in page order, the missing one under "Not found on this page"; notes are edited there; a click shows it', async () => {
  const url = `${site.origin}/article`;
  const summary = await browser.openPopup(tab);
  await expect(summary.getByTestId('highlight-summary')).toHaveText('3 highlights, 1 not found');
  await summary.close();
  const popup = await openSidePanel(browser, tab);
  const list = popup.getByRole('region', { name: 'Highlights' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  const notFound = list.getByRole('region', { name: 'Not found on this page' });
  await expect(notFound).toContainText(ARTICLE.quotes.neap);
  const found = list.locator('ol > li');
  await expect(found).toHaveCount(2);
  await expect(found.nth(0)).toContainText(ARTICLE.quotes.harbour);
  await expect(found.nth(1)).toContainText(ARTICLE.quotes.spring);

  await found.nth(0).getByLabel('Note').fill('ask the harbour master');
  await expect
    .poll(async () => (await highlightsOf(url)).find((h) => h.text === ARTICLE.quotes.harbour)?.note)
    .toBe('ask the harbour master');
  // The page shows that there is a note (underline), never the note itself.
  await expect
    .poll(() => tab.evaluate(() => (CSS as any).highlights.get('tidemark-note')?.size ?? 0))
    .toBe(1);
  expect(await tab.evaluate(() => document.documentElement.outerHTML)).not.toContain('harbour master');

  await found.nth(1).getByRole('button', { name: ARTICLE.quotes.spring }).click();
  await expect.poll(() => tab.evaluate(() => (CSS as any).highlights.get('tidemark-flash')?.size ?? 0), { intervals: [20] }).toBeGreaterThan(0);
  await popup.close();
});

test('"Highlight with note" from the context menu opens the side panel at that highlight\'s note', async () => {
  const url = `${site.origin}/article`;
  await scriptSelect(tab, ARTICLE.quotes.closing);
  await menuClick(browser, url, 'highlight-note', ARTICLE.quotes.closing);
  await expect.poll(async () => (await highlightsOf(url)).some((h) => h.text === ARTICLE.quotes.closing)).toBe(true);
  // The real side panel (found over CDP), following this window.
  const popup = await browser.openPopupPage('/sidepanel.html');
  const item = popup.getByRole('region', { name: 'Highlights' }).locator('li').filter({ hasText: ARTICLE.quotes.closing });
  await expect(item.getByLabel('Note')).toBeFocused();
  await popup.keyboard.type('check the tide table');
  await expect
    .poll(async () => (await highlightsOf(url)).find((h) => h.text === ARTICLE.quotes.closing)?.note)
    .toBe('check the tide table');
  await popup.close();
});

test('after the page re-renders, and across SPA navigations, highlights are anchored again', async () => {
  const url = `${site.origin}/article`;
  const expected = await painted(tab, { notes: true });
  expect(Object.keys(expected).length).toBeGreaterThan(0);
  // Re-render in place: every text node is replaced.
  await tab.evaluate(() => {
    // eslint-disable-next-line no-self-assign -- the point: the same markup, every node new
    document.body.innerHTML = document.body.innerHTML;
  });
  await expect.poll(() => painted(tab, { notes: true })).toEqual(expected);
  // An in-app navigation to an unsaved route with other content: nothing of the article is painted.
  await tab.evaluate(() => {
    const saved = document.body.innerHTML;
    (window as any).savedArticle = saved;
    document.body.innerHTML = '<p>Another route of the app, about read the water by the colour of the kelp, quoted.</p>';
    history.pushState({}, '', '/other-route');
  });
  await expect.poll(() => painted(tab, { notes: true })).toEqual({});
  // And back: painted again.
  await tab.evaluate(() => {
    document.body.innerHTML = (window as any).savedArticle;
    history.pushState({}, '', '/article');
  });
  await expect.poll(() => painted(tab, { notes: true })).toEqual(expected);
  expect(tab.url()).toBe(url);
});

test('a page change away from the highlights leaves them painted as they are; a re-rendered paragraph re-anchors only its highlight', async () => {
  const expected = await painted(tab, { notes: true });
  const colourTexts = Object.entries(expected).flatMap(([name, texts]) => (name === 'note' ? [] : texts));
  expect(colourTexts).toContain(ARTICLE.quotes.harbour);
  // The painted ranges by their text: `keep` remembers them in the page, `compare` tells, for each text
  // painted now, whether it is painted with the same range object as then.
  const ranges = (what: 'keep' | 'compare') =>
    tab.evaluate((mode) => {
      const w = window as unknown as { kept: Map<string, AbstractRange> };
      const now = new Map<string, AbstractRange>();
      for (const [name, h] of (CSS as unknown as { highlights: Map<string, Set<AbstractRange>> }).highlights) {
        if (!/^tidemark-(yellow|green|blue|red|purple)$/.test(name)) continue;
        for (const r of h) {
          const live = document.createRange();
          live.setStart(r.startContainer, r.startOffset);
          live.setEnd(r.endContainer, r.endOffset);
          now.set(live.toString().replace(/\s+/g, ' ').trim(), r);
        }
      }
      if (mode === 'keep') w.kept = now;
      return Object.fromEntries([...now].map(([text, r]) => [text, w.kept.get(text) === r]));
    }, what);
  expect(Object.keys(await ranges('keep')).sort()).toEqual([...colourTexts].sort());
  // A live page: a clock at the top ticks and a comment arrives at the end, far from every highlight,
  // and the harbour paragraph is re-rendered (new text nodes, the same words), all before the
  // highlighter's next look at the page.
  await tab.evaluate((harbour) => {
    const clock = Object.assign(document.createElement('div'), { textContent: '12:00:00' });
    document.body.prepend(clock);
    clock.textContent = '12:00:01';
    document.body.append(Object.assign(document.createElement('p'), { textContent: 'A reader’s comment: thank you for this.' }));
    const p = [...document.querySelectorAll('p')].find((el) => el.textContent!.includes(harbour))!;
    // eslint-disable-next-line no-self-assign -- the point: the same words in new nodes
    p.textContent = p.textContent;
  }, ARTICLE.quotes.harbour);
  // The re-rendered paragraph's highlight is painted again, on its new text; every other highlight
  // keeps its range: it was not anchored again, nor repainted.
  await expect.poll(async () => (await ranges('compare'))[ARTICLE.quotes.harbour]).toBe(false);
  const same = await ranges('compare');
  expect(Object.keys(same).sort()).toEqual([...colourTexts].sort());
  for (const [text, kept] of Object.entries(same)) expect(kept, text).toBe(text !== ARTICLE.quotes.harbour);
  expect(await painted(tab, { notes: true })).toEqual(expected);
});

test('a highlight made while the server is down is kept and delivered after reconnecting', async () => {
  const url = site.add('/offline-article', { title: 'Tides offline', body: ARTICLE.body });
  await tab.goto(url);
  // Saved first (online), then the server goes away.
  await dragSelect(tab, ARTICLE.quotes.mark);
  await highlightToolbar(tab).locator('.swatch').first().click();
  await expect.poll(() => highlightsOf(url)).toHaveLength(1);

  await server.stop();
  await dragSelect(tab, ARTICLE.quotes.closing);
  await highlightToolbar(tab).getByRole('button', { name: 'More colours' }).click();
  await highlightToolbar(tab).getByRole('button', { name: 'Orange' }).click();
  await expect.poll(async () => (await painted(tab)).orange).toEqual([ARTICLE.quotes.closing]);
  await server.start();
  await expect
    .poll(
      async () => {
        await browser.fireAlarm('queue-drain');
        return (await highlightsOf(url)).map((h) => `${h.color}:${h.text}`).sort();
      },
      { timeout: 15_000 },
    )
    .toContain(`orange:${ARTICLE.quotes.closing}`);
  const stored = (await highlightsOf(url)).find((h) => h.text === ARTICLE.quotes.closing)!;
  expect(stored.prefix).toBeTruthy();
  expect(stored.suffix).toBeTruthy();
  // Delivered once.
  expect((await highlightsOf(url)).filter((h) => h.text === ARTICLE.quotes.closing)).toHaveLength(1);
});
