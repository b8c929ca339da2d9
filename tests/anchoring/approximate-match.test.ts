import { expect, test } from 'vitest';
import { ApproxPattern, type ApproxMatch } from '../../lib/anchoring/approximate-match.js';
import { seededRandom } from './helpers.js';

/** Edit distances of `pattern` to text[start, e) for every e in [start, to], by plain dynamic programming. */
function distancesFrom(text: string, start: number, to: number, pattern: string): number[] {
  const m = pattern.length;
  // col[i]: distance of pattern[0, i) to the text read so far.
  let col = Array.from({ length: m + 1 }, (_, i) => i);
  const out = [col[m]];
  for (let e = start; e < to; e++) {
    const next = [col[0] + 1];
    for (let i = 1; i <= m; i++) {
      next[i] = Math.min(col[i] + 1, next[i - 1] + 1, col[i - 1] + (pattern[i - 1] === text[e] ? 0 : 1));
    }
    col = next;
    out.push(col[m]);
  }
  return out;
}

/** The definition, computed the slow way: best error count over all substrings of the region, every end reaching it, longest match per end. */
function slowSearch(text: string, from: number, to: number, pattern: string, maxErrors: number): ApproxMatch[] {
  // dist[s][e - s] = edit distance of pattern to text[s, e).
  const dist: number[][] = [];
  for (let s = from; s <= to; s++) dist[s] = distancesFrom(text, s, to, pattern);
  let best = Infinity;
  for (let s = from; s <= to; s++) for (let e = s + 1; e <= to; e++) best = Math.min(best, dist[s][e - s]);
  if (best > maxErrors) return [];
  const out: ApproxMatch[] = [];
  for (let end = from + 1; end <= to; end++) {
    let start = from;
    while (start < end && dist[start][end - start] !== best) start++;
    if (start < end) out.push({ start, end, errors: best });
  }
  return out;
}

test('approximate search agrees with the slow definition, across 32-character block boundaries and wide characters', () => {
  const random = seededRandom(11);
  const alphabet = ['a', 'b', 'c', ' ', 'é', '—'];
  const pick = () => alphabet[Math.floor(random() * alphabet.length)];
  const lengths = [1, 2, 5, 31, 32, 33, 40, 63, 64, 65, 97, 140];
  for (let round = 0; round < 72; round++) {
    const m = lengths[round % lengths.length];
    let pattern = '';
    for (let i = 0; i < m; i++) pattern += pick();
    // Text: random filler around a mutated copy of the pattern.
    let copy = '';
    for (const ch of pattern) {
      const r = random();
      if (r < 0.06) continue; // deletion
      if (r < 0.12) copy += pick(); // substitution
      else copy += ch;
      if (random() < 0.05) copy += pick(); // insertion
    }
    // Filler long enough for blocks of a long pattern to drop out of the computation and come back.
    let before = '';
    let after = '';
    const filler = round % 2 === 0 ? 8 : 60;
    for (let i = 0; i < filler; i++) before += pick();
    for (let i = 0; i < filler; i++) after += pick();
    const text = `${before}${copy}${after}`;
    const from = Math.floor(random() * 4);
    const to = text.length - Math.floor(random() * 4);
    const k = Math.max(1, Math.floor(m * (round % 3 === 0 ? 0.3 : 0.15)));
    const prepared = new ApproxPattern(pattern);
    expect(prepared.search(text, from, to, k), `pattern ${JSON.stringify(pattern)} in ${JSON.stringify(text)} [${from}, ${to}) k=${k}`).toEqual(
      slowSearch(text, from, to, pattern, k),
    );
  }
});

test('a prepared pattern is reused across regions and finds a quote with a typo in a long text', () => {
  const quote = 'the lock keeper recorded the tide gauge at high water';
  const text = `${'Nothing to see here. '.repeat(20)}In 1907 the lock keeper recordde the tide gauge at high water, as always.`;
  const prepared = new ApproxPattern(quote);
  expect(prepared.search(text, 0, 200, 5)).toEqual([]);
  const at = text.indexOf('the lock keeper');
  const found = prepared.search(text, at - 20, at + quote.length + 20, 5);
  expect(found).toHaveLength(1);
  expect(found[0].errors).toBe(2);
  expect(text.slice(found[0].start, found[0].end)).toBe('the lock keeper recordde the tide gauge at high water');
});

test('where a region holds the pattern verbatim, the search reports exactly its verbatim occurrences (what search-fuzzy.ts reports without searching)', () => {
  const random = seededRandom(29);
  const alphabet = 'ab c';
  for (let round = 0; round < 300; round++) {
    const m = 2 + Math.floor(random() * 40);
    let pattern = '';
    for (let i = 0; i < m; i++) pattern += alphabet[Math.floor(random() * alphabet.length)];
    let text = '';
    const n = m + Math.floor(random() * 120);
    for (let i = 0; i < n; i++) text += alphabet[Math.floor(random() * alphabet.length)];
    const at = Math.floor(random() * (text.length - m + 1));
    text = text.slice(0, at) + pattern + text.slice(at + m);
    const from = Math.floor(random() * (at + 1));
    const to = at + m + Math.floor(random() * (text.length - at - m + 1));
    const verbatim: ApproxMatch[] = [];
    for (let i = text.indexOf(pattern, from); i !== -1 && i + m <= to; i = text.indexOf(pattern, i + 1)) verbatim.push({ start: i, end: i + m, errors: 0 });
    const maxErrors = Math.floor(random() * (m + 1));
    expect(new ApproxPattern(pattern).search(text, from, to, maxErrors), `${JSON.stringify(pattern)} in ${JSON.stringify(text.slice(from, to))}`).toEqual(verbatim);
  }
});
