/**
 * The stages of anchoring (anchor.ts) that run approximate search, as anchor() takes them
 * (`options.approximate`): a verbatim pick whose context does not fully agree checked against approximate
 * matches next to its stored context, and, where the quote is not found verbatim, the quote with spaces
 * appearing or vanishing, then approximate matches. The injected highlighter loads them as a part of
 * their own (entrypoints/highlighter-approximate/index.ts) only when a highlight needs them; index.ts always
 * passes them.
 */
import type { AnchorResult } from './types.js';
import type { ApproximateSearch, ExactTried, Found, Placed } from './anchor.js';
import { decide, notPlaced, type Candidate, type Query } from './decide.js';
import { spacedSearchApplies, whitespaceCandidates } from './search-exact.js';
import { fuzzyBySeeds, fuzzyNearAnchors } from './search-fuzzy.js';
import type { TextSearch } from './search-text.js';

/** A test for "overlaps any of these spans" that stays fast with thousands of spans. */
function overlapTest(spans: readonly Candidate[]): (c: Candidate) => boolean {
  if (spans.length === 0) return () => false;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let maxLen = 0;
  for (const s of sorted) maxLen = Math.max(maxLen, s.end - s.start);
  return (c) => {
    // First span that could reach c: start > c.start - maxLen.
    let lo = 0;
    let hi = sorted.length;
    const from = c.start - maxLen;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid].start <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sorted.length && sorted[i].start < c.end; i++) if (c.start < sorted[i].end) return true;
    return false;
  };
}

function challenge(text: string, q: Query, k: number, anchors: readonly number[], taken: readonly Candidate[], toBeat: number): Placed | null {
  const judged = overlapTest(taken);
  const near = fuzzyNearAnchors(text, q, k, anchors).filter((c) => !judged(c));
  if (near.length === 0) return null;
  const alt = decide(text, q, near, 'fuzzy');
  return alt.ok && alt.score > toBeat + 0.02 ? alt : null;
}

function afterExact(search: TextSearch, q: Query, found: Found, { k, fuzzyAllowed, exact, anchors, failure }: ExactTried): AnchorResult {
  const text = search.text;
  let firstFailure = failure;

  // 3. The quote with spaces appearing or vanishing (re-rendered inline markup, changed blocks).
  const exactStarts = new Set(exact.map((e) => e.start));
  // Where the context survives, look there only; else everywhere.
  const spaced = spacedSearchApplies(q.quote)
    ? whitespaceCandidates(search, q.quote, anchors.length > 0 ? anchors : undefined).filter((c) => !(exactStarts.has(c.start) && c.end - c.start === q.quote.length))
    : [];
  if (spaced.length > 0) {
    const d = decide(text, q, spaced, 'whitespace');
    if (d.ok) return found(d.start, d.end, 'whitespace', d.score);
    if (d.status === 'ambiguous') return { status: 'ambiguous', reason: d.reason };
    firstFailure ??= d;
  }

  // 4. Approximate matches, near the stored context first, then wherever pieces of the quote remain.
  if (fuzzyAllowed) {
    const judged = overlapTest([...exact, ...spaced]);
    const near = fuzzyNearAnchors(text, q, k, anchors).filter((c) => !judged(c));
    if (near.length > 0) {
      const d = decide(text, q, near, 'fuzzy');
      if (d.ok) return found(d.start, d.end, 'fuzzy', d.score);
      if (d.status === 'ambiguous') return { status: 'ambiguous', reason: d.reason };
    }
    const nearTest = overlapTest(near);
    const seeded = fuzzyBySeeds(search, q, k).filter((c) => !judged(c) && !nearTest(c));
    if (seeded.length > 0) {
      const d = decide(text, q, [...near, ...seeded], 'fuzzy');
      if (d.ok) return found(d.start, d.end, 'fuzzy', d.score);
      if (d.status === 'ambiguous') return { status: 'ambiguous', reason: d.reason };
      firstFailure ??= d;
    }
  }
  return notPlaced(firstFailure);
}

/** Everything anchor() needs approximate search for: a separate script in the injected highlighter. */
export const approximateSearch: ApproximateSearch = { nearAnchors: fuzzyNearAnchors, spaced: whitespaceCandidates, challenge, afterExact };
