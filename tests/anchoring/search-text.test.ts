import { expect, test } from 'vitest';
import { TextSearch } from '../../lib/anchoring/search-text.js';
import { whitespaceCandidates } from '../../lib/anchoring/search-exact.js';
import { seededRandom } from './helpers.js';

function naive(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** `length` words drawn from `words` joined by spaces, and `count` slices of it of `min` to `max` - 1 characters. */
function randomText(seed: number, words: string[], length: number, slices: { count: number; min: number; max: number }) {
  const random = seededRandom(seed);
  const parts: string[] = [];
  for (let i = 0; i < length; i++) parts.push(words[Math.floor(random() * words.length)]);
  const text = parts.join(' ');
  const needles: string[] = [];
  for (let i = 0; i < slices.count; i++) {
    const at = Math.floor(random() * (text.length - slices.max));
    needles.push(text.slice(at, at + slices.min + Math.floor(random() * (slices.max - slices.min))));
  }
  return { text, needles };
}

test('verbatim search gives the same hits before and after it switches to its word index', () => {
  const words = ['a', 'of', 'the', 'tide', 'harbour', 'master', 'at', 'high', 'water', 'lock', 'keeper', 'Mill', 'Creek', '1907,', 'it'];
  const { text, needles } = randomText(5, words, 12_000, { count: 400, min: 3, max: 40 });
  const search = new TextSearch(text);
  needles.push('harbour master at high water', 'not in the text at all', 'the tide');
  // Needles running to the very end of the text (its last words are indexed too).
  for (const n of [6, 9, 12, 20]) needles.push(text.slice(text.length - n));
  // Enough scans to make it build the index, then every needle again (index lookups or scans).
  const before = needles.map((n) => search.findAll(n));
  expect((search as unknown as { words: unknown }).words, 'word index built').not.toBeNull();
  const after = needles.map((n) => search.findAll(n));
  needles.forEach((n, i) => {
    const truth = naive(text, n);
    expect(before[i], JSON.stringify(n)).toEqual(truth);
    expect(after[i], JSON.stringify(n)).toEqual(truth);
  });
  // Limits: at most limit + 1 hits, so callers can tell "more than limit".
  expect(search.findAll('the', 5)).toHaveLength(6);
  expect(naive(text, 'the tide').length, 'a repeated needle').toBeGreaterThan(1);
  // The first-pass search (a quote in its whole context), limited to tell "once" from "more".
  for (const needle of ['the tide', 'not in the text at all', 'harbour master at high water']) {
    expect(search.findFirstPass(needle, 1), needle).toEqual(naive(text, needle).slice(0, 2));
  }
  const once = text.slice(1000, 1060);
  expect(naive(text, once), 'a needle that occurs once').toEqual([1000]);
  expect(search.findFirstPass(once, 1)).toEqual([1000]);
});

test('kept occurrence lists answer every later limit as a fresh search would, whatever limit they were found with', () => {
  const words = ['tide', 'harbour', 'master', 'at', 'high', 'water', 'lock', 'keeper', 'a', 'the'];
  const { text, needles } = randomText(13, words, 6_000, { count: 300, min: 3, max: 30 });
  const search = new TextSearch(text);
  const random = seededRandom(17);
  const limits = [0, 1, 3, 16, 64, Infinity];
  for (let round = 0; round < 3; round++) {
    for (const n of needles) {
      const truth = naive(text, n);
      const limit = limits[Math.floor(random() * limits.length)];
      const want = truth.length > limit ? truth.slice(0, limit + 1) : truth;
      expect(search.findAll(n, limit), `${JSON.stringify(n)} limit ${limit}`).toEqual(want);
      const at = Math.floor(random() * text.length);
      expect(search.countBefore(n, at)).toBe(truth.filter((h) => h < at).length);
    }
  }
});

test('the word index finds needles in text with characters outside ASCII (curly quotes, accents, CJK)', () => {
  const words = ['café', 'naïve', '“quoted”', 'harbour', 'élan', '字字字字字', 'tide’s', 'plain', 'zoë', 'ångström'];
  const { text, needles } = randomText(9, words, 8_000, { count: 200, min: 6, max: 30 });
  const search = new TextSearch(text);
  needles.push('café naïve', 'naïve café', ' 字字字字字 élan');
  needles.forEach((n) => search.findAll(n));
  expect((search as unknown as { words: unknown }).words, 'word index built').not.toBeNull();
  for (const n of needles) expect(search.findAll(n), JSON.stringify(n)).toEqual(naive(text, n));
});

test('a word index built ahead (prepare, in idle time) answers every search as the scans did', () => {
  const words = ['null', 'key', 'value', 'the', 'given', 'stored', 'under', 'returns', 'string,', 'Map'];
  const { text, needles } = randomText(11, words, 8_000, { count: 200, min: 3, max: 30 });
  const search = new TextSearch(text);
  search.prepare();
  expect((search as unknown as { words: unknown }).words, 'word index built at once').not.toBeNull();
  for (const n of needles) expect(search.findAll(n), JSON.stringify(n)).toEqual(naive(text, n));
  // A short text gets no index (a scan is cheaper there).
  const short = new TextSearch('the key under the given key');
  short.prepare();
  expect((short as unknown as { words: unknown }).words).toBeNull();
  expect(short.findAll('key')).toEqual([4, 24]);
});

/** Every [start, end) whose text, spaces removed, is `bare`, with at most one space between two of its characters. */
function naiveSpaced(text: string, bare: string): Array<{ start: number; end: number; errors: number }> {
  const out: Array<{ start: number; end: number; errors: number }> = [];
  for (let s = 0; s < text.length; s++) {
    let k = s;
    let b = 0;
    for (; b < bare.length; b++, k++) {
      if (b > 0 && text[k] === ' ') k++;
      if (text[k] !== bare[b]) break;
    }
    if (b === bare.length) out.push({ start: s, end: k, errors: 0 });
  }
  return out;
}

test('the quote with spaces ignored is found near the given places exactly as a search of the whole text, cut to those places, finds it', () => {
  // A rare character (the quote's rarest, which the search starts from) whose next occurrence lies far
  // beyond one window is still found in later windows.
  const random = seededRandom(31);
  const words = ['tide', 'harbour', 'master', 'at', 'high', 'water', 'lock', 'keeper', 'quay', 'zinc', 'jetty'];
  const parts: string[] = [];
  for (let i = 0; i < 6000; i++) parts.push(words[Math.floor(random() * words.length)]);
  // Spaces appear and vanish here and there.
  const text = parts.join(' ').replace(/ (?=j)/g, () => (random() < 0.3 ? '' : ' ')).replace(/e/g, (e) => (random() < 0.05 ? 'e ' : e));
  const search = new TextSearch(text);
  let found = 0;
  for (let trial = 0; trial < 300; trial++) {
    const at = Math.floor(random() * (text.length - 40));
    const quote = text.slice(at, at + 8 + Math.floor(random() * 24)).trim().replace(/ +/g, ' ');
    const all = naiveSpaced(text, quote.replaceAll(' ', ''));
    const near = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * text.length)).sort((a, b) => a - b);
    const bare = quote.replaceAll(' ', '').length;
    if (random() < 0.5) near.push(at);
    // Or a window ending just before the quote's place and another one after it: the occurrence between them is left out.
    else near.push(at - 2 * bare - 8, at + 3 * bare + 20);
    near.sort((a, b) => a - b);
    // A window [e - 8, e + 2 * bare + 8) holds the occurrences whose anchor character lies in it.
    const j = search.rarestIndex(quote.replaceAll(' ', ''));
    const inWindow = (c: { start: number; end: number }) => {
      let k = c.start;
      for (let b = 0; b < j; b++, k++) if (text[k] === ' ') k++;
      if (text[k] === ' ') k++;
      return near.some((e) => k >= Math.max(0, e - 8) && k < e + 2 * bare + 8);
    };
    const want = all.filter(inWindow);
    if (want.length > 0) found++;
    expect(whitespaceCandidates(search, quote, near), JSON.stringify({ quote, near })).toEqual(want);
  }
  expect(found, 'trials with an occurrence near the given places').toBeGreaterThan(100);
});
