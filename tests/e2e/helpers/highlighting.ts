// What the highlighting browser tests do on a page, as a reader would (select with the mouse, click a
// highlight) or as the test needs to look (what is painted, where a phrase is). Every function reads
// the page from its own main world: the highlighter's state (keys, notes) is never reachable there.
import { expect, type Page } from '@playwright/test';
import type { HighlightColor } from '../../../lib/api/constants.js';
import type { Bookmark } from '../../../lib/api/types.js';
import type { TidemarkServer } from './tidemark-server.js';
import { ExtensionBrowser } from './extension-browser.js';
import { describeStuckBrowser, within } from './stuck-browser.js';
import { dragAcross, paintedInPage, phraseBoxInPage, scrollToPhraseInPage, type PhraseBox } from './page-reading.js';

/** The in-page toolbar (inside the highlighter's shadow root; Playwright's locators pierce it). */
export const highlightToolbar = (page: Page) => page.getByRole('toolbar', { name: 'Tidemark highlight' });

/** The page-edge marks (one per painted highlight). */
export const edgeMarks = (page: Page) => page.getByRole('button', { name: 'Go to highlight' });

/** Longer than any of these reads takes on a loaded machine (milliseconds), well inside a test's 60 s. */
const READ_LIMIT_MS = 20_000;

/**
 * `page.evaluate(fn, arg)`, failing after READ_LIMIT_MS with what the page was doing, instead of
 * waiting out the test's timeout with no clue. The message says whether the page still answers a bare CDP Runtime.evaluate (then
 * Playwright lost track of the page's main world, e.g. across a navigation) or not (the page's main
 * thread is stuck: a script in a loop, a dialog).
 */
export function pageRead<R, A>(page: Page, fn: (arg: A) => R, arg: A): Promise<R> {
  return answeredWithin(page, `page.evaluate(${fn.name || 'anonymous'})`, page.evaluate(fn as (arg: unknown) => R, arg as unknown));
}

/** `step`, failing after READ_LIMIT_MS with what the page was doing (as pageRead; also for mouse input, which the page must acknowledge). */
async function answeredWithin<R>(page: Page, what: string, step: Promise<R>): Promise<R> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void describeStuckPage(page).then((state) => reject(new Error(`${what} gave no answer in ${READ_LIMIT_MS / 1000} s; ${state}`)));
    }, READ_LIMIT_MS);
  });
  try {
    return await Promise.race([step, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

async function describeStuckPage(page: Page): Promise<string> {
  const facts: string[] = [];
  // Each fact also printed at once: the test's own time limit may end the test before the message is thrown.
  const note = (fact: string) => {
    facts.push(fact);
    console.error(`[stuck page ${new Date().toISOString()}] ${fact}`);
  };
  note(`Playwright's URL ${page.url()}`);
  // First without Playwright, whose connection may be what waits.
  const launchedBy = ExtensionBrowser.of(page.context());
  if (launchedBy) facts.push(await describeStuckBrowser(launchedBy.debugPort, launchedBy.userDataDir));
  try {
    // Through Playwright's own connection: does a new tab open and answer?
    const other = await within(page.context().newPage(), 5000);
    if (!other) note('Playwright opened no new tab in 5 s');
    else {
      const two = await within(other.evaluate(() => 1 + 1), 5000);
      note(two === 2 ? 'a new tab opens and answers through Playwright' : 'a new tab opened but gave Playwright no answer in 5 s');
      void other.close().catch(() => undefined); // may be stuck too: not waited for
    }
    const cdp = await within(page.context().newCDPSession(page), 5000);
    if (!cdp) {
      note("Playwright's connection opened no CDP session to the page in 5 s");
      return facts.join('; ');
    }
    const res = await within(cdp.send('Runtime.evaluate', { expression: 'location.href + " " + document.readyState', returnByValue: true }), 5000);
    note(res ? `the page answers a CDP Runtime.evaluate through Playwright's connection: ${String(res.result.value)}` : "the page does not answer a CDP Runtime.evaluate through Playwright's connection in 5 s");
    // The session may be stuck with the page: not waited for.
    void cdp.detach().catch(() => undefined);
  } catch (err) {
    note(`no CDP session: ${(err as Error).message}`);
  }
  return facts.join('; ');
}

/**
 * What is painted now: colour -> the texts of its ranges, sorted (whitespace collapsed). With
 * `notes`, also `note` -> the texts underlined as having a note.
 */
export function painted(page: Page, { notes = false } = {}): Promise<Record<string, string[]>> {
  return pageRead(page, paintedInPage, notes);
}

/** Where `phrase` is (its first occurrence in the page's text), in viewport coordinates. */
export function phraseBox(page: Page, phrase: string): Promise<PhraseBox> {
  return pageRead(page, phraseBoxInPage, phrase);
}

/** Scrolls `phrase` into the middle of the view (so the mouse can reach it). */
export async function scrollToPhrase(page: Page, phrase: string): Promise<void> {
  await pageRead(page, scrollToPhraseInPage, phrase);
}

/** Selects `phrase` with a real mouse drag, as a reader would. */
export async function dragSelect(page: Page, phrase: string): Promise<void> {
  await scrollToPhrase(page, phrase);
  const box = await phraseBox(page, phrase);
  await answeredWithin(page, 'the mouse drag', dragAcross(page.mouse, box));
  expect(await pageRead(page, () => getSelection()!.toString(), undefined)).toBe(phrase);
}

/** A real click in the middle of `phrase` (e.g. on a painted highlight), with nothing selected. */
export async function clickPhrase(page: Page, phrase: string): Promise<void> {
  await scrollToPhrase(page, phrase);
  await page.evaluate(() => getSelection()?.removeAllRanges());
  const { middle } = await phraseBox(page, phrase);
  await page.mouse.click(middle.x, middle.y);
}

/** The user's bookmarks of `link` (more than one means a duplicate), with their highlights, read from the server. */
export async function bookmarksOf(server: TidemarkServer, token: string, link: string): Promise<Bookmark[]> {
  const items = (await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as Bookmark[];
  return Promise.all(items.filter((i) => i.link === link).map(async (i) => (await server.api('GET', `/bookmark/${i._id}`, token)).body.item));
}

/** The user's bookmark of `link` with its highlights, read from the server. */
export async function bookmarkOf(server: TidemarkServer, token: string, link: string): Promise<Bookmark | undefined> {
  return (await bookmarksOf(server, token, link))[0];
}

/** Saves `link` with `highlights` through the API (as another device would have). */
export async function saveWithHighlights(
  server: TidemarkServer,
  token: string,
  link: string,
  highlights: { text: string; color: HighlightColor; note?: string }[],
): Promise<Bookmark> {
  const created = await server.api('POST', '/bookmark', token, { link, title: link, collectionId: -1 });
  if (created.status !== 200) throw new Error(`Saving ${link} failed: ${JSON.stringify(created.body)}`);
  const id = created.body.item._id as number;
  if (highlights.length) {
    const put = await server.api('PUT', `/bookmark/${id}`, token, { highlights });
    if (put.status !== 200) throw new Error(`Adding highlights to ${link} failed: ${JSON.stringify(put.body)}`);
  }
  return (await server.api('GET', `/bookmark/${id}`, token)).body.item;
}
