/** Shared helpers for the anchoring tests (jsdom). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeText, type AnchorResult, type AnchoredResult } from '../../lib/anchoring/index.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Replaces the current jsdom document's content with a fixture page (head and body). */
export function loadFixture(name: string): void {
  const html = readFileSync(join(FIXTURES, name), 'utf8');
  setPage(html);
}

/** Replaces the current document's content with `html` (a whole page or a body fragment). */
export function setPage(html: string): void {
  const inner = html.replace(/<!DOCTYPE[^>]*>/i, '').replace(/<\/?html[^>]*>/gi, '');
  document.documentElement.innerHTML = /<body[\s>]/i.test(inner) ? inner : `<head></head><body>${inner}</body>`;
}

/** Asserts the result is anchored and returns it typed. */
export function anchored(r: AnchorResult): AnchoredResult {
  if (r.status !== 'anchored') throw new Error(`expected an anchored result, got ${r.status}: ${r.reason}`);
  return r;
}

/** Normalised text a DOM range covers. */
export function rangeText(r: Range): string {
  return normalizeText(r.toString());
}

/** Deterministic pseudo-random numbers (Park–Miller) so failures can be replayed. */
export function seededRandom(seed: number): () => number {
  let s = seed % 2147483647;
  if (s <= 0) s += 2147483646;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

let watching: MutationObserver | null = null;

/**
 * Starts recording the page's changes the way the highlighter's observer does (with `attributeFilter`,
 * the attributes it follows while some highlights are not found); answers a function that takes the
 * records so far. One at a time: a new watch ends the last.
 */
export function watchPage(attributeFilter?: string[]): () => MutationRecord[] {
  watching?.disconnect();
  const o = new MutationObserver(() => {});
  o.observe(document.documentElement, { childList: true, subtree: true, characterData: true, ...(attributeFilter ? { attributeFilter } : {}) });
  watching = o;
  return () => o.takeRecords();
}

/** After each test: ends watchPage's observer and takes back the index patcher the test handed the highlighter. */
export function stopWatchingPage(): void {
  watching?.disconnect();
  watching = null;
  delete (globalThis as Record<string, unknown>)['__tidemarkPart_index-patch'];
}
