// Firefox's sidebar (the side panel's page as sidebar_action): it shows the highlights of the page in
// the active tab in page order, the ones the page no longer contains apart, and follows tab switches.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { waitFor, type FirefoxExtension, type Popup } from './helpers/firefox-extension.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/setup.js';
import type { TestSite } from '../e2e/helpers/test-pages.js';
import type { TidemarkServer } from '../e2e/helpers/tidemark-server.js';
import { ROOT } from '../../scripts/build-extension.js';

const SHOTS = path.join(ROOT, 'test-results', 'firefox');

const Q = {
  first: 'the ferry left the quay at dawn',
  second: 'gulls followed the wake for a mile',
  gone: 'a sentence the author removed later',
};

let server: TidemarkServer;
let site: TestSite;
let token: string;
let ff: FirefoxExtension;
let tab: Page;
let url: string;

beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'sidebar@example.test', name: 'Sid Bar' }));
  url = site.add('/ferry', { title: 'The morning ferry', body: `<p>At six ${Q.first} with the mail.</p><p>Behind it ${Q.second} and then turned back.</p>` });
  // Saved on another device, out of page order, one no longer on the page.
  const created = await server.api('POST', '/bookmark', token, { link: url, title: 'The morning ferry', collectionId: -1 });
  expect(created.status).toBe(200);
  const put = await server.api('PUT', `/bookmark/${created.body.item._id}`, token, {
    highlights: [
      { text: Q.gone, color: 'pink', note: 'from the first version' },
      { text: Q.second, color: 'green' },
      { text: Q.first, color: 'yellow' },
    ],
  });
  expect(put.status).toBe(200);
  ff = await launchSignedIn(server, token);
  tab = await ff.browser.newPage();
  await tab.goto(url);
  await tab.bringToFront();
});

afterAll(() => closeAll(ff, site, server));

/** What the sidebar lists: the highlights found on the page, in order, and those not found. */
function listed(sidebar: Popup): Promise<{ found: string[]; notFound: string[] }> {
  return sidebar.eval((doc) => {
    const notFound = doc.querySelector('section[aria-label="Not found on this page"]');
    const items = [...doc.querySelectorAll('section[aria-label="Highlights"] li')];
    const text = (li: Element) => li.textContent ?? '';
    return {
      found: items.filter((li) => !notFound?.contains(li)).map(text),
      notFound: items.filter((li) => notFound?.contains(li)).map(text),
    };
  });
}

test('the sidebar lists the active page\'s highlights in page order, the missing one apart', async () => {
  const sidebar = await ff.openSidebar();
  const seen = await waitFor('the highlights in the sidebar', async () => {
    const l = await listed(sidebar);
    return l.found.length === 2 && l.notFound.length === 1 ? l : undefined;
  });
  expect(seen.found[0]).toContain(Q.first);
  expect(seen.found[1]).toContain(Q.second);
  expect(seen.notFound[0]).toContain(Q.gone);
  // Firefox's sidebar header names the panel; the page's own heading is there for screen readers only,
  // so "Highlights and notes" is not shown twice.
  const firefoxTitle = await ff.inBrowserWindow(`document.getElementById('sidebar-title')?.checkVisibility() ? document.getElementById('sidebar-title').value : ''`);
  expect(firefoxTitle).toBe('Highlights and notes');
  const heading = await sidebar.eval((doc) => {
    const h1 = doc.querySelector('h1')!;
    // What shows of it: its box within its header's, which clips it.
    const [a, b] = [h1.getBoundingClientRect(), h1.parentElement!.getBoundingClientRect()];
    const shown = (lo1: number, hi1: number, lo2: number, hi2: number) => Math.max(0, Math.min(hi1, hi2) - Math.max(lo1, lo2));
    return { text: h1.textContent, area: shown(a.left, a.right, b.left, b.right) * shown(a.top, a.bottom, b.top, b.bottom) };
  });
  expect(heading.text).toBe('Highlights and notes');
  expect(heading.area).toBeLessThanOrEqual(1);
  // For people to look at (test-results/ is not committed).
  fs.mkdirSync(SHOTS, { recursive: true });
  await sidebar.screenshot(path.join(SHOTS, 'sidebar.png'));
});

test('the sidebar follows the active tab: an unsaved page shows as not saved', async () => {
  const sidebar = await ff.openSidebar();
  const other = await ff.browser.newPage();
  await other.goto(site.add('/unsaved', { title: 'Not saved here' }));
  await other.bringToFront();
  await waitFor('the sidebar to show the unsaved page', async () => {
    const text = await sidebar.text();
    return text.includes('This page is not saved yet.') && !text.includes(Q.first) ? text : undefined;
  });
  await tab.bringToFront();
  await waitFor('the sidebar to come back to the saved page', async () => ((await sidebar.text()).includes(Q.first) ? true : undefined));
});

test('a note box in the sidebar shows a 6-line note whole, and a 40-line note in 12 whole lines that scroll', async () => {
  const N = { six: 'the breakwater took the first wave', forty: 'the pilot boat came alongside' };
  const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n');
  const notes = site.add('/long-notes', { title: 'Long notes', body: `<p>At first ${N.six} hard.</p><p>Then ${N.forty} at last.</p>` });
  const created = await server.api('POST', '/bookmark', token, { link: notes, title: 'Long notes', collectionId: -1 });
  const put = await server.api('PUT', `/bookmark/${created.body.item._id}`, token, {
    highlights: [
      { text: N.six, color: 'yellow', note: lines(6, 'tide') },
      { text: N.forty, color: 'blue', note: lines(40, 'point') },
    ],
  });
  expect(put.status).toBe(200);
  await tab.goto(notes);
  await tab.bringToFront();
  const sidebar = await ff.openSidebar();
  // Each note box: scrollHeight beside clientHeight, and how many lines of text it shows at rest (to a tenth: a part of a line shows as a fraction).
  const boxes = await waitFor('the two notes in the sidebar', () =>
    sidebar.eval((doc) => {
      const fields = [...doc.querySelectorAll<HTMLTextAreaElement>('section[aria-label="Highlights"] li textarea')];
      if (fields.length !== 2 || !fields[1]!.value.includes('point 40')) return undefined;
      return fields.map((el) => {
        const s = doc.defaultView!.getComputedStyle(el);
        // Lines in view at rest: below the top padding, down to the bottom padding (or the box's edge when it scrolls).
        const inside = el.clientHeight - parseFloat(s.paddingTop) - (el.scrollHeight > el.clientHeight ? 0 : parseFloat(s.paddingBottom));
        return { scrollHeight: el.scrollHeight, clientHeight: el.clientHeight, lines: Math.round((inside / parseFloat(s.lineHeight)) * 10) / 10 };
      });
    }),
  );
  expect(boxes[0]).toEqual({ scrollHeight: boxes[0]!.clientHeight, clientHeight: boxes[0]!.clientHeight, lines: 6 });
  expect(boxes[1]!.lines).toBe(12);
  expect(boxes[1]!.scrollHeight).toBeGreaterThan(boxes[1]!.clientHeight * 2);
});
