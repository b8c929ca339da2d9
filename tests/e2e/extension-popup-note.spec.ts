// The popup's note and excerpt boxes show their whole text, in Chromium against the real server 600 ms away
// (so the popup is shown before the bookmark is there, and the form comes in its place): a 6-line note whole,
// a 40-line note in 8 whole lines that scroll, a long excerpt in 6; the box has its grown height from the
// first frame it is in (never 3 rows first, then grown), and typing a new line grows it. Opened again on the
// page, the popup holds the grown form's room while it finds the bookmark (lib/popup/form-room.ts), so it keeps
// the height it opens at; the first time on a device the form may come taller than that room.
import { expect, test, type Page } from '@playwright/test';
import { noteBox } from './helpers/note-box.js';
import { shownHeights } from './helpers/popup-heights.js';
import { expectSteadyHeight, openNewPage, openPopupUntil, startSlowPopupSuite, type SlowPopupSuite } from './helpers/slow-popup-suite.js';

let suite: SlowPopupSuite;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  suite = await startSlowPopupSuite({ email: 'notes@example.test', name: 'Nora Notes' });
});

test.afterAll(() => suite.close());

const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n');

const BOXES = '__tidemarkTestNoteBoxes';
/** Run in the popup before its scripts: the note box's height (px, to a tenth) at every animation frame where it changed. */
const BOX_HEIGHTS = `{
  const heights = (globalThis[${JSON.stringify(BOXES)}] = []);
  const frame = (now) => {
    const box = document.getElementById('note-input');
    const height = box ? Math.round(box.getBoundingClientRect().height * 10) / 10 : null;
    if (height !== null && heights.at(-1) !== height) heights.push(height);
    if (now < 8000) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}`;

/** A page saved already with `note` and `excerpt`, open in the suite's tab. */
async function savedPage(path: string, note: string, excerpt = 'How the sea keeps time.'): Promise<void> {
  const url = await openNewPage(suite, path);
  const saved = await suite.server.api('POST', '/bookmark', suite.token, { link: url, title: `Tide tables ${path}`, collectionId: -1, excerpt, note });
  expect(saved.status).toBeLessThan(300);
}

/** Opens the popup on the suite's tab until it shows `note`, runs `then` in it; the note box's heights in every frame it was in, and the heights the popup was shown at. */
async function openOn(note: string, then: (popup: Page) => Promise<void> = async () => {}) {
  let boxHeights: number[] = [];
  const noted = await openPopupUntil(
    suite,
    async (popup) => {
      await expect(popup.getByRole('status')).toHaveText('Already saved: editing it');
      await expect(popup.getByLabel('Note')).toHaveValue(note);
      await then(popup);
      boxHeights = await popup.evaluate((slot) => (globalThis as unknown as Record<string, number[]>)[slot], BOXES);
    },
    BOX_HEIGHTS,
  );
  return { boxHeights, shown: shownHeights(noted) };
}

test('a saved page\'s 6-line note is shown whole, from the first frame the form is in; a new line typed grows the box', async () => {
  await savedPage('/note-six', lines(6, 'tide'));
  const { boxHeights } = await openOn(lines(6, 'tide'), async (popup) => {
    const note = popup.getByLabel('Note');
    const six = await note.evaluate(noteBox);
    expect(six).toEqual({ scrollHeight: six.clientHeight, clientHeight: six.clientHeight, lines: 6 });
    // Typing a new line at the end: the box grows by a line and still shows it all.
    await note.click();
    await note.press('Control+End');
    await note.press('Enter');
    await note.pressSequentially('tide 7');
    await expect(note).toHaveValue(lines(7, 'tide'));
    const seven = await note.evaluate(noteBox);
    expect(seven).toEqual({ scrollHeight: seven.clientHeight, clientHeight: seven.clientHeight, lines: 7 });
  });
  // Its first frame already had the 6-line box (no 3-row frame before it); the only change is the line typed.
  expect(boxHeights).toHaveLength(2);
  expect(boxHeights[1] - boxHeights[0]).toBeCloseTo(19.6, 0);
});

test('a 40-line note stops at 8 whole lines and scrolls; a long excerpt at 6', async () => {
  const excerpt = lines(20, 'the harbour wall');
  await savedPage('/note-forty', lines(40, 'point'), excerpt);
  const { boxHeights } = await openOn(lines(40, 'point'), async (popup) => {
    const long = await popup.getByLabel('Note').evaluate(noteBox);
    expect(long.lines).toBe(8);
    expect(long.scrollHeight).toBeGreaterThan(long.clientHeight * 3);
    await expect(popup.getByLabel('Excerpt')).toHaveValue(excerpt);
    const excerptBox = await popup.getByLabel('Excerpt').evaluate(noteBox);
    expect(excerptBox.lines).toBe(6);
    expect(excerptBox.scrollHeight).toBeGreaterThan(excerptBox.clientHeight * 2);
  });
  // One height from its first frame on.
  expect(boxHeights).toHaveLength(1);
});

test('opened again on a page with a long note, the popup keeps the height it opens at (the room it holds is the grown form\'s)', async () => {
  // The page of the test above, opened once here already: the popup remembers how much its boxes grew.
  await suite.tab.goto(suite.tab.url());
  const { shown, boxHeights } = await openOn(lines(40, 'point'));
  expectSteadyHeight(shown);
  expect(boxHeights).toHaveLength(1);
});
