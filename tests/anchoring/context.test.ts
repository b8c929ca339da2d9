import { describe, expect, test } from 'vitest';
import { anchoredDistance, prefixSimilarity, suffixSimilarity } from '../../lib/anchoring/context.js';
import { seededRandom } from './helpers.js';

/** Plain dynamic-programming reference: pattern anchored at `anchor`, far end free, 8 characters of slack. */
function reference(pattern: string, text: string, anchor: number, backwards: boolean): number {
  const m = pattern.length;
  const w = Math.min(m + 8, backwards ? anchor : text.length - anchor);
  const p = backwards ? [...pattern].reverse().join('') : pattern;
  const t = backwards ? [...text.slice(anchor - w, anchor)].reverse().join('') : text.slice(anchor, anchor + w);
  let prev = Array.from({ length: w + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= w; j++) {
      cur[j] = Math.min(prev[j - 1] + (p[i - 1] === t[j - 1] ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
    }
    prev = cur;
  }
  return Math.min(...prev);
}

describe('context similarity', () => {
  test('bit-parallel anchored edit distance agrees with the plain dynamic programme', () => {
    const random = seededRandom(11);
    const alphabet = 'ab c\u00e9\u4e2d';
    const word = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let trial = 0; trial < 2000; trial++) {
      const pattern = word(1 + Math.floor(random() * 32));
      const text = word(Math.floor(random() * 60));
      const anchor = Math.floor(random() * (text.length + 1));
      for (const backwards of [true, false]) {
        expect(anchoredDistance(pattern, text, anchor, backwards), `${pattern} | ${text} @${anchor} ${backwards}`).toBe(
          reference(pattern, text, anchor, backwards),
        );
      }
    }
  });

  test('context that moved by an inserted word or lost a character stays similar; unrelated text does not', () => {
    const text = 'The harbour master pins a new sheet to the board outside the customs house every morning.';
    const at = text.indexOf('the board');
    expect(prefixSimilarity('master pins a new sheet to ', text, at)).toBe(1);
    expect(prefixSimilarity('master pins a sheet to ', text, at)).toBeGreaterThan(0.8); // "new " was added since
    expect(prefixSimilarity('master pins a new shet to ', text, at)).toBeGreaterThan(0.95);
    expect(suffixSimilarity(' outside the customs house', text, at + 'the board'.length)).toBe(1);
    expect(suffixSimilarity(' behind the fish market stall', text, at + 'the board'.length)).toBeLessThan(0.6);
  });
});
