// The side panel in Chromium with the built extension against the real server: it follows the
// window's active tab (tab switches, navigations; "not saved yet" with a Save button), lists the
// page's highlights in page order with the missing ones apart, shows one on the page when clicked,
// edits notes and colours, deletes with Undo, and stays in step with the page both ways.
// (The panel's page runs in a window of its own, following the test tab's window: see helpers/side-panel.ts.)
import { expect, test, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { bookmarkOf, bookmarksOf, dragSelect, highlightToolbar, painted, saveWithHighlights } from './helpers/highlighting.js';
import { openSidePanel } from './helpers/side-panel.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import { noteBox } from './helpers/note-box.js';

const Q = {
  first: 'the ferry left the quay at dawn',
  second: 'gulls followed the wake for a mile',
  far: 'the lighthouse keeper waved from the rocks',
  gone: 'a sentence the author removed later',
  fresh: 'the harbour master rang the bell',
};
// Long enough that showing the last highlight scrolls the page.
const BODY = `<style>body { font: 18px/1.6 sans-serif; margin: 24px; } .gap { height: 2400px; }</style>
<p>At six ${Q.first} with the mail.</p>
<p>Behind it ${Q.second} and then turned back.</p>
<p>At noon ${Q.fresh} twice.</p>
<div class="gap"></div>
<p>Near the point ${Q.far} as it passed.</p>`;

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let tab: Page;
let panel: Page;
let url: string;

test.describe.configure({ mode: 'serial' });

const highlightsOf = async (link: string) => (await bookmarkOf(server, token, link))?.highlights ?? [];

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'panel@example.test', name: 'Pat Panel' }));
  url = site.add('/ferry', { title: 'The morning ferry', body: BODY });
  // Saved on another device, out of page order, one no longer on the page.
  await saveWithHighlights(server, token, url, [
    { text: Q.far, color: 'blue', note: 'wave back next time' },
    { text: Q.gone, color: 'pink', note: 'from the first version' },
    { text: Q.first, color: 'yellow' },
    { text: Q.second, color: 'green' },
  ]);
  browser = await launchSignedIn(server, token);
  tab = await browser.context.newPage();
  await tab.goto(url);
});

test.afterAll(() => closeAll(browser, site, server));

const found = () => panel.getByRole('region', { name: 'Highlights' }).locator('ol > li');
const notFound = () => panel.getByRole('region', { name: 'Not found on this page' });

test('lists the page\'s highlights in page order with their colours; the missing one under "Not found on this page"; text at least 13 px', async () => {
  panel = await openSidePanel(browser, tab);
  await expect(found()).toHaveCount(3);
  await expect(found().nth(0)).toContainText(Q.first);
  await expect(found().nth(1)).toContainText(Q.second);
  await expect(found().nth(2)).toContainText(Q.far);
  await expect(found().nth(0)).toHaveAttribute('data-color', 'yellow');
  await expect(found().nth(2)).toHaveAttribute('data-color', 'blue');
  await expect(found().nth(2).getByLabel('Note')).toHaveValue('wave back next time');
  await expect(notFound()).toContainText(Q.gone);
  await expect(notFound().getByLabel('Note')).toHaveValue('from the first version');
  // The page is painted (the panel asked it where each highlight is).
  await expect.poll(() => painted(tab)).toEqual({ yellow: [Q.first], green: [Q.second], blue: [Q.far] });
  const size = await panel.evaluate(() => {
    const px = (el: Element) => parseFloat(getComputedStyle(el).fontSize);
    return { body: px(document.body), smallest: Math.min(...[...document.querySelectorAll('button, textarea, input, label, p, li')].map(px)) };
  });
  expect(size.body).toBeGreaterThanOrEqual(13);
  expect(size.smallest).toBeGreaterThanOrEqual(13);
});

test('a click on a highlight scrolls the page to it and flashes it', async () => {
  expect(await tab.evaluate(() => scrollY)).toBe(0);
  await found().nth(2).getByRole('button', { name: Q.far }).click();
  await expect.poll(() => tab.evaluate(() => (CSS as any).highlights.get('tidemark-flash')?.size ?? 0), { intervals: [20] }).toBeGreaterThan(0);
  await expect.poll(() => tab.evaluate(() => scrollY)).toBeGreaterThan(1000);
});

test('a note edited in the panel is saved to the server as typed, and the page shows only that there is a note', async () => {
  const note = 'ask about the winter timetable\n  - Mondays?';
  await found().nth(0).getByLabel('Note').fill(note);
  await expect.poll(async () => (await highlightsOf(url)).find((h) => h.text === Q.first)?.note).toBe(note);
  await expect.poll(() => tab.evaluate(() => (CSS as any).highlights.get('tidemark-note')?.size ?? 0)).toBe(2);
  expect(await tab.evaluate(() => document.documentElement.outerHTML)).not.toContain('winter timetable');
});

