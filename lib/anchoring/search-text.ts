/**
 * Verbatim substring search over a page's normalised text, shared by all highlights of one TextIndex.
 *
 * A scan of a 440k-character text costs about 0.1 ms whatever the method (indexOf, RegExp). An
 * unchanged page needs one scan per highlight; a highlight that moved can take a dozen. So once
 * highlights start needing more than their first search, a word index is built (a few ms, once):
 * the positions of every word start, bucketed by the Q characters from there. A needle containing a
 * word start is then found by looking up its rarest such bucket and verifying each entry in place;
 * other needles (very short quotes) are still scanned.
 */
import type { TextIndex } from './text-index.js';

/** Characters hashed at each word start. */
const Q = 5;
/** Words shorter than this are not indexed. */
const MIN_WORD = 4;
/** Scans done before the word index is considered worth building. */
const SCANS_BEFORE_INDEX = 8;
/** Texts shorter than this are always scanned. */
const INDEX_MIN_LENGTH = 20_000;

/**
 * Word starts bucketed by the hash of the Q characters from there. Each bucket is a chain through
 * `next` in ascending text order (head: first position), with its length in `sizes`.
 */
interface WordIndex {
  buckets: number;
  heads: Int32Array;
  sizes: Int32Array;
  next: Int32Array;
  positions: Int32Array;
}

/** Bucket counts: primes just under powers of two (a hash taken modulo a prime needs no mixing). */
const BUCKET_PRIMES = [251, 509, 1021, 2039, 4093, 8191, 16381, 32749, 65521, 131071, 262139, 524287, 1048573];

/**
 * Hash of the Q = 5 characters of `s` from `at`: exact in a double (below 2^31 for ASCII, so a small
 * integer), no Math.imul needed. buildWordIndex computes the same value inline.
 */
function hashAt(s: string, at: number): number {
  return (((s.charCodeAt(at) * 31 + s.charCodeAt(at + 1)) * 31 + s.charCodeAt(at + 2)) * 31 + s.charCodeAt(at + 3)) * 31 + s.charCodeAt(at + 4);
}

/**
 * One pass over the text, from its end to its start, so that pushing each word start on the front of
 * its bucket's chain leaves every chain in ascending order. The pass runs once per page, usually
 * before the JIT has optimised anything, so its loop body is kept short: a native lastIndexOf finds
 * each word, the Q-character hash is plain arithmetic taken modulo a prime (no Math.imul calls, no
 * mixing step), and there is no second pass (no sorting).
 * Short words are left out: they are the most frequent and lookups never need them.
 */
function buildWordIndex(text: string): WordIndex {
  const n = text.length;
  // An indexed word and the space after it take at least MIN_WORD + 1 characters.
  const capacity = Math.floor(n / (MIN_WORD + 1)) + 2;
  // About one bucket per 8 possible words (some 3 per word actually indexed on prose): a chain mostly
  // holds one word's occurrences either way (pages repeat their words), and the two bucket arrays stay
  // small (128 KB for a 440k-character page instead of 512 KB). Fresh memory is what a newly injected
  // highlighter pays most for (every page of it is faulted in by a new renderer process).
  let buckets = BUCKET_PRIMES[0];
  for (let i = 1; i < BUCKET_PRIMES.length && buckets < capacity >>> 3; i++) buckets = BUCKET_PRIMES[i];
  const heads = new Int32Array(buckets).fill(-1);
  const sizes = new Int32Array(buckets);
  const next = new Int32Array(capacity);
  const positions = new Int32Array(capacity);
  let count = 0;
  // `end`: the offset just after the current word (a space or the end of the text).
  for (let end = n; end > 0; ) {
    const start = text.lastIndexOf(' ', end - 1) + 1;
    if ((end - start >= MIN_WORD || end === n) && start + Q <= n) {
      // hashAt(text, start), written out: a call per word costs too much before the JIT steps in.
      const b =
        ((((text.charCodeAt(start) * 31 + text.charCodeAt(start + 1)) * 31 + text.charCodeAt(start + 2)) * 31 +
          text.charCodeAt(start + 3)) * 31 + text.charCodeAt(start + 4)) % buckets;
      positions[count] = start;
      next[count] = heads[b];
      heads[b] = count;
      sizes[b]++;
      count++;
    }
    end = start - 1;
  }
  return { buckets, heads, sizes, next, positions };
}

/** Lower-case letters from most to least common in English prose. */
const LETTERS_BY_FREQUENCY = 'etaoinshrdlcumwfgypbvkjxqz';

/** How common a character is in prose, 0 (rare) .. 30 (the space); no pass over the text needed. */
function charCommonness(c: number): number {
  if (c === 0x20) return 30;
  if (c >= 0x61 && c <= 0x7a) return 26 - LETTERS_BY_FREQUENCY.indexOf(String.fromCharCode(c));
  if (c === 0x2c || c === 0x2e) return 3; // , .
  if (c >= 0x41 && c <= 0x5a) return 2; // capitals
  if (c < 0x80) return 1; // digits, other punctuation
  return 0;
}

