/**
 * Anchoring: HighlightDescriptor -> place in the current page.
 *
 * Strategies, in order, each only when the previous found nothing it could trust:
 *  exact quote (context and position pick among occurrences), the quote ignoring whitespace,
 *  then bounded fuzzy matching (quotes of 12+ characters).
 *
 * The stages that run approximate (fuzzy) search or the whitespace-insensitive one are passed in
 * (`options.approximate`, see anchor-approximate.ts) rather than imported, so the injected highlighter
 * loads them only when a highlight needs them: without them, a highlight that would need them gets
 * NEEDS_APPROXIMATE. index.ts passes them always.
 */
import { MAX_CONTEXT, boundedAnchoredDistance, prefixSimilarity, separatingWindow, suffixSimilarity } from './context.js';
import { decide, hasPosition, notPlaced, type Candidate, type Decision, type Query, type Strategy } from './decide.js';
import { normalizeFragment, normalizeText } from './normalize.js';
import { contextAnchors } from './context-anchors.js';
import { FUZZY_MAX_ERROR_RATE, FUZZY_MIN_LENGTH, MAX_ERRORS_CAP } from './fuzzy-limits.js';
import { exactCandidates, exactNearAnchors, spacedSearchApplies } from './search-exact.js';
import { textSearchOf } from './search-text.js';
import { DEFAULT_SLICE_MS, TextIndex, yieldToPage, type SliceOptions, type TextIndexOptions } from './text-index.js';
import type { TextSearch } from './search-text.js';
import type { AnchorOptions, AnchorResult, HighlightDescriptor, UnanchoredResult } from './types.js';

const DEFAULTS: Required<AnchorOptions> = { fuzzyMinLength: FUZZY_MIN_LENGTH, fuzzyMaxErrorRate: FUZZY_MAX_ERROR_RATE };

/**
 * The anchoring stages that run approximate search (anchor-approximate.ts): approximate matches near the
 * stored context (search-fuzzy.ts) and seeded by pieces of the quote, and the quote with spaces appearing
 * or vanishing (search-exact.ts). None of them is needed where the quote is found verbatim, so the
 * injected highlighter loads them only when it is not.
 */
export interface ApproximateSearch {
  nearAnchors(text: string, q: Query, k: number, anchors: readonly number[]): Candidate[];
  spaced(search: TextSearch, quote: string, near?: readonly number[]): Candidate[];
  /**
   * Step 2 of anchor(), a verbatim pick (or tie) whose context does not fully agree: the place the
   * highlighted passage has in its original surroundings with a small edit, if it scores above `toBeat`
   * by more than a tie; else null. `taken`: the verbatim places already judged.
   */
  challenge(text: string, q: Query, k: number, anchors: readonly number[], taken: readonly Candidate[], toBeat: number): Placed | null;
  /** Steps 3 and 4 of anchor(), where the quote is not found verbatim: the quote with spaces moved, then approximate matches. */
  afterExact(search: TextSearch, q: Query, found: Found, tried: ExactTried): AnchorResult;
}

/** What step 2 of anchor() (exact occurrences) tried, for the stages after it. */
export interface ExactTried {
  /** Allowed errors for an approximate match of the quote. */
  k: number;
  /** The quote is long enough for approximate matching. */
  fuzzyAllowed: boolean;
  /** The verbatim occurrences judged (none of them placed the highlight). */
  exact: readonly Candidate[];
  /** Where the stored context puts the quote (contextAnchors). */
  anchors: readonly number[];
  /** Why the verbatim occurrences were refused, when there were some. */
  failure: Failure | null;
}

export interface AnchorCoreOptions extends AnchorOptions {
  /** Absent: a highlight that needs approximate search is answered NEEDS_APPROXIMATE. */
  approximate?: ApproximateSearch;
  /** anchorAllSliced: called at the first highlight answered NEEDS_APPROXIMATE (to start loading it). */
  needsApproximate?: () => void;
}

/** What anchor() answers (this very object) for a highlight that needs approximate search it was not given. */
export const NEEDS_APPROXIMATE: UnanchoredResult = Object.freeze({ status: 'orphan', reason: 'Approximate search is needed to place this highlight.' });

/**
 * Thrown inside anchor() when approximate search is needed and missing; anchor() answers NEEDS_APPROXIMATE.
 * Made when first needed, not while the script loads: an Error made then makes V8 collect the source
 * positions of the whole script, a cost every page's load would pay.
 */
let missing: Error | null = null;

function approximateOf(opts: AnchorCoreOptions): ApproximateSearch {
  if (!opts.approximate) throw (missing ??= new Error('approximate search missing'));
  return opts.approximate;
}

