// What the highlighting browser tests do on a page, as a reader would (select with the mouse, click a
// highlight) or as the test needs to look (what is painted, where a phrase is). Every function reads
// the page from its own main world: the highlighter's state (keys, notes) is never reachable there.
import { expect, type Page } from '@playwright/test';
import type { HighlightColor } from '../../../lib/api/constants.js';
import type { Bookmark } from '../../../lib/api/types.js';
import type { TidemarkServer } from './tidemark-server.js';

/** The in-page toolbar (inside the highlighter's shadow root; Playwright's locators pierce it). */
export const highlightToolbar = (page: Page) => page.getByRole('toolbar', { name: 'Tidemark highlight' });

/** The page-edge marks (one per painted highlight). */
export const edgeMarks = (page: Page) => page.getByRole('button', { name: 'Go to highlight' });

/**
 * What is painted now: colour -> the texts of its ranges, sorted (whitespace collapsed). With
 * `notes`, also `note` -> the texts underlined as having a note.
 */
export function painted(page: Page, { notes = false } = {}): Promise<Record<string, string[]>> {
  return page.evaluate((withNotes) => {
    const out: Record<string, string[]> = {};
    const registry = (CSS as unknown as { highlights?: Map<string, Set<AbstractRange>> }).highlights;
    for (const [name, h] of registry ?? []) {
      if (!name.startsWith('tidemark-') || name === 'tidemark-flash' || (name === 'tidemark-note' && !withNotes)) continue;
      const texts = [...h].map((r) => {
        const range = document.createRange();
        range.setStart(r.startContainer, r.startOffset);
        range.setEnd(r.endContainer, r.endOffset);
        return range.toString().replace(/\s+/g, ' ');
      });
      if (texts.length) out[name.slice('tidemark-'.length)] = texts.sort();
    }
    return out;
  }, notes);
}

interface PhraseBox {
  /** Viewport points at the first and last character (their inner edges). */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** The centre of a character in the middle of the phrase (inside it even when it wraps). */
  middle: { x: number; y: number };
  /** The first character's top in the document. */
  docTop: number;
}

/** Where `phrase` is (its first occurrence in the page's text), in viewport coordinates. */
export function phraseBox(page: Page, phrase: string): Promise<PhraseBox> {
  return page.evaluate((text) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = (n.nodeValue ?? '').indexOf(text);
      if (i < 0) continue;
      const charBox = (at: number) => {
        const r = document.createRange();
        r.setStart(n!, at);
        r.setEnd(n!, at + 1);
        return r.getBoundingClientRect();
      };
      const first = charBox(i);
      const last = charBox(i + text.length - 1);
      let m = Math.floor(text.length / 2);
      while (m < text.length - 1 && /\s/.test(text[m])) m++;
      const mid = charBox(i + m);
      return {
        x1: first.left + 1,
        y1: first.top + first.height / 2,
        x2: last.right - 1,
        y2: last.top + last.height / 2,
        middle: { x: mid.left + mid.width / 2, y: mid.top + mid.height / 2 },
        docTop: first.top + window.scrollY,
      };
    }
    throw new Error(`"${text}" is not on the page`);
  }, phrase);
}

/** Scrolls `phrase` into the middle of the view (so the mouse can reach it). */
export async function scrollToPhrase(page: Page, phrase: string): Promise<void> {
  await page.evaluate((text) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if ((n.nodeValue ?? '').includes(text)) {
        n.parentElement!.scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior });
        return;
      }
    }
    throw new Error(`"${text}" is not on the page`);
  }, phrase);
}

/** Selects `phrase` with a real mouse drag, as a reader would. */
export async function dragSelect(page: Page, phrase: string): Promise<void> {
  await scrollToPhrase(page, phrase);
  const box = await phraseBox(page, phrase);
  await page.mouse.move(box.x1, box.y1);
  await page.mouse.down();
  await page.mouse.move((box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2, { steps: 4 });
  await page.mouse.move(box.x2, box.y2, { steps: 4 });
  await page.mouse.up();
  expect(await page.evaluate(() => getSelection()!.toString())).toBe(phrase);
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
