/**
 * Where the stored context says the quote should start: each half of the prefix and of the suffix
 * (16 characters each for 32-character contexts) is looked up verbatim, and every hit implies a
 * start for the quote. Computed once per descriptor and shared by the exact and fuzzy strategies.
 * A half found in too many places says nothing and is skipped.
 */
import type { Query } from './decide.js';
import type { TextSearch } from './search-text.js';

/** Shortest context half used as a key. */
const HALF_MIN = 8;
/** A key found in more places than this is not telling. */
const KEY_HIT_LIMIT = 16;

/** Expected start offsets of the quote implied by verbatim context halves, ascending, deduplicated. */
export function contextAnchors(search: TextSearch, q: Query): number[] {
  const L = q.quote.length;
  const out = new Set<number>();
  const add = (key: string, offset: number) => {
    if (key.length < HALF_MIN) return;
    const hits = search.findAll(key, KEY_HIT_LIMIT);
    if (hits.length > KEY_HIT_LIMIT) return;
    for (const h of hits) out.add(h + offset);
  };
  const P = q.prefix.length;
  if (P > 0) {
    const half = P >= 2 * HALF_MIN ? Math.floor(P / 2) : 0;
    if (half > 0) add(q.prefix.slice(0, half), P);
    add(q.prefix.slice(half), P - half);
  }
  const S = q.suffix.length;
  if (S > 0) {
    const half = S >= 2 * HALF_MIN ? Math.ceil(S / 2) : S;
    add(q.suffix.slice(0, half), -L);
    if (half < S) add(q.suffix.slice(half), -L - half);
  }
  return [...out].sort((a, b) => a - b);
}