/**
 * Occurrence lists kept per needle (describing and anchoring ask for the same quote several times, and
 * the highlighter anchors a highlight again once approximate anchoring is loaded for it).
 */
const CACHE_MAX = 256;

export class TextSearch {
  private scans = 0;
  private words: WordIndex | null = null;
  /** Per needle: all its occurrences, or (`limit` given) the first limit + 1 of a needle that has more. */
  private cache = new Map<string, { hits: number[]; complete: boolean }>();

  constructor(readonly text: string) {}

  /** Index in `needle` of its rarest character by typical prose frequencies (earliest on ties). */
  rarestIndex(needle: string): number {
    let best = 0;
    let bestRank = Infinity;
    for (let j = 0; j < needle.length; j++) {
      const r = charCommonness(needle.charCodeAt(j));
      if (r < bestRank) {
        bestRank = r;
        best = j;
        if (r === 0) break;
      }
    }
    return best;
  }

  /**
   * Start offsets of `needle` (overlapping occurrences included), ascending. Stops after `limit` + 1
   * hits, so callers can tell "more than limit".
   */
  findAll(needle: string, limit = Infinity): number[] {
    if (needle.length === 0) return [];
    let kept = this.cache.get(needle);
    if (!kept || !(kept.complete || kept.hits.length > limit)) {
      const hits = this.findAllUncached(needle, limit);
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(needle, (kept = { hits, complete: hits.length <= limit }));
    }
    const hits = kept.hits;
    return hits.length > limit ? hits.slice(0, limit + 1) : hits.slice();
  }

  /** Number of occurrences of `needle` starting before `offset`. */
  countBefore(needle: string, offset: number): number {
    const kept = this.cache.get(needle);
    const all = kept?.complete ? kept.hits : this.findAll(needle);
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (all[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private findAllUncached(needle: string, limit: number): number[] {
    const words = this.wordIndex();
    if (words) {
      const hits = this.lookup(words, needle, limit);
      if (hits) return hits;
    }
    this.scans++;
    return this.scan(needle, limit);
  }

  /**
   * Like findAll, for the one search nearly every highlight needs (its quote in full context). It does
   * not count towards building the word index: an unchanged page is anchored by these alone, and a
   * scan each is cheaper than the index then.
   */
  findFirstPass(needle: string, limit = Infinity): number[] {
    // Not kept: each such needle (a quote in its whole context) is asked for once per anchoring.
    if (this.words) return this.findAllUncached(needle, limit);
    return this.scan(needle, limit);
  }

  /**
   * Builds the word index now when the text is long enough to get one (one task of ~10 ms on a 1M-
   * character page), so that no later search, such as describing a new highlight, pays for it.
   */
  prepare(): void {
    if (!this.words && this.text.length >= INDEX_MIN_LENGTH) this.words = buildWordIndex(this.text);
  }

  private wordIndex(): WordIndex | null {
    if (!this.words && this.scans >= SCANS_BEFORE_INDEX && this.text.length >= INDEX_MIN_LENGTH) {
      this.words = buildWordIndex(this.text);
    }
    return this.words;
  }

  private scan(needle: string, limit: number): number[] {
    const text = this.text;
    const out: number[] = [];
    for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
      out.push(i);
      if (out.length > limit) break;
    }
    return out;
  }

  /** Finds `needle` through the word index; null when it holds no usable word start. */
  private lookup(words: WordIndex, needle: string, limit: number): number[] | null {
    const m = needle.length;
    let bestJ = -1;
    let bestBucket = -1;
    let bestSize = Infinity;
    for (let j = needle.indexOf(' ') + 1; j > 0 && j + Q <= m; j = needle.indexOf(' ', j) + 1) {
      // Only words the index holds: at least MIN_WORD long (a word running to the needle's end is).
      const next = needle.indexOf(' ', j);
      if (next !== -1 && next - j < MIN_WORD) continue;
      const b = hashAt(needle, j) % words.buckets;
      const size = words.sizes[b];
      if (size < bestSize) {
        bestSize = size;
        bestJ = j;
        bestBucket = b;
        if (size <= 1) break;
      }
    }
    if (bestJ < 0) return null;
    const text = this.text;
    const out: number[] = [];
    for (let w = words.heads[bestBucket]; w !== -1; w = words.next[w]) {
      const start = words.positions[w] - bestJ;
      if (start >= 0 && text.startsWith(needle, start)) {
        out.push(start);
        if (out.length > limit) break;
      }
    }
    return out;
  }
}

/**
 * The shared searcher of an index's text. Kept on the index itself (not in a map of this module), so
 * that scripts bundled apart (the highlighter and its editor) share it and its word index.
 */
export function textSearchOf(index: TextIndex): TextSearch {
  return (index.search ??= new TextSearch(index.text)) as TextSearch;
}
