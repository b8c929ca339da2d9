/**
 * Anchoring: HighlightDescriptor -> place in the current page.
 *
 * Strategies, in order, each only when the previous found nothing it could trust:
 *  exact quote (context and position pick among occurrences), the quote ignoring whitespace,
 *  then bounded fuzzy matching (quotes of 12+ characters).
 */
import { MAX_CONTEXT } from './context.js';
import { decide, type Candidate, type Decision, type Query, type Strategy } from './decide.js';
import { normalizeFragment, normalizeText } from './normalize.js';
import { contextAnchors } from './context-anchors.js';
import { exactCandidates, exactNearAnchors, uniqueInContext, whitespaceCandidates } from './search-exact.js';
import { fuzzyBySeeds, fuzzyNearAnchors, maxErrorsFor } from './search-fuzzy.js';
import { textSearchOf } from './search-text.js';
import { TextIndex, type TextIndexOptions } from './text-index.js';
import type { AnchorOptions, AnchorResult, HighlightDescriptor } from './types.js';

const DEFAULTS: Required<AnchorOptions> = { fuzzyMinLength: 12, fuzzyMaxErrorRate: 0.2 };

type Placed = Extract<Decision, { ok: true }>;
type Failure = Extract<Decision, { ok: false }>;

function toQuery(d: HighlightDescriptor): Query {
  // Context beyond 32 characters adds little and is not compared (see MAX_CONTEXT).
  return {
    quote: normalizeText(typeof d.text === 'string' ? d.text : ''),
    prefix: normalizeFragment(typeof d.prefix === 'string' ? d.prefix : '').slice(-MAX_CONTEXT),
    suffix: normalizeFragment(typeof d.suffix === 'string' ? d.suffix : '').slice(0, MAX_CONTEXT),
    position: d.position,
  };
}

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

/** Up to this many occurrences, all are examined; beyond, only those the stored context leads to. */
const FEW_OCCURRENCES = 64;
/** Shorter exact picks with imperfect context are checked against a near-context fuzzy match. */
const CHALLENGE_MAX_LENGTH = 64;

const REASON_NOT_FOUND = 'The highlighted text was not found on the page; it may have been edited or removed.';

/** Finds where `descriptor` belongs in the page indexed by `index`. */
export function anchor(index: TextIndex, descriptor: HighlightDescriptor, options: AnchorOptions = {}): AnchorResult {
  const opts = { ...DEFAULTS, ...options };
  const q = toQuery(descriptor);
  if (q.quote.length === 0) {
    return { status: 'orphan', reason: 'The highlight has no text to look for.' };
  }
  const text = index.text;
  const search = textSearchOf(index);
  const hasContext = q.prefix.length > 0 || q.suffix.length > 0;
  const fuzzyAllowed = q.quote.length >= opts.fuzzyMinLength;
  const k = maxErrorsFor(q.quote.length, opts.fuzzyMaxErrorRate);
  const found = (start: number, end: number, method: Strategy, score: number): AnchorResult => ({
    status: 'anchored',
    range: index.rangeFor(start, end),
    start,
    end,
    method,
    score,
  });
  let firstFailure: Failure | null = null;

  // 1. Unchanged page: the quote with its whole stored context occurs verbatim, once.
  if (hasContext) {
    const at = uniqueInContext(search, q);
    if (at >= 0) return found(at, at + q.quote.length, 'exact', 1);
  }

  // 2. Exact occurrences (for a very common quote, those its stored context leads to).
  // Where the stored context puts the quote, computed at most once.
  let anchorsCache: number[] | null = null;
  const anchors = () => (anchorsCache ??= hasContext ? contextAnchors(search, q) : []);
  let exact = exactCandidates(search, q.quote, FEW_OCCURRENCES);
  if (exact === null && hasContext) {
    // A very common quote (a short word) is only judged where its stored context leads to it: a place
    // none of whose context halves survived verbatim could not be told from the many others anyway.
    exact = exactNearAnchors(text, q, anchors());
  }
  exact ??= exactCandidates(search, q.quote) ?? [];
  let exactPick: Placed | null = null;
  let exactFailure: Failure | null = null;
  if (exact.length > 0) {
    const d = decide(text, q, exact, 'exact');
    if (d.ok) exactPick = d;
    else if (d.status === 'ambiguous') exactFailure = d;
    else firstFailure = d;
  }
  // Approximate matches next to the stored context, computed at most once.
  let nearCache: Candidate[] | null = null;
  const nearContext = () => (nearCache ??= fuzzyNearAnchors(text, q, k, anchors()));
  if (exactPick || exactFailure) {
    // A verbatim quote whose surroundings do not fully agree (or agree equally in several places): the
    // highlighted passage may still sit in its original surroundings with a small edit, which then wins.
    const toBeat = exactPick ? exactPick.score : exactFailure?.score ?? 0;
    if (fuzzyAllowed && hasContext && toBeat < 0.95 && q.quote.length < CHALLENGE_MAX_LENGTH) {
      const taken = overlapTest(exactPick ? [{ start: exactPick.start, end: exactPick.end, errors: 0 }] : exact);
      const near = nearContext().filter((c) => !taken(c));
      if (near.length > 0) {
        const alt = decide(text, q, near, 'fuzzy');
        if (alt.ok && alt.score > toBeat + 0.02) return found(alt.start, alt.end, 'fuzzy', alt.score);
      }
    }
    if (exactPick) return found(exactPick.start, exactPick.end, 'exact', exactPick.score);
    return { status: exactFailure!.status, reason: exactFailure!.reason };
  }

  // 3. The quote with spaces appearing or vanishing (re-rendered inline markup, changed blocks).
  const exactStarts = new Set(exact.map((e) => e.start));
  // Where the context survives, look there only; else everywhere.
  const spacedNear = anchors();
  const spaced = whitespaceCandidates(search, q.quote, spacedNear.length > 0 ? spacedNear : undefined).filter((c) => !(exactStarts.has(c.start) && c.end - c.start === q.quote.length));
  if (spaced.length > 0) {
    const d = decide(text, q, spaced, 'whitespace');
    if (d.ok) return found(d.start, d.end, 'whitespace', d.score);
    if (d.status === 'ambiguous') return { status: 'ambiguous', reason: d.reason };
    firstFailure ??= d;
  }

  // 4. Approximate matches, near the stored context first, then wherever pieces of the quote remain.
  if (fuzzyAllowed) {
    const judged = overlapTest([...exact, ...spaced]);
    const near = nearContext().filter((c) => !judged(c));
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
  if (firstFailure) return { status: firstFailure.status, reason: firstFailure.reason };
  return { status: 'orphan', reason: REASON_NOT_FOUND };
}

/**
 * Anchors many descriptors against one page state, building the text index once.
 * Results are in the order of `descriptors`.
 */
export function anchorAll(
  rootOrIndex: Node | TextIndex,
  descriptors: readonly HighlightDescriptor[],
  options: AnchorOptions & TextIndexOptions = {},
): AnchorResult[] {
  const index = rootOrIndex instanceof TextIndex ? rootOrIndex : new TextIndex(rootOrIndex, options);
  return descriptors.map((d) => anchor(index, d, options));
}
