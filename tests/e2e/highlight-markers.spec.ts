// The page-edge marker strip, in Chromium with the built extension against the real server: one mark
// per painted highlight, at the highlight's height on the page and in its colour; a click on a mark
// scrolls to its highlight; marks follow deletes, Undo, page changes and resizes; and nothing in the
// page (the strip included: its shadow root is open to page scripts) names a highlight or its note.
import { expect, test, type Page } from '@playwright/test';
import type { Highlight } from '../../lib/api/types.js';
import { COLOR_VALUES } from '../../lib/painting/styles.js';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { bookmarkOf, clickPhrase, edgeMarks, highlightToolbar, painted, phraseBox, saveWithHighlights } from './helpers/highlighting.js';
import type { TestSite } from './helpers/test-pages.js';
import { decodePng, shareOf } from './fixtures/anchoring/harness.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

const Q = {
  top: 'the first lock keeper opened the gates at dawn',
  middle: 'barges waited in a line halfway down the canal',
  bottom: 'the last barge reached the basin after dark',
  gone: 'a sentence that is on no version of this page',
};
const NOTE = 'private note about the lock keeper';

// A long page: the three quotes near the top, in the middle and near the bottom. The first spacer's
// height follows the window's width, so a resize moves the quotes without changing the DOM.
const BODY = `<style>body { font: 20px/1.6 sans-serif; margin: 24px; } p { margin: 0; }</style>
<p>At the top: ${Q.top}, as every morning.</p>
<div style="height: 120vw"></div>
<div style="height: 1400px"></div>
<p>In the middle: ${Q.middle}, one after another.</p>
<div style="height: 2600px"></div>
<p>At the bottom: ${Q.bottom}, with its lamps lit.</p>
<div style="height: 150px"></div>`;

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let tab: Page;
let url: string;
let saved: Highlight[];

test.describe.configure({ mode: 'serial' });

interface Mark {
  /** 0..1: the mark's top in the strip (the strip is the window's height). */
  at: number;
  color: string;
}

/** The marks as the reader sees them, top to bottom: where in the window's height, and their colour. */
function marks(page: Page): Promise<Mark[]> {
  return page.evaluate(() => {
    const out: { at: number; color: string }[] = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) visit(el.shadowRoot);
        if (el.getAttribute('aria-label') === 'Go to highlight') {
          const r = el.getBoundingClientRect();
          out.push({ at: r.top / window.innerHeight, color: getComputedStyle(el).backgroundColor });
        }
      }
    };
    visit(document);
    return out.sort((a, b) => a.at - b.at);
  });
}

/** Where each phrase is on the page: its top as a share of the page's full height. */
async function expectedAt(page: Page, phrases: string[]): Promise<number[]> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const out: number[] = [];
  for (const p of phrases) out.push((await phraseBox(page, p)).docTop / height);
  return out;
}

const rgb = (css: string) => css.match(/\d+/g)!.slice(0, 3).join(',');

/** The marks match the phrases (in page order) in place and colour. */
async function expectMarksAt(page: Page, expected: { phrase: string; color: keyof typeof COLOR_VALUES }[]) {
  await expect
    .poll(async () => {
      const got = await marks(page);
      const want = await expectedAt(page, expected.map((e) => e.phrase));
      if (got.length !== want.length) return `${got.length} marks, want ${want.length}`;
      const off = got.map((m, i) => Math.abs(m.at - want[i])).filter((d) => d > 0.006);
      if (off.length) return `marks at ${got.map((m) => m.at.toFixed(3))}, want ${want.map((w) => w.toFixed(3))}`;
      const colors = got.map((m) => rgb(m.color));
      const wantColors = expected.map((e) => rgb(COLOR_VALUES[e.color]));
      return colors.join(' ') === wantColors.join(' ') ? 'ok' : `colours ${colors.join(' ')}, want ${wantColors.join(' ')}`;
    })
    .toBe('ok');
}

const ALL = [
  { phrase: Q.top, color: 'green' as const },
  { phrase: Q.middle, color: 'blue' as const },
  { phrase: Q.bottom, color: 'red' as const },
];

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'markers@example.test', name: 'Mara Markers' }));
  url = site.add('/canal', { title: 'The canal', body: BODY });
  // Saved from another device before this browser signs in: the page paints on load (localhost is
  // one of the extension's hosts).
  saved = (
    await saveWithHighlights(server, token, url, [
      { text: Q.bottom, color: 'red' },
      { text: Q.top, color: 'green', note: NOTE },
      { text: Q.gone, color: 'yellow' },
      { text: Q.middle, color: 'blue' },
    ])
  ).highlights;
  browser = await launchSignedIn(server, token);
  tab = await browser.context.newPage();
  await tab.setViewportSize({ width: 1000, height: 700 });
});

test.afterAll(() => closeAll(browser, site, server));

