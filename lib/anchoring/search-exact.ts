/**
 * Exact and whitespace-insensitive occurrence search in normalised text.
 */
import type { Candidate, Query } from './decide.js';
import { stripSpaces } from './normalize.js';
import type { TextSearch } from './search-text.js';

/** Upper bound on occurrences collected for one quote (a quote this common is decided by context). */
const MAX_OCCURRENCES = 100_000;
/** Shortest quote (without spaces) tried with spaces ignored. */
const WHITESPACE_MIN = 6;
/** How far (characters) the quote may have moved from where a context half puts it. */
const DRIFT = 8;

/**
 * Occurrences of the quote where its stored context puts it (see contextAnchors), allowing it to
 * have moved by a few characters (small edits in the context next to it).
 */
export function exactNearAnchors(text: string, q: Query, anchors: readonly number[]): Candidate[] {
  const L = q.quote.length;
  const starts = new Set<number>();
  for (const expected of anchors) {
    for (let d = 0; d <= DRIFT; d++) {
      if (text.startsWith(q.quote, expected - d)) starts.add(expected - d);
      if (d > 0 && text.startsWith(q.quote, expected + d)) starts.add(expected + d);
    }
  }
  return [...starts].sort((a, b) => a - b).map((s) => ({ start: s, end: s + L, errors: 0 }));
}

/**
 * Every occurrence of `quote` (overlapping ones included), in order; `rank` is the occurrence index.
 * With `limit`, returns null as soon as there are more than `limit` occurrences.
 */
export function exactCandidates(search: TextSearch, quote: string, limit = MAX_OCCURRENCES): Candidate[] | null {
  const L = quote.length;
  const hits = search.findAll(quote, limit);
  if (hits.length > limit) {
    if (limit < MAX_OCCURRENCES) return null;
    hits.length = limit;
  }
  return hits.map((h, rank) => ({ start: h, end: h + L, errors: 0, rank }));
}

/** Number of occurrences of `quote` that start before `offset` (the descriptor's `position`). */
export function occurrencesBefore(search: TextSearch, quote: string, offset: number): number {
  return search.countBefore(quote, offset);
}

/** Whether whitespaceCandidates looks for `quote` at all: a very short quote with spaces moved is no longer recognisable. */
export function spacedSearchApplies(quote: string): boolean {
  return stripSpaces(quote).length >= WHITESPACE_MIN;
}

/**
 * Occurrences of `quote` when spaces are ignored on both sides (a space may appear or vanish between
 * any two characters). Scans for the quote's rarest character and matches outwards from each hit;
 * with `near` (expected starts from the stored context) only around those places.
 */
export function whitespaceCandidates(search: TextSearch, quote: string, near?: readonly number[]): Candidate[] {
  const text = search.text;
  const bare = stripSpaces(quote);
  const out: Candidate[] = [];
  const m = bare.length;
  const n = text.length;
  if (m < WHITESPACE_MIN) return out; // as spacedSearchApplies (the quote is already stripped here)
  const j = search.rarestIndex(bare);
  const anchorChar = bare[j];
  const windows: Array<[number, number]> = near
    ? near.map((e): [number, number] => [Math.max(0, e - DRIFT), e + 2 * m + DRIFT])
    : [[0, n]];
  let last = -1;
  // The next occurrence of anchorChar found so far, and where that search began: windows come in
  // ascending order, so one that ran past its window (a rare character) still answers for the next.
  let ahead = -1;
  let aheadFrom = Infinity;
  for (const [from, to] of windows) {
    const begin = Math.max(from, last + 1);
    let i = ahead;
    if (!(aheadFrom <= begin && (ahead === -1 || ahead >= begin))) {
      i = text.indexOf(anchorChar, begin);
      aheadFrom = begin;
    }
    if (i === -1) break;
    for (; i !== -1 && i < to && out.length < MAX_OCCURRENCES; i = text.indexOf(anchorChar, i + 1)) {
      last = i;
      aheadFrom = i + 1;
      let p = i - 1;
      let ok = true;
      for (let b = j - 1; b >= 0; b--, p--) {
        if (p >= 0 && text.charCodeAt(p) === 0x20) p--;
        if (p < 0 || text.charCodeAt(p) !== bare.charCodeAt(b)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      let e = i + 1;
      for (let b = j + 1; b < m; b++, e++) {
        if (e < n && text.charCodeAt(e) === 0x20) e++;
        if (e >= n || text.charCodeAt(e) !== bare.charCodeAt(b)) {
          ok = false;
          break;
        }
      }
      if (ok) out.push({ start: p + 1, end: e, errors: 0 });
    }
    ahead = i;
  }
  return out;
}