function maxErrorsFor(quoteLength: number, rate: number): number {
  return Math.min(MAX_ERRORS_CAP, Math.max(1, Math.floor(quoteLength * rate)));
}

export type Placed = Extract<Decision, { ok: true }>;
export type Failure = Extract<Decision, { ok: false }>;

/** The query, plus the whole stored context when it was stored long (the page repeats itself there). */
interface LongQuery extends Query {
  storedPrefix: string;
  storedSuffix: string;
  /** Per side, the window that tells the place from its twins (see describe.ts), or null. */
  prefixWindow: number | null;
  suffixWindow: number | null;
  /** The context was stored long: a twin of the place existed when it was highlighted. */
  long: boolean;
}

function toQuery(d: HighlightDescriptor): LongQuery {
  const storedPrefix = normalizeFragment(typeof d.prefix === 'string' ? d.prefix : '');
  const storedSuffix = normalizeFragment(typeof d.suffix === 'string' ? d.suffix : '');
  return {
    quote: normalizeText(typeof d.text === 'string' ? d.text : ''),
    // The near 32 characters drive the search and the usual scoring (see MAX_CONTEXT).
    prefix: storedPrefix.slice(-MAX_CONTEXT),
    suffix: storedSuffix.slice(0, MAX_CONTEXT),
    position: d.position,
    storedPrefix,
    storedSuffix,
    prefixWindow: separatingWindow(storedPrefix),
    suffixWindow: separatingWindow(storedSuffix),
    long: storedPrefix.length > MAX_CONTEXT || storedSuffix.length > MAX_CONTEXT,
  };
}

/** First index in ascending `xs` whose value is >= x. */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Gives candidates found without one (near the stored context) their occurrence rank, so the stored position can count. */
function rankCandidates(search: TextSearch, quote: string, cands: Candidate[]): Candidate[] {
  if (cands.length === 0 || cands.every((c) => c.rank !== undefined)) return cands;
  const all = search.findAll(quote);
  for (const c of cands) {
    const i = lowerBound(all, c.start);
    if (all[i] === c.start) c.rank = i;
  }
  return cands;
}

/** Most hits of the quote in its full stored context examined for the stored position. */
const CONTEXT_HITS_LIMIT = 1024;

/**
 * The unchanged-page case: the quote in its whole stored context occurs verbatim once, or several
 * times and the stored position names one of them. Returns the quote's start, or -1.
 */
function verbatimInContext(search: TextSearch, q: LongQuery): number {
  const prefix = q.storedPrefix;
  const suffix = q.storedSuffix;
  const hits = search.findFirstPass(prefix + q.quote + suffix, CONTEXT_HITS_LIMIT);
  if (hits.length === 1) return hits[0] + prefix.length;
  if (hits.length < 2 || hits.length > CONTEXT_HITS_LIMIT || !hasPosition(q)) return -1;
  const all = search.findAll(q.quote);
  for (const h of hits) {
    const i = lowerBound(all, h + prefix.length);
    if (i === q.position && all[i] === h + prefix.length) return h + prefix.length;
  }
  return -1;
}

/**
 * Where the context was stored long, every twin of the place differed from it by at least
 * TWIN_SEPARATION edits on a side, within that side's stored window, when it was highlighted. A place
 * is then trusted when its context on such a side is within LONG_CONTEXT_EDITS edits of the stored
 * window (a twin cannot get that close) and its other side does not contradict it outright.
 */
const LONG_CONTEXT_EDITS = 3;
/** Near-context similarity the other side must keep (unrelated prose is about 0.3). */
const OTHER_SIDE_MIN = 0.45;

const REASON_TWIN = 'The text is not in its original surroundings; a similar passage elsewhere may not be the one highlighted.';

/**
 * Decision for a long-context query: a candidate that a separating side places within the allowed edits.
 * `rank` gives the candidates their occurrence rank when they came without one; it is needed only to
 * break a tie, so a very common quote's occurrences are not all listed otherwise.
 */
