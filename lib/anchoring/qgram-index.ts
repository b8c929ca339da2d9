/**
 * A hash index of every q-gram (substring of length Q) of a text, so that fuzzy matching can find
 * the few places where pieces of a quote still occur without scanning the whole page per quote.
 * Built lazily, at most once per TextIndex, and only when some quote needs fuzzy matching.
 */
import type { TextIndex } from './text-index.js';

export const Q = 6;

export interface QGramIndex {
  /** Positions in `text` where `gram` (length Q) occurs, or null when there are more than `limit`. */
  lookup(gram: string, limit: number): number[] | null;
}

const cache = new WeakMap<TextIndex, QGramIndex>();

export function qgramIndexOf(index: TextIndex): QGramIndex {
  let q = cache.get(index);
  if (!q) {
    q = buildQGramIndex(index.text);
    cache.set(index, q);
  }
  return q;
}

function bucketBits(n: number): number {
  let bits = 10;
  while (bits < 22 && 1 << bits < n / 2) bits++;
  return bits;
}

/** Rolling polynomial hash of text[i, i+Q) for every i, mixed into `bits` bits. */
function forEachGramHash(text: string, bits: number, fn: (pos: number, bucket: number) => void): void {
  const n = text.length - Q + 1;
  if (n <= 0) return;
  const B = 31;
  let pow = 1;
  for (let i = 1; i < Q; i++) pow = Math.imul(pow, B);
  let h = 0;
  for (let i = 0; i < Q; i++) h = (Math.imul(h, B) + text.charCodeAt(i)) | 0;
  const shift = 32 - bits;
  for (let i = 0; ; i++) {
    fn(i, Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> shift);
    if (i + 1 >= n) break;
    h = (Math.imul(h - Math.imul(text.charCodeAt(i), pow), B) + text.charCodeAt(i + Q)) | 0;
  }
}

function bucketOf(gram: string, bits: number): number {
  let h = 0;
  for (let i = 0; i < Q; i++) h = (Math.imul(h, 31) + gram.charCodeAt(i)) | 0;
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - bits);
}

function buildQGramIndex(text: string): QGramIndex {
  const bits = bucketBits(text.length);
  const size = 1 << bits;
  const starts = new Int32Array(size + 1);
  forEachGramHash(text, bits, (_pos, b) => {
    starts[b + 1]++;
  });
  for (let b = 0; b < size; b++) starts[b + 1] += starts[b];
  const fill = starts.slice(0, size);
  const positions = new Int32Array(Math.max(0, text.length - Q + 1));
  forEachGramHash(text, bits, (pos, b) => {
    positions[fill[b]++] = pos;
  });
  return {
    lookup(gram: string, limit: number): number[] | null {
      if (gram.length !== Q) throw new Error(`q-gram lookup needs exactly ${Q} characters`);
      const b = bucketOf(gram, bits);
      const out: number[] = [];
      for (let i = starts[b], e = starts[b + 1]; i < e; i++) {
        const p = positions[i];
        if (text.startsWith(gram, p)) {
          if (out.length >= limit) return null;
          out.push(p);
        }
      }
      return out;
    },
  };
}
