/**
 * Describing a selection: DOM Range -> HighlightDescriptor (quote, occurrence index, context).
 *
 * The context is 32 characters on each side, unless the page repeats itself around the quote (another
 * occurrence of the quote has nearly the same 32 characters around it: API references document a
 * method and its mirror image in the same words). Then the context is stored "long": each side is
 * the smallest window (32, 64, ... 192 characters) in which every such twin differs from ours by at
 * least TWIN_SEPARATION edits on that side alone, plus LONG_CONTEXT_SLACK characters, so that
 * anchoring can tell the highlighted place from its twin even after the highlighted one is removed
 * (see anchorLong in anchor.ts). A side that no window separates is stored at LONG_CONTEXT_MAX
 * characters: anchoring trusts it only verbatim.
 */
import { LONG_CONTEXT_MAX, LONG_CONTEXT_SLACK, LONG_SIDE_MIN, MAX_CONTEXT, TWIN_SEPARATION, anchoredDistance, boundedAnchoredDistance } from './context.js';
import { offsetsOf } from './range-offsets.js';
import { occurrencesBefore } from './search-exact.js';
import { textSearchOf, type TextSearch } from './search-text.js';
import { TextIndex, type TextIndexOptions } from './text-index.js';
import type { HighlightDescriptor } from './types.js';

/** Characters of context stored on each side of the quote where the page does not repeat itself. */
export const CONTEXT_LENGTH = MAX_CONTEXT;
/** Windows tried, in order, when twins are close: the stored context is the window plus LONG_CONTEXT_SLACK. */
const WINDOWS = [32, 64, 96, 128, 160, LONG_CONTEXT_MAX - LONG_CONTEXT_SLACK];
/** Occurrences of the quote examined as possible twins: all up to this many, else only likely ones. */
const ALL_OCCURRENCES_LIMIT = 4096;
/** A twin of a 32-character context: one side within this many edits ... */
const TWIN_ONE_SIDE = 6;
/** ... or both sides together within this many . */
const TWIN_BOTH_SIDES = 24;
/** Twins kept for the separation check (the closest first). */
const TWINS_MAX = 48;

/** Other occurrences of `quote` whose 32-character context is close to ours, closest first. */
function closeTwins(search: TextSearch, text: string, start: number, end: number, prefix: string, suffix: string): number[] {
  const quote = text.slice(start, end);
  const L = end - start;
  let hits = search.findAll(quote);
  if (hits.length > ALL_OCCURRENCES_LIMIT) {
    // A very common quote: only places where some 8 characters next to it agree with ours can be
    // twins. Checked on the (cached) occurrence list itself, not by searching the page for each key.
    const at = (key: string, offset: number) => (h: number) => key.length >= 8 && text.startsWith(key, h + offset);
    const near = [
      at(prefix.slice(-8), -8),
      at(prefix.slice(0, 8), -prefix.length),
      at(suffix.slice(0, 8), L),
      at(suffix.slice(-8), L + suffix.length - 8),
    ];
    hits = hits.filter((h) => near.some((agrees) => agrees(h)));
  }
  const scored: Array<[number, number]> = [];
  let identical = 0;
  for (const h of hits) {
    if (h === start) continue;
    // A twin: a place anchoring would accept in 32-character mode if ours were gone (one side nearly
    // intact, or both mostly alike).
    // Bit-parallel: the 32-character sides fit one machine word.
    // An identical side (a plain comparison) is distance 0 without the edit-distance pass.
    const p = h >= prefix.length && text.startsWith(prefix, h - prefix.length) ? 0 : anchoredDistance(prefix, text, h, true);
    if (p > TWIN_ONE_SIDE && p > TWIN_BOTH_SIDES) continue;
    const s = text.startsWith(suffix, h + L) ? 0 : anchoredDistance(suffix, text, h + L, false);
    if (p <= TWIN_ONE_SIDE || s <= TWIN_ONE_SIDE || p + s <= TWIN_BOTH_SIDES) {
      scored.push([p + s, h]);
      // TWINS_MAX twins whose context is identical to ours: no later one can be closer (ties keep
      // page order), so the rest need not be scored. Repetitive pages stop here early.
      if (p + s === 0 && ++identical === TWINS_MAX) break;
    }
  }
  scored.sort((a, b) => a[0] - b[0]);
  return scored.slice(0, TWINS_MAX).map((x) => x[1]);
}

/** Descriptor for normalised text [start, end) of `index`; null when it holds no visible text. */
export function describeOffsets(index: TextIndex, start: number, end: number): HighlightDescriptor | null {
  const text = index.text;
  start = Math.max(0, start);
  end = Math.min(text.length, end);
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  if (start >= end) return null;
  const quote = text.slice(start, end);
  const search = textSearchOf(index);
  const contextOf = (n: number) => ({ prefix: text.slice(Math.max(0, start - n), start), suffix: text.slice(end, end + n) });
  const ctx = contextOf(CONTEXT_LENGTH);
  const twins = closeTwins(search, text, start, end, ctx.prefix, ctx.suffix);
  if (twins.length > 0) {
    // Per side, the smallest window in which every twin differs by TWIN_SEPARATION edits, stored with
    // LONG_CONTEXT_SLACK more characters; a side no window separates is stored at LONG_CONTEXT_MAX (or,
    // cut short by the page's edge, at 32 characters): anchoring then does not rely on it alone.
    const L = quote.length;
    const side = (backwards: boolean): string => {
      const take = (n: number) => (backwards ? text.slice(Math.max(0, start - n), start) : text.slice(end, end + n));
      for (const w of WINDOWS) {
        const win = take(w);
        const separated = twins.every((h) => boundedAnchoredDistance(win, text, backwards ? h : h + L, backwards, TWIN_SEPARATION - 1) >= TWIN_SEPARATION);
        if (separated) return take(Math.max(w + LONG_CONTEXT_SLACK, LONG_SIDE_MIN));
      }
      const all = take(LONG_CONTEXT_MAX);
      return all.length === LONG_CONTEXT_MAX ? all : take(CONTEXT_LENGTH);
    };
    ctx.prefix = side(true);
    ctx.suffix = side(false);
  }
  return { text: quote, position: occurrencesBefore(search, quote, start), ...ctx };
}

/**
 * Descriptor for a DOM range (e.g. `selection.getRangeAt(0)`), or null when the range holds no
 * visible text of the root. Pass a TextIndex to describe several ranges of one page state.
 */
export function describeRange(
  rootOrIndex: Node | TextIndex,
  range: AbstractRange,
  options?: TextIndexOptions,
): HighlightDescriptor | null {
  const index = rootOrIndex instanceof TextIndex ? rootOrIndex : new TextIndex(rootOrIndex, options);
  const offsets = offsetsOf(index, range);
  if (!offsets) return null;
  return describeOffsets(index, offsets.start, offsets.end);
}