test('changing a colour in the panel changes it on the server and on the page', async () => {
  await found().nth(1).getByRole('button', { name: /Change colour/ }).click();
  await found().nth(1).getByRole('group', { name: 'Colours' }).getByRole('button', { name: 'Purple' }).click();
  await expect.poll(async () => (await highlightsOf(url)).find((h) => h.text === Q.second)?.color).toBe('purple');
  await expect.poll(() => painted(tab)).toEqual({ yellow: [Q.first], purple: [Q.second], blue: [Q.far] });
  await expect(found().nth(1)).toHaveAttribute('data-color', 'purple');
});

test('filter by colour shows only that colour', async () => {
  const filter = panel.getByRole('group', { name: 'Show colour' });
  await filter.getByRole('button', { name: 'Blue' }).click();
  await expect(found()).toHaveCount(1);
  await expect(found().nth(0)).toContainText(Q.far);
  await filter.getByRole('button', { name: 'All' }).click();
  await expect(found()).toHaveCount(3);
});

test('delete with Undo: gone from the server and the page, then back with its note', async () => {
  await found().nth(2).getByRole('button', { name: 'Delete' }).click();
  await expect(found()).toHaveCount(2);
  await expect.poll(async () => (await highlightsOf(url)).map((h) => h.text).sort()).toEqual([Q.first, Q.gone, Q.second].sort());
  await expect.poll(() => painted(tab)).toEqual({ yellow: [Q.first], purple: [Q.second] });
  await panel.getByRole('button', { name: 'Undo' }).click();
  await expect(found()).toHaveCount(3);
  await expect(found().nth(2).getByLabel('Note')).toHaveValue('wave back next time');
  await expect.poll(async () => (await highlightsOf(url)).find((h) => h.text === Q.far)).toMatchObject({ color: 'blue', note: 'wave back next time' });
  await expect.poll(() => painted(tab)).toEqual({ yellow: [Q.first], purple: [Q.second], blue: [Q.far] });
});

test('a "not found" highlight can be deleted', async () => {
  await notFound().getByRole('button', { name: 'Delete' }).click();
  await expect(notFound()).toHaveCount(0);
  await expect.poll(async () => (await highlightsOf(url)).some((h) => h.text === Q.gone)).toBe(false);
});

test('a highlight made on the page appears in the panel at once', async () => {
  await dragSelect(tab, Q.fresh);
  await highlightToolbar(tab).getByRole('button', { name: 'Green' }).click();
  await expect(found()).toHaveCount(4);
  await expect(found().nth(2)).toContainText(Q.fresh);
  await expect(found().nth(2)).toHaveAttribute('data-color', 'green');
});

test('the bookmark\'s tags and note are edited in the panel', async () => {
  await panel.getByLabel('Tags').fill('ferries');
  await panel.getByLabel('Tags').press('Enter');
  await panel.getByLabel('Page note').fill('timetable on the quay');
  await expect.poll(async () => (await bookmarkOf(server, token, url))?.tags).toEqual(['ferries']);
  await expect.poll(async () => (await bookmarkOf(server, token, url))?.note).toBe('timetable on the quay');
});

test('follows the active tab: an unsaved page says so and offers Save; switching back shows the first page again', async () => {
  const other = await browser.context.newPage();
  const otherUrl = site.add('/timetable', { title: 'Winter timetable' });
  await other.goto(otherUrl);
  await browser.focus(other);
  await expect(panel.getByText('This page is not saved yet')).toBeVisible();
  await expect(panel.getByText('Winter timetable')).toBeVisible();
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await bookmarksOf(server, token, otherUrl)).length).toBe(1);
  await expect(panel.getByText('No highlights on this page yet')).toBeVisible();

  // A navigation in the followed tab: the panel shows the new page.
  await other.goto(url);
  await expect(found()).toHaveCount(4);

  await other.goto(otherUrl);
  await expect(panel.getByText('No highlights on this page yet')).toBeVisible();
  await browser.focus(tab);
  await expect(found()).toHaveCount(4);
  await expect(found().nth(0)).toContainText(Q.first);
  await other.close();
});