test('one mark per painted highlight, at the highlight\'s height on the page and in its colour; nothing in the page names a highlight or its note', async () => {
  await tab.goto(url);
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [Q.top], blue: [Q.middle], red: [Q.bottom] });
  // Three marks: the highlight not found on the page has none.
  await expect(edgeMarks(tab)).toHaveCount(3);
  await expectMarksAt(tab, ALL);
  const got = await marks(tab);
  expect(got[0].at).toBeLessThan(0.05);
  expect(got[1].at).toBeGreaterThan(0.4);
  expect(got[1].at).toBeLessThan(0.7);
  expect(got[2].at).toBeGreaterThan(0.9);

  // The strip lives in the toolbar's shadow root on one element without id, class or data attributes;
  // neither the page's DOM nor that shadow tree holds a highlight id or the note.
  const page = await tab.evaluate(() => {
    const hosts = [...document.querySelectorAll('*')].filter((e) => e.shadowRoot);
    return {
      hosts: hosts.map((h) => ({ tag: h.tagName.toLowerCase(), attrs: h.getAttributeNames().sort() })),
      html: document.documentElement.outerHTML + hosts.map((h) => h.shadowRoot!.innerHTML).join(''),
      marksInLightDom: document.querySelectorAll('[aria-label="Go to highlight"]').length,
    };
  });
  expect(page.hosts).toEqual([{ tag: 'tidemark-ui', attrs: ['popover', 'style'] }]); // popover: shown in the top layer
  expect(page.marksInLightDom).toBe(0);
  expect(page.html).toContain('Go to highlight');
  // The strip is named for screen readers (set when the strip first shows, not when the highlighter starts).
  expect(page.html).toContain('aria-label="Tidemark highlights on this page"');
  for (const h of saved) expect(page.html).not.toContain(h._id);
  expect(page.html).not.toContain(NOTE);
});

test('the strip is shown in the top layer, and a page whose style sheet draws a backdrop (for its own dialogs) is not covered by one', async () => {
  // Many pages style ::backdrop for their dialogs; every element in the top layer gets one.
  const dialogPage = site.add('/canal-dialogs', { title: 'The canal, with dialogs', body: `<style>::backdrop { background: rgb(200, 0, 0); }</style>${BODY}` });
  await saveWithHighlights(server, token, dialogPage, [{ text: Q.top, color: 'green' }]);
  await browser.fireAlarm('index-sync');
  await tab.goto(dialogPage);
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [Q.top] });
  await expect(edgeMarks(tab)).toHaveCount(1);
  // In the top layer: adding it does not make Chromium walk the whole page in the next frame.
  expect(await tab.evaluate(() => document.querySelector('tidemark-ui')!.matches(':popover-open'))).toBe(true);
  // The page's blank middle is still white, not the page's backdrop colour.
  const shot = decodePng(await tab.screenshot({ clip: { x: 300, y: 400, width: 200, height: 100 } }));
  expect(shareOf(shot, ([r, g, b]) => r === 255 && g === 255 && b === 255)).toBe(1);
  await tab.goto(url);
});

test('a click on a mark scrolls to its highlight and flashes it', async () => {
  await tab.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' as ScrollBehavior }));
  const inView = async (phrase: string) => {
    const box = await phraseBox(tab, phrase);
    return box.y1 > 0 && box.y1 < (await tab.evaluate(() => window.innerHeight));
  };
  expect(await inView(Q.bottom)).toBe(false);
  const flashes = () => tab.evaluate(() => (CSS as any).highlights.get('tidemark-flash')?.size ?? 0);

  // The lowest mark: the bottom quote.
  const lowest = async () => {
    const boxes = await Promise.all((await edgeMarks(tab).all()).map(async (m) => ({ m, y: (await m.boundingBox())!.y })));
    return boxes.sort((a, b) => a.y - b.y);
  };
  await (await lowest())[2].m.click();
  await expect.poll(() => inView(Q.bottom)).toBe(true);
  await expect.poll(flashes, { intervals: [20] }).toBeGreaterThan(0);
  expect(await inView(Q.top)).toBe(false);

  await (await lowest())[1].m.click();
  await expect.poll(() => inView(Q.middle)).toBe(true);
  expect(await inView(Q.bottom)).toBe(false);
  // The strip is fixed at the page's edge: the marks stay where they were while the page scrolled.
  await expectMarksAt(tab, ALL);
});

test('a deleted highlight loses its mark, Undo brings it back; after the page changes or the window is resized the marks move with the text', async () => {
  await clickPhrase(tab, Q.middle);
  await highlightToolbar(tab).getByRole('button', { name: 'Delete' }).click();
  await expect(edgeMarks(tab)).toHaveCount(2);
  await expectMarksAt(tab, [ALL[0], ALL[2]]);
  await expect.poll(async () => (await bookmarkOf(server, token, url))?.highlights.some((h) => h.text === Q.middle)).toBe(false);

  await tab.getByRole('button', { name: 'Undo' }).click();
  await expect(edgeMarks(tab)).toHaveCount(3);
  await expectMarksAt(tab, ALL);

  // The page grows above the quotes (as a page loading more content does): the marks move down.
  const before = await marks(tab);
  await tab.evaluate(() => {
    const block = document.createElement('div');
    block.style.height = '3000px';
    document.body.prepend(block);
  });
  await expectMarksAt(tab, ALL);
  expect((await marks(tab))[0].at).toBeGreaterThan(before[0].at + 0.2);

  // A narrower window: the spacer that follows the width shrinks, no DOM changes at all.
  const wide = await marks(tab);
  await tab.setViewportSize({ width: 600, height: 700 });
  await expectMarksAt(tab, ALL);
  expect(Math.abs((await marks(tab))[1].at - wide[1].at)).toBeGreaterThan(0.02);

  // A recolour changes the mark's colour.
  await clickPhrase(tab, Q.bottom);
  await highlightToolbar(tab).getByRole('button', { name: 'More colours' }).click();
  await highlightToolbar(tab).getByRole('button', { name: 'Purple' }).click();
  await expectMarksAt(tab, [ALL[0], ALL[1], { phrase: Q.bottom, color: 'purple' }]);
});