function decideLong(text: string, q: LongQuery, candidates: Candidate[], rank?: () => void): Decision {
  const limit = LONG_CONTEXT_EDITS;
  const fits: Array<{ c: Candidate; d: number }> = [];
  const prefixWindow = q.prefixWindow === null ? null : q.storedPrefix.slice(-q.prefixWindow);
  const suffixWindow = q.suffixWindow === null ? null : q.storedSuffix.slice(0, q.suffixWindow);
  for (const c of candidates) {
    if (c.errors > limit) continue;
    let d = Infinity;
    // The window's distance first: it fails early at a twin (they differ by TWIN_SEPARATION edits there),
    // so the other side's similarity is computed only where it can still matter.
    if (prefixWindow !== null) {
      const pd = c.errors + boundedAnchoredDistance(prefixWindow, text, c.start, true, limit - c.errors);
      if (pd <= limit && suffixSimilarity(q.suffix, text, c.end) >= OTHER_SIDE_MIN) d = pd;
    }
    if (suffixWindow !== null) {
      const sd = c.errors + boundedAnchoredDistance(suffixWindow, text, c.end, false, limit - c.errors);
      if (sd <= limit && sd < d && prefixSimilarity(q.prefix, text, c.start) >= OTHER_SIDE_MIN) d = sd;
    }
    if (d === Infinity && c.errors === 0 && text.startsWith(q.storedSuffix, c.end) && c.start >= q.storedPrefix.length && text.startsWith(q.storedPrefix, c.start - q.storedPrefix.length)) d = 0;
    if (d <= limit) fits.push({ c, d });
  }
  if (fits.length === 0) return { ok: false, status: 'orphan', reason: REASON_TWIN };
  fits.sort((a, b) => a.d - b.d || a.c.start - b.c.start);
  const best = fits[0];
  const rival = fits.find((f) => f.c.start >= best.c.end || f.c.end <= best.c.start);
  if (rival && rival.d === best.d) {
    if (hasPosition(q)) rank?.();
    const byRank = hasPosition(q) ? fits.find((f) => f.d === best.d && f.c.rank === q.position) : undefined;
    if (!byRank) return { ok: false, status: 'ambiguous', reason: REASON_TWIN };
    return { ok: true, start: byRank.c.start, end: byRank.c.end, score: 0.9 };
  }
  return { ok: true, start: best.c.start, end: best.c.end, score: Math.round((1 - best.d / (2 * MAX_CONTEXT + q.quote.length)) * 1000) / 1000 };
}

/** Up to this many occurrences, all are examined; beyond, only those the stored context leads to. */
const FEW_OCCURRENCES = 64;
/** Shorter exact picks with imperfect context are checked against a near-context fuzzy match. */
const CHALLENGE_MAX_LENGTH = 64;

/** Finds where `descriptor` belongs in the page indexed by `index`. */
export function anchor(index: TextIndex, descriptor: HighlightDescriptor, options: AnchorCoreOptions = {}): AnchorResult {
  try {
    return anchorOne(index, descriptor, options);
  } catch (err) {
    if (err === missing) return NEEDS_APPROXIMATE;
    throw err;
  }
}

