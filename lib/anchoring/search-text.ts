/**
 * Verbatim substring search over a page's normalised text, shared by all highlights of one TextIndex.
 *
 * A scan of a 440k-character text costs about 0.1 ms whatever the method (indexOf, RegExp), and
 * anchoring a highlight that moved can take a dozen searches. So after a few scans a word index is
 * built once (about 2 ms): the positions of every word start, bucketed by the Q characters from
 * there. A needle containing a word start is then found by looking up its rarest such bucket and
 * verifying each entry in place; other needles (very short quotes) are still scanned.
 */
import type { TextIndex } from './text-index.js';

/** Characters hashed at each word start. */
const Q = 6;
/** Scans done before the word index is considered worth building. */
const SCANS_BEFORE_INDEX = 8;
/** Texts shorter than this are always scanned. */
const INDEX_MIN_LENGTH = 20_000;

interface WordIndex {
  bits: number;
  starts: Int32Array;
  positions: Int32Array;
}

function hashAt(s: string, at: number): number {
  let h = 0;
  for (let i = 0; i < Q; i++) h = (Math.imul(h, 31) + s.charCodeAt(at + i)) | 0;
  return h;
}

function bucketOf(h: number, bits: number): number {
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - bits);
}

function buildWordIndex(text: string): WordIndex {
  const n = text.length;
  let wordStarts = new Int32Array((n >>> 2) + 16);
  let count = 0;
  if (n >= Q) wordStarts[count++] = 0;
  for (let i = 0; i < n - Q; i++) {
    if (text.charCodeAt(i) !== 0x20) continue;
    if (count === wordStarts.length) {
      const grown = new Int32Array(count * 2);
      grown.set(wordStarts);
      wordStarts = grown;
    }
    wordStarts[count++] = i + 1;
  }
  let bits = 8;
  while (bits < 20 && 1 << bits < count) bits++;
  const size = 1 << bits;
  const shift = 32 - bits;
  const buckets = new Int32Array(count);
  const starts = new Int32Array(size + 1);
  for (let w = 0; w < count; w++) {
    // Hash of the Q characters from the word start, inlined (runs once per word of the page).
    const p = wordStarts[w];
    let h = 0;
    for (let i = p; i < p + Q; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    const b = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> shift;
    buckets[w] = b;
    starts[b + 1]++;
  }
  for (let b = 0; b < size; b++) starts[b + 1] += starts[b];
  const fill = starts.slice(0, size);
  const positions = new Int32Array(count);
  // Filled in text order, so each bucket lists its positions in ascending order.
  for (let w = 0; w < count; w++) positions[fill[buckets[w]]++] = wordStarts[w];
  return { bits, starts, positions };
}

export class TextSearch {
  private scans = 0;
  private words: WordIndex | null = null;
  private counts: Uint32Array | null = null;

  constructor(readonly text: string) {}

  /** Counts of characters below U+0100 in the text (others count as rare). */
  private charCounts(): Uint32Array {
    if (!this.counts) {
      const counts = new Uint32Array(256);
      const t = this.text;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        if (c < 256) counts[c]++;
      }
      this.counts = counts;
    }
    return this.counts;
  }

  /** Index in `needle` of its rarest character in the text (earliest on ties). */
  rarestIndex(needle: string): number {
    if (needle.length <= 1) return 0;
    const counts = this.charCounts();
    let best = 0;
    let bestCount = Infinity;
    for (let j = 0; j < needle.length; j++) {
      const c = needle.charCodeAt(j);
      const k = c < 256 ? counts[c] : 0;
      if (k < bestCount) {
        bestCount = k;
        best = j;
        if (k === 0) break;
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
    const words = this.wordIndex();
    if (words) {
      const hits = this.lookup(words, needle, limit);
      if (hits) return hits;
    }
    this.scans++;
    return this.scan(needle, limit);
  }

  /** Offset of `needle` when it occurs exactly once, else -1. */
  findUnique(needle: string): number {
    const hits = this.findAll(needle, 1);
    return hits.length === 1 ? hits[0] : -1;
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
    let bestSize = Infinity;
    for (let j = needle.indexOf(' ') + 1; j > 0 && j + Q <= m; j = needle.indexOf(' ', j) + 1) {
      const b = bucketOf(hashAt(needle, j), words.bits);
      const size = words.starts[b + 1] - words.starts[b];
      if (size < bestSize) {
        bestSize = size;
        bestJ = j;
        if (size <= 1) break;
      }
    }
    if (bestJ < 0) return null;
    const text = this.text;
    const b = bucketOf(hashAt(needle, bestJ), words.bits);
    const out: number[] = [];
    for (let i = words.starts[b], e = words.starts[b + 1]; i < e; i++) {
      const start = words.positions[i] - bestJ;
      if (start >= 0 && text.startsWith(needle, start)) {
        out.push(start);
        if (out.length > limit) break;
      }
    }
    return out;
  }
}

const searches = new WeakMap<TextIndex, TextSearch>();

/** The shared searcher of an index's text. */
export function textSearchOf(index: TextIndex): TextSearch {
  let s = searches.get(index);
  if (!s) {
    s = new TextSearch(index.text);
    searches.set(index, s);
  }
  return s;
}
