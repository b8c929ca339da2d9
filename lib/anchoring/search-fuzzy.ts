/**
 * Bounded approximate search for a quote that no longer occurs verbatim.
 *
 * approx-string-match is only run over small regions of the page:
 *  1. regions next to where the stored prefix/suffix still occur verbatim (typical: typo inside the quote);
 *  2. regions where several q-grams of the quote occur in the right order (q-gram filter: a match with
 *     e errors leaves at least G - e of its G disjoint q-grams intact).
 * A page is never scanned whole per quote, so long pages stay fast.
 */
import search from 'approx-string-match';
import type { Candidate, Query } from './decide.js';
import { Q, qgramIndexOf } from './qgram-index.js';
import type { TextIndex } from './text-index.js';

/** Characters of the stored context used to find the neighbourhood of the quote. */
const CONTEXT_KEY = 16;
/** Neighbourhoods considered per context side. */
const CONTEXT_HITS = 8;
/** q-grams occurring more often than this are too common to locate anything. */
const GRAM_HIT_LIMIT = 64;
/** Regions verified per quote in the q-gram stage. */
const MAX_CLUSTERS = 8;
/** Hard cap on allowed errors, whatever the quote length. */
const MAX_ERRORS_CAP = 64;

export function maxErrorsFor(quoteLength: number, rate: number): number {
  return Math.min(MAX_ERRORS_CAP, Math.max(1, Math.floor(quoteLength * rate)));
}

function searchRegion(text: string, quote: string, k: number, from: number, to: number, out: Candidate[]): void {
  from = Math.max(0, from);
  to = Math.min(text.length, to);
  if (to - from < quote.length - k) return;
  for (const m of search(text.slice(from, to), quote, k)) {
    let start = from + m.start;
    let end = from + m.end;
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

function indexesOf(text: string, needle: string, limit: number): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1 && out.length < limit; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Stage 1: approximate matches next to verbatim occurrences of the stored context. */
export function fuzzyNearContext(text: string, q: Query, k: number): Candidate[] {
  const L = q.quote.length;
  const slack = k + 8;
  const regions: Array<[number, number]> = [];
  if (q.prefix.length >= 8) {
    const key = q.prefix.slice(-CONTEXT_KEY);
    for (const h of indexesOf(text, key, CONTEXT_HITS)) {
      const at = h + key.length;
      regions.push([at - slack, at + L + slack]);
    }
  }
  if (q.suffix.length >= 8) {
    const key = q.suffix.slice(0, CONTEXT_KEY);
    for (const h of indexesOf(text, key, CONTEXT_HITS)) regions.push([h - L - slack, h + slack]);
  }
  const out: Candidate[] = [];
  for (const [from, to] of mergeRegions(regions)) searchRegion(text, q.quote, k, from, to, out);
  return dedupe(out);
}

/** Stage 2: approximate matches where enough q-grams of the quote line up. */
export function fuzzyBySeeds(index: TextIndex, q: Query, k: number): Candidate[] {
  const text = index.text;
  const quote = q.quote;
  const L = quote.length;
  const grams = Math.floor(L / Q);
  if (grams === 0) return [];
  const qgrams = qgramIndexOf(index);
  const diagonals: number[] = [];
  let usable = 0;
  for (let g = 0; g < grams; g++) {
    const off = g * Q;
    const hits = qgrams.lookup(quote.slice(off, off + Q), GRAM_HIT_LIMIT);
    if (hits === null) continue;
    usable++;
    for (const h of hits) diagonals.push(h - off);
  }
  if (diagonals.length === 0) return [];
  const sorted = Int32Array.from(diagonals).sort();
  // Chain diagonals that lie within k of each other: insertions/deletions shift a match by at most k.
  const clusters: Array<{ from: number; to: number; count: number }> = [];
  let cur = { from: sorted[0], to: sorted[0], count: 1 };
  for (let i = 1; i < sorted.length; i++) {
    const d = sorted[i];
    if (d - cur.to <= k) {
      cur.to = d;
      cur.count++;
    } else {
      clusters.push(cur);
      cur = { from: d, to: d, count: 1 };
    }
  }
  clusters.push(cur);
  const minHits = Math.max(1, usable - k);
  const chosen = clusters
    .filter((c) => c.count >= minHits)
    .sort((a, b) => b.count - a.count)
    .slice(0, MAX_CLUSTERS);
  const out: Candidate[] = [];
  const regions = chosen.map((c): [number, number] => [c.from - k - 4, c.to + L + k + 4]);
  for (const [from, to] of mergeRegions(regions)) searchRegion(text, quote, k, from, to, out);
  return dedupe(out);
}
