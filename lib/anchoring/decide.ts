/**
 * Choosing among candidate matches: scoring by quote and context agreement, the minimum
 * agreement a match needs before it is trusted, and when several candidates are too close to call.
 *
 * The rule of thumb: a wrong highlight is worse than a missing one. Short quotes need their
 * context to agree; long exact quotes speak for themselves; fuzzy matches need both.
 */
import { commonPrefixRun, commonSuffixRun, contextScore, type ContextScore } from './context.js';
import type { UnanchoredResult } from './types.js';

export interface Query {
  quote: string;
  prefix: string;
  suffix: string;
  position: number | undefined;
}

export interface Candidate {
  start: number;
  end: number;
  /** Edit distance between the quote and the matched text (0 for exact and whitespace matches). */
  errors: number;
  /** Occurrence index among exact matches (for comparing with the stored position). */
  rank?: number;
}

export type Decision =
  | { ok: true; start: number; end: number; score: number }
  /** `score`: the best candidate's score, when there was a candidate worth scoring. */
  | { ok: false; status: 'orphan' | 'ambiguous'; reason: string; score?: number };

export type Strategy = 'exact' | 'whitespace' | 'fuzzy';

/** How many candidates get the full context comparison after cheap pre-ranking. */
const REFINE_LIMIT = 16;
/** Candidates whose scores differ by less than this are considered equally good. */
const TIE_MARGIN = 0.02;
/** A winner whose context does not agree exactly must beat the next place by this much. */
const CLEAR_MARGIN = 0.05;

// Short, as the injected highlighter carries them (it has a size limit); the meaning is in the status.
const REASON_CONTEXT = 'The text is on the page, but not where it was highlighted (its surroundings changed).';
const REASON_AMBIGUOUS_NO_CONTEXT = 'The text appears several times on the page and nothing stored tells which was meant.';
const REASON_AMBIGUOUS_SAME_CONTEXT = 'The text appears several times on the page with the same surroundings.';
const REASON_LOOKALIKE = 'The text appears in places with similar surroundings, none close enough to the original.';
const REASON_FEWER = 'The text appears fewer times than when highlighted: the highlighted one is likely gone.';
const REASON_FUZZY_WEAK = 'Only a loose match for the text was found, too different to place safely.';
const REASON_NOT_FOUND = 'The text was not found on the page; it may have been edited or removed.';

interface Scored {
  cand: Candidate;
  ctx: ContextScore;
  quoteSim: number;
  score: number;
}

export function hasPosition(q: Query): q is Query & { position: number } {
  return typeof q.position === 'number' && Number.isInteger(q.position) && q.position >= 0;
}

/**
 * Is the context agreement enough to trust a candidate of this kind? A place is trusted when one side
 * of its context is (nearly) intact and the other does not contradict it outright, or when both sides
 * mostly agree. Shorter quotes carry less evidence of their own, so they need more from the context.
 */
function contextAccepts(q: Query, s: Scored, strategy: Strategy, uniqueQuote: boolean): boolean {
  const L = q.quote.length;
  const best = s.ctx.best ?? 0;
  const mean = s.ctx.mean ?? 0;
  // On English prose the context similarity of an unrelated place has a median near 0.3 and rarely
  // exceeds 0.75 on its better side; on pages with much repeated wording look-alikes reach higher.
  if (strategy !== 'fuzzy' || s.cand.errors === 0) {
    if (L >= 32) return uniqueQuote || best >= 0.55 || mean >= 0.5;
    if (L >= 12) return (best >= 0.85 && mean >= 0.5) || mean >= 0.75;
    return (best >= 0.9 && mean >= 0.6) || mean >= 0.85;
  }
  // Fuzzy: the quote itself changed, so ask as much of the context (less for long, nearly intact quotes).
  if (L >= 32 && s.quoteSim >= 0.95) return best >= 0.7 || mean >= 0.6;
  return (best >= 0.85 && mean >= 0.55) || mean >= 0.75;
}

function scoreCandidate(text: string, q: Query, cand: Candidate): Scored {
  const ctx = contextScore(text, cand.start, cand.end, q.prefix, q.suffix);
  const quoteSim = q.quote.length > 0 ? Math.max(0, 1 - cand.errors / q.quote.length) : 0;
  const score = ctx.mean === null ? quoteSim : 0.5 * quoteSim + 0.5 * ctx.mean;
  return { cand, ctx, quoteSim, score };
}

function overlaps(a: Candidate, b: Candidate): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * Picks the candidate the descriptor most likely meant, or says why none can be trusted.
 * `candidates` must all be matches of the quote produced by `strategy`.
 */