function anchorOne(index: TextIndex, descriptor: HighlightDescriptor, options: AnchorCoreOptions): AnchorResult {
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

  // 1. Unchanged page: the quote with its whole stored context occurs verbatim, once (or the stored
  // position names one of its verbatim occurrences).
  if (hasContext) {
    const at = verbatimInContext(search, q);
    if (at >= 0) return found(at, at + q.quote.length, 'exact', 1);
  }
  if (q.long) return anchorLong(index, search, q, { ...opts, approximate: options.approximate }, found);

  // 2. Exact occurrences (for a very common quote, those its stored context leads to).
  // Where the stored context puts the quote, computed at most once.
  let anchorsCache: number[] | null = null;
  const anchors = () => (anchorsCache ??= hasContext ? contextAnchors(search, q) : []);
  let exact = exactCandidates(search, q.quote, FEW_OCCURRENCES);
  if (exact === null && hasContext) {
    // A very common quote (a short word) is only judged where its stored context leads to it: a place
    // none of whose context halves survived verbatim could not be told from the many others anyway.
    exact = exactNearAnchors(text, q, anchors());
    if (hasPosition(q)) rankCandidates(search, q.quote, exact);
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
  if (exactPick || exactFailure) {
    // A verbatim quote whose surroundings do not fully agree (or agree equally in several places): the
    // highlighted passage may still sit in its original surroundings with a small edit, which then wins.
    const toBeat = exactPick ? exactPick.score : exactFailure?.score ?? 0;
    if (fuzzyAllowed && hasContext && toBeat < 0.95 && q.quote.length < CHALLENGE_MAX_LENGTH) {
      const taken = exactPick ? [{ start: exactPick.start, end: exactPick.end, errors: 0 }] : exact;
      const alt = approximateOf(options).challenge(text, q, k, anchors(), taken, toBeat);
      if (alt) return found(alt.start, alt.end, 'fuzzy', alt.score);
    }
    if (exactPick) return found(exactPick.start, exactPick.end, 'exact', exactPick.score);
    return { status: exactFailure!.status, reason: exactFailure!.reason };
  }

  // 3. and 4.: the quote with spaces moved, then approximate matches (anchor-approximate.ts). A quote too
  // short for either is not one to load the approximate search for: a short quote that is gone costs no
  // more than its own search.
  if (spacedSearchApplies(q.quote) || fuzzyAllowed) {
    return approximateOf(options).afterExact(search, q, found, { k, fuzzyAllowed, exact, anchors: anchors(), failure: firstFailure });
  }
  return notPlaced(firstFailure);
}

export type Found = (start: number, end: number, method: Strategy, score: number) => AnchorResult;

/**
 * A quote whose context was stored long (its page repeats itself there): only a place whose whole
 * context nearly agrees is trusted; a twin passage is never taken for the highlighted one.
 */
function anchorLong(index: TextIndex, search: TextSearch, q: LongQuery, opts: Required<AnchorOptions> & AnchorCoreOptions, found: Found): AnchorResult {
  const text = index.text;
  const anchors = contextAnchors(search, q);
  let exact = exactCandidates(search, q.quote, FEW_OCCURRENCES);
  let rank: (() => void) | undefined;
  if (exact === null) {
    // A very common quote: its occurrences where the stored context leads, ranked only if a tie needs it.
    const near = exactNearAnchors(text, q, anchors);
    rank = () => void rankCandidates(search, q.quote, near);
    exact = near;
  }
  let d = decideLong(text, q, exact, rank);
  if (d.ok) return found(d.start, d.end, 'exact', d.score);
  if (d.status === 'ambiguous') return { status: d.status, reason: d.reason };
  const near = anchors.length > 0 ? anchors : undefined;
  const spaced = spacedSearchApplies(q.quote) ? approximateOf(opts).spaced(search, q.quote, near) : [];
  d = decideLong(text, q, spaced);
  if (d.ok) return found(d.start, d.end, 'whitespace', d.score);
  if (d.status === 'ambiguous') return { status: d.status, reason: d.reason };
  if (q.quote.length >= opts.fuzzyMinLength && anchors.length > 0) {
    const k = Math.min(LONG_CONTEXT_EDITS, maxErrorsFor(q.quote.length, opts.fuzzyMaxErrorRate));
    if (k > 0) {
      d = decideLong(text, q, approximateOf(opts).nearAnchors(text, q, k, anchors));
      if (d.ok) return found(d.start, d.end, 'fuzzy', d.score);
      if (d.status === 'ambiguous') return { status: d.status, reason: d.reason };
    }
  }
  return { status: d.status, reason: d.reason };
}

/**
 * Anchors many descriptors against one page state, building the text index once.
 * Results are in the order of `descriptors`.
 */
export function anchorAll(
  rootOrIndex: Node | TextIndex,
  descriptors: readonly HighlightDescriptor[],
  options: AnchorCoreOptions & TextIndexOptions = {},
): AnchorResult[] {
  const index = rootOrIndex instanceof TextIndex ? rootOrIndex : new TextIndex(rootOrIndex, options);
  prepareSearchFor(index, descriptors.length);
  return descriptors.map((d) => anchor(index, d, options));
}

/**
 * Highlights anchored together beyond which the word index (search-text.ts) is built first. Each
 * highlight of an unchanged page costs one scan of the whole text (about 0.2 ms per 1M characters);
 * the word index costs about 30 such scans to build (6-8 ms on a 1.1M-character page), after which a
 * search is a lookup. The highlighter builds it after painting anyway, to describe new highlights.
 */
const WORD_INDEX_FROM = 32;

function prepareSearchFor(index: TextIndex, count: number): void {
  if (count >= WORD_INDEX_FROM) textSearchOf(index).prepare();
}

/**
 * anchorAll in slices of about `sliceMs` of work, yielding to the page between them, so that anchoring
 * many highlights on a long page never blocks it. The page must not change meanwhile (the caller
 * watches for mutations and starts again with a new index).
 */
export async function anchorAllSliced(
  index: TextIndex,
  descriptors: readonly HighlightDescriptor[],
  options: AnchorCoreOptions & SliceOptions = {},
): Promise<AnchorResult[]> {
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const pause = options.yieldToPage ?? yieldToPage;
  const out: AnchorResult[] = [];
  let until = performance.now() + sliceMs;
  prepareSearchFor(index, descriptors.length);
  for (const d of descriptors) {
    if (performance.now() >= until) {
      await pause();
      until = performance.now() + sliceMs;
    }
    const r = anchor(index, d, options);
    if (r === NEEDS_APPROXIMATE) options.needsApproximate?.();
    out.push(r);
  }
  return out;
}
