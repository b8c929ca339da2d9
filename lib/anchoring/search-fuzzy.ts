/**
 * Bounded approximate search for a quote that no longer occurs verbatim.
 *
 * Approximate matching (approximate-match.ts) is only run over small regions of the page:
 *  1. regions where the stored context still puts the quote (typical: a typo inside the quote);
 *  2. regions where pieces of the quote still occur verbatim (a match with e errors leaves at least
 *     P - e of P disjoint pieces intact).
 * A page is never scanned whole per quote, so long pages stay fast.
 */
import { ApproxPattern, type ApproxMatch } from './approximate-match.js';
import type { Candidate, Query } from './decide.js';
import type { TextSearch } from './search-text.js';

/** Pieces of the quote searched verbatim in stage 2, and their length bounds. */
const MAX_PIECES = 6;
const PIECE_MIN = 8;
const PIECE_MAX = 16;
/** Pieces occurring more often than this are too common to locate anything. */
const PIECE_HIT_LIMIT = 24;
/** Regions verified per quote in the q-gram stage. */
const MAX_CLUSTERS = 4;
/** The quote prepared for approximate search, once per query (all its regions and stages share it). */
const prepared = new WeakMap<Query, ApproxPattern>();

function patternOf(q: Query): ApproxPattern {
  let p = prepared.get(q);
  if (!p) {
    p = new ApproxPattern(q.quote);
    prepared.set(q, p);
  }
  return p;
}

/**
 * The quote's verbatim occurrences lying inside text[from, to), as the approximate search reports
 * them (0 errors, ends ascending): where the region holds one, the search reports exactly these (it
 * reports only the fewest errors found), so it need not run.
 */
function verbatimIn(text: string, quote: string, from: number, to: number): ApproxMatch[] {
  const out: ApproxMatch[] = [];
  if (quote.length === 0) return out;
  const region = text.slice(from, to);
  for (let i = region.indexOf(quote); i !== -1; i = region.indexOf(quote, i + 1)) out.push({ start: from + i, end: from + i + quote.length, errors: 0 });
  return out;
}

function searchRegion(text: string, pattern: ApproxPattern, k: number, from: number, to: number, out: Candidate[]): void {
  from = Math.max(0, from);
  to = Math.min(text.length, to);
  if (to - from < pattern.length - k) return;
  const verbatim = verbatimIn(text, pattern.pattern, from, to);
  for (const m of verbatim.length > 0 ? verbatim : pattern.search(text, from, to, k)) {
    let start = m.start;
    let end = m.end;
    while (start < end && text.charCodeAt(start) === 0x20) start++;
    while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
    if (end > start) out.push({ start, end, errors: m.errors });
  }
}

/** Merges overlapping regions. */
function mergeRegions(regions: Array<[number, number]>): Array<[number, number]> {
  regions.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const r of regions) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** Keeps the best of overlapping candidates (fewest errors, then longest). */
function dedupe(cands: Candidate[]): Candidate[] {
  cands.sort((a, b) => a.start - b.start || a.errors - b.errors);
  const out: Candidate[] = [];
  for (const c of cands) {
    const last = out[out.length - 1];
    if (last && c.start < last.end) {
      if (c.errors < last.errors || (c.errors === last.errors && c.end - c.start > last.end - last.start)) {
        out[out.length - 1] = c;
      }
      continue;
    }
    out.push(c);
  }
  return out;
}

/** Stage 1: approximate matches where the stored context puts the quote (see contextAnchors). */
export function fuzzyNearAnchors(text: string, q: Query, k: number, anchors: readonly number[]): Candidate[] {
  const L = q.quote.length;
  const slack = k + 8;
  const regions = anchors.map((e): [number, number] => [e - slack, e + L + slack]);
  const out: Candidate[] = [];
  const pattern = patternOf(q);
  for (const [from, to] of mergeRegions(regions)) searchRegion(text, pattern, k, from, to, out);
  return dedupe(out);
}

/**
 * Stage 2: approximate matches where pieces of the quote still occur verbatim. The quote is cut into
 * up to MAX_PIECES pieces; a match with fewer errors than pieces keeps at least one piece intact, and
 * the piece's position fixes where the match must start (give or take the allowed errors).
 */
export function fuzzyBySeeds(search: TextSearch, q: Query, k: number): Candidate[] {
  const text = search.text;
  const quote = q.quote;
  const L = quote.length;
  const pieces = Math.max(2, Math.min(MAX_PIECES, Math.floor(L / PIECE_MIN)));
  const size = Math.floor(L / pieces);
  const diagonals: number[] = [];
  let usable = 0;
  for (let p = 0; p < pieces; p++) {
    const off = p * size;
    const hits = search.findAll(quote.slice(off, off + Math.min(size, PIECE_MAX)), PIECE_HIT_LIMIT);
    if (hits.length > PIECE_HIT_LIMIT) continue; // too common to locate anything
    usable++;
    for (const h of hits) diagonals.push(h - off);
  }
  if (diagonals.length === 0) return [];
  diagonals.sort((a, b) => a - b);
  // Windows of diagonals at most 2k apart (insertions/deletions move a match start by at most k),
  // best supported first; a long quote needs two intact pieces to be worth verifying.
  const minHits = usable >= 4 ? 2 : 1;
  const windows: Array<{ from: number; to: number; count: number }> = [];
  for (let i = 0, j = 0; i < diagonals.length; i++) {
    if (j < i) j = i;
    while (j + 1 < diagonals.length && diagonals[j + 1] - diagonals[i] <= 2 * k) j++;
    if (j - i + 1 >= minHits) windows.push({ from: diagonals[i], to: diagonals[j], count: j - i + 1 });
  }
  windows.sort((a, b) => b.count - a.count || a.from - b.from);
  const chosen: Array<{ from: number; to: number }> = [];
  for (const w of windows) {
    if (chosen.length >= MAX_CLUSTERS) break;
    if (chosen.some((c) => w.from <= c.to + 2 * k && c.from <= w.to + 2 * k)) continue;
    chosen.push(w);
  }
  const regions = chosen.map((c): [number, number] => [c.from - k - 4, c.to + L + k + 4]);
  const out: Candidate[] = [];
  const pattern = patternOf(q);
  for (const [from, to] of mergeRegions(regions)) searchRegion(text, pattern, k, from, to, out);
  return dedupe(out);
}
