/**
 * Anchoring: HighlightDescriptor -> place in the current page.
 *
 * Strategies, in order, each only when the previous found nothing it could trust:
 *  exact quote (context and position pick among occurrences), the quote ignoring whitespace,
 *  then bounded fuzzy matching (quotes of 12+ characters).
 */
import { decide, type Candidate, type Decision, type Query, type Strategy } from './decide.js';
import { normalizeFragment, normalizeText } from './normalize.js';
import { exactCandidates, whitespaceCandidates } from './search-exact.js';
import { fuzzyBySeeds, fuzzyNearContext, maxErrorsFor } from './search-fuzzy.js';
import { TextIndex, type TextIndexOptions } from './text-index.js';
import type { AnchorOptions, AnchorResult, HighlightDescriptor } from './types.js';

const DEFAULTS: Required<AnchorOptions> = { fuzzyMinLength: 12, fuzzyMaxErrorRate: 0.2 };

function toQuery(d: HighlightDescriptor): Query {
  return {
    quote: normalizeText(typeof d.text === 'string' ? d.text : ''),
    prefix: normalizeFragment(typeof d.prefix === 'string' ? d.prefix : ''),
    suffix: normalizeFragment(typeof d.suffix === 'string' ? d.suffix : ''),
    position: d.position,
  };
}

function sameSpan(a: Candidate, b: Candidate): boolean {
  return a.start === b.start && a.end === b.end;
}

/** Finds where `descriptor` belongs in the page indexed by `index`. */
export function anchor(index: TextIndex, descriptor: HighlightDescriptor, options: AnchorOptions = {}): AnchorResult {
  const opts = { ...DEFAULTS, ...options };
  const q = toQuery(descriptor);
  if (q.quote.length === 0) {
    return { status: 'orphan', reason: 'The highlight has no text to look for.' };
  }
  const text = index.text;
  let firstFailure: Decision | null = null;
  const settle = (d: Decision, strategy: Strategy): AnchorResult | null => {
    if (d.ok) {
      return {
        status: 'anchored',
        range: index.rangeFor(d.start, d.end),
        start: d.start,
        end: d.end,
        method: strategy,
        score: d.score,
      };
    }
    if (d.status === 'ambiguous') return { status: 'ambiguous', reason: d.reason };
    firstFailure ??= d;
    return null;
  };

  const exact = exactCandidates(text, q.quote);
  if (exact.length > 0) {
    const r = settle(decide(text, q, exact, 'exact'), 'exact');
    if (r) return r;
  }

  const spaced = whitespaceCandidates(index, q.quote).filter((c) => !exact.some((e) => sameSpan(c, e)));
  if (spaced.length > 0) {
    const r = settle(decide(text, q, [...exact, ...spaced], 'whitespace'), 'whitespace');
    if (r) return r;
  }

  if (q.quote.length >= opts.fuzzyMinLength) {
    const k = maxErrorsFor(q.quote.length, opts.fuzzyMaxErrorRate);
    // Places already judged as exact/whitespace matches are not judged again as fuzzy ones.
    const judged = [...exact, ...spaced];
    const fresh = (c: Candidate) => !judged.some((j) => c.start < j.end && j.start < c.end);
    const near = fuzzyNearContext(text, q, k).filter(fresh);
    if (near.length > 0) {
      const d = decide(text, q, near, 'fuzzy');
      if (d.ok || d.status === 'ambiguous') return settle(d, 'fuzzy') as AnchorResult;
    }
    const seeded = fuzzyBySeeds(index, q, k).filter(fresh);
    const all = [...near, ...seeded.filter((c) => !near.some((n) => c.start < n.end && n.start < c.end))];
    if (all.length > 0) {
      const r = settle(decide(text, q, all, 'fuzzy'), 'fuzzy');
      if (r) return r;
    }
  }
  const failure = firstFailure as Decision | null;
  if (failure && !failure.ok) return { status: failure.status, reason: failure.reason };
  return { status: 'orphan', reason: 'The highlighted text was not found on the page; it may have been edited or removed.' };
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
