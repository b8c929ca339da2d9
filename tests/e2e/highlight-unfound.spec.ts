// Highlights that are not found on the page as it loaded, in Chromium with the built extension against
// the real server: text hidden at load (a closed <details>, a tab panel hidden by its class, the `hidden`
// attribute) is painted once the reader shows it; on a long live page, a clock ticking does not make the
// highlighter search for an unfound highlight again, while the arrival of its text paints it.
import { expect, test, type CDPSession } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { painted } from './helpers/highlighting.js';
import { pageChangesHandled, watchPageChanges } from './helpers/page-changes.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'unfound@example.test', name: 'Una Found' }));
  browser = await launchSignedIn(server, token);
  await expect.poll(async () => (await browser.registeredScripts()).map((s) => s.id)).toEqual(['tidemark-highlighter']);
});

test.afterAll(() => closeAll(browser, site, server));

interface Saved {
  text: string;
  prefix?: string;
  suffix?: string;
  color: string;
}

/** A page at `path`, saved with `highlights` as another device would have made them. */
async function savedPage(path: string, body: string, highlights: Saved[]): Promise<string> {
  const url = site.add(path, { title: 'Tide tables', body });
  const created = await server.api('POST', '/bookmark', token, { link: url, title: 'Tide tables', collectionId: -1 });
  expect(created.status).toBe(200);
  const put = await server.api('PUT', `/bookmark/${created.body.item._id}`, token, { highlights: highlights.map((h) => ({ position: 0, ...h })) });
  expect(put.status).toBe(200);
  await browser.fireAlarm('index-sync'); // the extension learns that the page is saved
  return url;
}

const INTRO = 'The harbour master posts the tables at dawn';
const IN_DETAILS = 'Spring tides run highest two days after the full moon';
const IN_TAB = 'Neap tides leave the mudflats covered all afternoon';
const IN_HIDDEN = 'The ferry waits for the evening flood before it sails';

test('a saved highlight inside a closed <details> is painted once the reader opens it', async () => {
  const url = await savedPage(
    '/details',
    `<p>${INTRO}, every morning.</p><details><summary>Spring tides</summary><p>${IN_DETAILS}, as the almanac says.</p></details><p>More below.</p>`,
    [
      { text: INTRO, suffix: ', every morning. Spring tides', color: 'green' },
      { text: IN_DETAILS, prefix: 'every morning. Spring tides ', suffix: ', as the almanac says.', color: 'yellow' },
    ],
  );
  const tab = await browser.context.newPage();
  await tab.goto(url);
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toMatchObject({ green: [INTRO] });
  // Chromium gives a closed <details>' content its usual computed style (only the reader cannot see it),
  // so its text is indexed and the highlight placed already, as find in page finds it: on screen once opened.
  const onScreen = () =>
    tab.evaluate(() => {
      const h = (CSS as unknown as { highlights: Map<string, Set<AbstractRange>> }).highlights.get('tidemark-yellow');
      const r = h && [...h][0];
      return !!r && r.startContainer.parentElement!.checkVisibility();
    });
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [INTRO], yellow: [IN_DETAILS] });
  expect(await onScreen()).toBe(false);
  await tab.locator('summary').click();
  await expect.poll(onScreen, { timeout: 10_000 }).toBe(true);
  expect(await painted(tab)).toEqual({ green: [INTRO], yellow: [IN_DETAILS] });
  await tab.close();
});

test('a saved highlight in a tab panel shown by a class change, and one in an element shown by removing `hidden`, are painted when shown', async () => {
  const url = await savedPage(
    '/tabs',
    '<style>.panel { display: none } .panel.active { display: block }</style>' +
      `<p>${INTRO}, every morning.</p>` +
      '<div class="panel active" id="today"><p>Today: high water at noon.</p></div>' +
      `<div class="panel" id="tomorrow"><p>${IN_TAB}, the pilots say.</p></div>` +
      `<section id="ferry" hidden><p>${IN_HIDDEN}, most days.</p></section>`,
    [
      { text: INTRO, color: 'green' },
      { text: IN_TAB, suffix: ', the pilots say.', color: 'blue' },
      { text: IN_HIDDEN, suffix: ', most days.', color: 'red' },
    ],
  );
  const tab = await browser.context.newPage();
  await tab.goto(url);
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [INTRO] });
  // The page's own tab script: the other panel becomes the active one (classes only, no text changes).
  await tab.evaluate(() => {
    document.getElementById('today')!.classList.remove('active');
    document.getElementById('tomorrow')!.classList.add('active');
  });
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [INTRO], blue: [IN_TAB] });
  await tab.evaluate(() => (document.getElementById('ferry')!.hidden = false));
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [INTRO], blue: [IN_TAB], red: [IN_HIDDEN] });
  await tab.close();
});

