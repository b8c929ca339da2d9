/**
 * Exact and whitespace-insensitive occurrence search in normalised text.
 */
import { compactViewOf } from './compact-view.js';
import type { Candidate } from './decide.js';
import { stripSpaces } from './normalize.js';
import type { TextIndex } from './text-index.js';

/** Upper bound on occurrences collected for one quote (a quote this common is decided by context). */
const MAX_OCCURRENCES = 100_000;

/** Every occurrence of `quote` (overlapping ones included), in order; `rank` is the occurrence index. */
export function exactCandidates(text: string, quote: string): Candidate[] {
  const out: Candidate[] = [];
  if (quote.length === 0) return out;
  const L = quote.length;
  for (let i = text.indexOf(quote); i !== -1 && out.length < MAX_OCCURRENCES; i = text.indexOf(quote, i + 1)) {
    out.push({ start: i, end: i + L, errors: 0, rank: out.length });
  }
  return out;
}

/** Number of occurrences of `quote` that start before `offset` (the descriptor's `position`). */
export function occurrencesBefore(text: string, quote: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf(quote); i !== -1 && i < offset; i = text.indexOf(quote, i + 1)) n++;
  return n;
}

/** Occurrences of `quote` when spaces are ignored on both sides, mapped back to normalised offsets. */
export function whitespaceCandidates(index: TextIndex, quote: string): Candidate[] {
  const needle = stripSpaces(quote);
  const out: Candidate[] = [];
  if (needle.length === 0) return out;
  const view = compactViewOf(index);
  const L = needle.length;
  for (let i = view.text.indexOf(needle); i !== -1 && out.length < MAX_OCCURRENCES; i = view.text.indexOf(needle, i + 1)) {
    out.push({ start: view.toNormal[i], end: view.toNormal[i + L - 1] + 1, errors: 0 });
  }
  return out;
}