test('page order holds with a highlight inside a shadow root among ones in the document', async () => {
  const S = { before: 'the tide turned at four', inside: 'the pier lamps came on one by one', after: 'the last bus left the harbour' };
  const evening = site.add('/evening', {
    title: 'Evening at the pier',
    body: `<p>At last ${S.before} and the boats swung round.</p><div><template shadowrootmode="open"><p>Then ${S.inside} along the front.</p></template></div><p>At ten ${S.after} empty.</p>`,
  });
  // Saved out of page order, as another device may have.
  await saveWithHighlights(server, token, evening, [
    { text: S.after, color: 'blue' },
    { text: S.inside, color: 'green' },
    { text: S.before, color: 'yellow' },
  ]);
  await tab.goto(evening);
  await expect.poll(() => painted(tab)).toEqual({ yellow: [S.before], green: [S.inside], blue: [S.after] });
  await expect(found()).toHaveCount(3);
  await expect(found().nth(0)).toContainText(S.before);
  await expect(found().nth(1)).toContainText(S.inside);
  await expect(found().nth(2)).toContainText(S.after);
  await expect(notFound()).toHaveCount(0);
  await tab.goto(url);
  await expect(found()).toHaveCount(4);
});

test('a note box shows the whole note up to 12 lines, then scrolls; typing a new line grows it', async () => {
  const N = { six: 'the breakwater took the first wave', forty: 'the pilot boat came alongside' };
  const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n');
  const notes = site.add('/long-notes', { title: 'Long notes', body: `<p>At first ${N.six} hard.</p><p>Then ${N.forty} at last.</p>` });
  const saved = await saveWithHighlights(server, token, notes, [
    { text: N.six, color: 'yellow', note: lines(6, 'tide') },
    { text: N.forty, color: 'blue', note: lines(40, 'point') },
  ]);
  expect((await server.api('PUT', `/bookmark/${saved._id}`, token, { note: lines(6, 'remember') })).status).toBe(200);
  panel ??= await openSidePanel(browser, tab);
  await tab.goto(notes);
  await expect(found()).toHaveCount(2);
  const six = found().nth(0).getByLabel('Note');
  const forty = found().nth(1).getByLabel('Note');
  await expect(forty).toHaveValue(lines(40, 'point'));
  // Shown whole: no scrolling inside the box.
  expect(await six.evaluate(noteBox)).toEqual(expect.objectContaining({ lines: 6, scrollHeight: (await six.evaluate(noteBox)).clientHeight }));
  const pageNote = panel.getByLabel('Page note');
  await expect(pageNote).toHaveValue(lines(6, 'remember'));
  expect(await pageNote.evaluate(noteBox)).toEqual(expect.objectContaining({ lines: 6, scrollHeight: (await pageNote.evaluate(noteBox)).clientHeight }));
  // A long note stops at 12 whole lines and scrolls.
  const long = await forty.evaluate(noteBox);
  expect(long.lines).toBe(12);
  expect(long.scrollHeight).toBeGreaterThan(long.clientHeight * 2);
  // Typing a new line at the end grows the box by a line, and it still shows it all.
  await six.click();
  await six.press('Control+End');
  await six.press('Enter');
  await six.pressSequentially('tide 7');
  await expect(six).toHaveValue(lines(7, 'tide'));
  expect(await six.evaluate(noteBox)).toEqual(expect.objectContaining({ lines: 7, scrollHeight: (await six.evaluate(noteBox)).clientHeight }));
  // Still resizable by hand (the corner dragged down 60 px), and then it keeps the user's height as they type.
  const corner = (await six.boundingBox())!;
  await panel.mouse.move(corner.x + corner.width - 3, corner.y + corner.height - 3);
  await panel.mouse.down();
  await panel.mouse.move(corner.x + corner.width - 3, corner.y + corner.height + 57, { steps: 5 });
  await panel.mouse.up();
  const dragged = (await six.boundingBox())!.height;
  expect(dragged).toBeGreaterThan(corner.height + 50);
  await six.press('Control+End');
  await six.pressSequentially(' and 8');
  expect((await six.boundingBox())!.height).toBe(dragged);
  await tab.goto(url);
  await expect(found().nth(0)).toContainText(Q.first);
});

test('the popup shows a one-line summary, and its "Highlights and notes" opens the real side panel on this page', async () => {
  await panel.close();
  const popup = await browser.openPopup(tab);
  await expect(popup.getByTestId('highlight-summary')).toHaveText('4 highlights');
  // The popup keeps no list of highlights with a note box each.
  await expect(popup.getByRole('region', { name: 'Highlights' }).getByRole('textbox')).toHaveCount(0);
  await popup.getByRole('button', { name: 'Highlights and notes' }).click();
  const real = await browser.openPopupPage('/sidepanel.html');
  await expect(real.getByRole('region', { name: 'Highlights' }).locator('ol > li')).toHaveCount(4);
  await real.close();
});