const WORDS = 'tide harbour lantern gull rope anchor salt pier keel mast sail oar reef shoal current breeze dune cove buoy tackle'.split(' ');
const GONE = 'The lighthouse keeper logged the storm surge at half past four';

/**
 * How many times functions of the approximate search's script (highlighter-approximate.js) ran since the
 * last call: that search is what anchoring an unfound highlight again runs (its quote is not on the page
 * verbatim); nothing else calls it. Read from V8's precise coverage of the page's renderer.
 */
async function approximateCalls(cdp: CDPSession): Promise<number> {
  const { result } = await cdp.send('Profiler.takePreciseCoverage');
  return result
    .filter((s) => s.url.endsWith('/highlighter-approximate.js'))
    .flatMap((s) => s.functions)
    .filter((f) => f.functionName !== '') // not the script's top level
    .reduce((n, f) => n + f.ranges[0].count, 0);
}

test('on a long live page, a clock ticking does not re-anchor the unfound highlights; a tab panel shown, and their text arriving, paint them', async () => {
  // About 100,000 characters (the highlighter patches its index of pages this long instead of indexing them again).
  let seed = 1;
  const word = () => WORDS[(seed = (seed * 16807) % 2147483647) % WORDS.length];
  const paragraphs = Array.from({ length: 400 }, (_, i) => `<p id="p${i}">${Array.from({ length: 40 }, word).join(' ')}.</p>`).join('');
  // A tab panel in the middle, hidden by its class until the reader picks it.
  const panel = `<div class="panel" id="later"><p>${IN_TAB}, the pilots say.</p></div>`;
  const body = `<style>.panel { display: none } .panel.active { display: block }</style><div id="clock">12:00:00</div><p>${INTRO}, every morning.</p>${paragraphs}`;
  const url = await savedPage('/live', body.replace('<p id="p100">', `${panel}<p id="p100">`), [
    { text: INTRO, suffix: ', every morning.', color: 'green' },
    { text: GONE, prefix: 'the night before. ', suffix: ', and went to bed.', color: 'purple' },
    { text: IN_TAB, suffix: ', the pilots say.', color: 'blue' },
  ]);
  const tab = await browser.context.newPage();
  await tab.goto(url);
  await expect.poll(() => painted(tab), { timeout: 15_000 }).toEqual({ green: [INTRO] });
  const tick = (s: number) => tab.evaluate((t) => void (document.getElementById('clock')!.textContent = t), `12:00:${String(s).padStart(2, '0')}`);
  await watchPageChanges(browser, url);
  // The first change after the page was indexed retries every unfound highlight (its index was built, not patched).
  await tick(1);
  await expect.poll(() => pageChangesHandled(browser, url), { timeout: 10_000 }).toBe(1);
  const cdp = await browser.context.newCDPSession(tab);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await approximateCalls(cdp);
  for (let s = 2; s < 5; s++) {
    await tick(s);
    // The highlighter has checked the change (after its 400 ms wait) and done what it does for it.
    await expect.poll(() => pageChangesHandled(browser, url), { timeout: 10_000 }).toBe(s);
  }
  expect(await approximateCalls(cdp)).toBe(0);
  expect(await painted(tab)).toEqual({ green: [INTRO] });
  // The panel shown by a class change only (on a page this long the index is patched there): painted.
  await tab.evaluate(() => document.getElementById('later')!.classList.add('active'));
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [INTRO], blue: [IN_TAB] });
  // A comment arrives with the missing sentence in it: painted.
  await tab.evaluate((text) => {
    const p = Object.assign(document.createElement('p'), { textContent: `Someone wrote it down the night before. ${text}, and went to bed.` });
    document.getElementById('p200')!.after(p);
  }, GONE);
  await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual({ green: [INTRO], blue: [IN_TAB], purple: [GONE] });
  await cdp.detach();
  await tab.close();
});