export function decide(text: string, q: Query, candidates: Candidate[], strategy: Strategy): Decision {
  const hasCtx = q.prefix.length > 0 || q.suffix.length > 0;
  const n = candidates.length;
  if (n === 0) return { ok: false, status: 'orphan', reason: 'The text was not found on the page.' };

  if (!hasCtx) return decideWithoutContext(q, candidates, strategy);

  // Cheap pre-ranking by exact context runs, then full comparison of the most promising.
  let pool = candidates;
  if (n > REFINE_LIMIT) {
    const cheap = candidates.map((c, i) => ({
      i,
      v: commonPrefixRun(q.prefix, text, c.start) + commonSuffixRun(q.suffix, text, c.end) - c.errors,
    }));
    cheap.sort((a, b) => b.v - a.v);
    const keep = new Set(cheap.slice(0, REFINE_LIMIT).map((x) => x.i));
    if (hasPosition(q)) {
      const byRank = candidates.findIndex((c) => c.rank === q.position);
      if (byRank >= 0) keep.add(byRank);
    }
    pool = [...keep].map((i) => candidates[i]);
  }
  const scored = pool.map((c) => scoreCandidate(text, q, c));
  const positionBonus = (s: Scored) => (hasPosition(q) && s.cand.rank === q.position ? 0.001 : 0);
  scored.sort((a, b) => b.score + positionBonus(b) - (a.score + positionBonus(a)));
  const best = scored[0];
  const rival = scored.find((s) => !overlaps(s.cand, best.cand));
  const uniqueQuote = !candidates.some((c) => !overlaps(c, best.cand));
  if (!contextAccepts(q, best, strategy, uniqueQuote)) {
    return { ok: false, status: 'orphan', reason: strategy === 'fuzzy' ? REASON_FUZZY_WEAK : REASON_CONTEXT, score: best.score };
  }
  if (rival && best.score - rival.score < TIE_MARGIN) {
    // Same quality in two places: the stored position decides if it names one of them.
    if (!(hasPosition(q) && best.cand.rank === q.position && strategy === 'exact')) {
      return { ok: false, status: 'ambiguous', reason: REASON_AMBIGUOUS_SAME_CONTEXT, score: best.score };
    }
  } else if (rival && best.score - rival.score < CLEAR_MARGIN && (best.ctx.mean ?? 0) < 1) {
    // Unless its context agrees exactly, the winner must stand clearly above the next place: on pages
    // with much repeated wording a lost highlight's quote otherwise finds a look-alike. "Nearly intact"
    // (95 %) is not enough: with the 32 characters a side that older stored highlights carry, the
    // mirror-image twin of a removed entry ("Encodes"/"Decodes") agrees to 98 %.
    return { ok: false, status: 'ambiguous', reason: REASON_LOOKALIKE, score: best.score };
  }
  return { ok: true, start: best.cand.start, end: best.cand.end, score: round(best.score) };
}

function decideWithoutContext(q: Query, candidates: Candidate[], strategy: Strategy): Decision {
  // Overlapping matches are one place: keep the first of each run (linear, even for thousands).
  const sorted = [...candidates].sort((a, b) => a.start - b.start);
  const distinct: Candidate[] = [];
  for (const c of sorted) if (distinct.length === 0 || c.start >= distinct[distinct.length - 1].end) distinct.push(c);
  const n = distinct.length;
  if (strategy === 'fuzzy') {
    // Without context a loose match can only be trusted when it is nearly the quote and unique.
    const c = distinct[0];
    const sim = 1 - c.errors / q.quote.length;
    if (n === 1 && sim >= 0.9) return { ok: true, start: c.start, end: c.end, score: round(0.8 * sim) };
    return { ok: false, status: n > 1 ? 'ambiguous' : 'orphan', reason: n > 1 ? REASON_AMBIGUOUS_NO_CONTEXT : REASON_FUZZY_WEAK };
  }
  if (hasPosition(q) && strategy === 'exact') {
    const byRank = distinct.find((c) => c.rank === q.position);
    if (byRank && n > 1) return { ok: true, start: byRank.start, end: byRank.end, score: 0.8 };
    if (byRank) return { ok: true, start: byRank.start, end: byRank.end, score: 0.9 };
    if (n === 1 && q.quote.length >= 32) return { ok: true, start: distinct[0].start, end: distinct[0].end, score: 0.7 };
    return { ok: false, status: 'orphan', reason: REASON_FEWER };
  }
  if (n === 1) return { ok: true, start: distinct[0].start, end: distinct[0].end, score: 0.9 };
  return { ok: false, status: 'ambiguous', reason: REASON_AMBIGUOUS_NO_CONTEXT };
}

/** The answer when no stage of anchoring placed the highlight: why the first place refused was refused, if there was one. */
export function notPlaced(failure: Extract<Decision, { ok: false }> | null): UnanchoredResult {
  if (failure) return { status: failure.status, reason: failure.reason };
  return { status: 'orphan', reason: REASON_NOT_FOUND };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
