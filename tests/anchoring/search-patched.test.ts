// Searching a patched index's text through the old index's search (lib/anchoring/search-patched.ts):
// after any sequence of edits, every answer must be the one a search of the new text gives.
import { expect, test } from 'vitest';
import { PatchedTextSearch } from '../../lib/anchoring/search-patched.js';
import type { TextEdit } from '../../lib/anchoring/types.js';
import { TextSearch } from '../../lib/anchoring/search-text.js';
import { seededRandom } from './helpers.js';

function naive(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

const WORDS = ['a', 'of', 'the', 'tide', 'harbour', 'master', 'at', 'high', 'water', 'lock', 'keeper', 'null', 'key', 'Returns', 'store'];

function words(random: () => number, n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(WORDS[Math.floor(random() * WORDS.length)]);
  return parts.join(' ');
}

/** `count` random edits of `text` (replacements, insertions, removals; some at the ends), in order. */
function randomEdits(random: () => number, text: string, count: number): { edits: TextEdit[]; next: string } {
  const points = new Set<number>();
  while (points.size < count * 2) points.add(Math.floor(random() * (text.length + 1)));
  const sorted = [...points].sort((a, b) => a - b);
  const edits: TextEdit[] = [];
  let next = '';
  let at = 0;
  for (let i = 0; i < sorted.length; i += 2) {
    const kind = random();
    const from = kind < 0.1 ? (i === 0 ? 0 : sorted[i]) : sorted[i];
    // A third are insertions (nothing removed), a third removals (nothing inserted).
    const to = kind < 0.33 ? from : sorted[i + 1];
    const inserted = kind > 0.66 ? '' : random() < 0.5 ? words(random, 1 + Math.floor(random() * 4)) : ' null';
    if (from === to && inserted === '') continue;
    next += text.slice(at, from) + inserted;
    edits.push({ from, to, len: inserted.length });
    at = to;
  }
  next += text.slice(at);
  return { edits, next };
}

test('a patched text is searched through the old search with the same answers as a search of the new text, patch after patch', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const random = seededRandom(seed);
    let text = words(random, 3000);
    const first = new TextSearch(text);
    first.prepare(); // the old search has its word index, as the highlighter's kept index does
    let search: TextSearch = first;
    for (let round = 0; round < 6; round++) {
      const { edits, next } = randomEdits(random, text, 1 + Math.floor(random() * 5));
      search = PatchedTextSearch.after(search, next, edits);
      text = next;
      expect(search.text).toBe(text);
      const needles = ['null', 'the tide', 'a', 'of the', 'harbour master at', 'not there at all', text.slice(0, 7), text.slice(-9)];
      for (let i = 0; i < 30; i++) {
        const at = Math.floor(random() * text.length);
        needles.push(text.slice(at, at + 1 + Math.floor(random() * 30)));
      }
      for (const needle of needles) {
        const truth = naive(text, needle);
        expect(search.findAll(needle), `seed ${seed} round ${round} ${JSON.stringify(needle)}`).toEqual(truth);
        expect(search.findAll(needle, 2)).toEqual(truth.slice(0, 3));
        expect(search.findFirstPass(needle)).toEqual(truth);
        const offset = Math.floor(random() * text.length);
        expect(search.countBefore(needle, offset)).toBe(truth.filter((h) => h < offset).length);
      }
    }
    // Prepared (as in idle time), it searches its own text: the same answers.
    search.prepare();
    for (const needle of ['null', 'the tide', text.slice(100, 120)]) expect(search.findAll(needle)).toEqual(naive(text, needle));
  }
});

test('a needle made or broken by an edit is found only where it now is: at a seam, across a removal, at the ends', () => {
  const old = 'alpha beta gamma delta';
  const base = new TextSearch(old);
  // "beta gamma" loses its space ("betagamma"), " delta" is removed, "omega " is put first.
  const search = PatchedTextSearch.after(base, 'omega alpha betagamma', [
    { from: 0, to: 0, len: 6 },
    { from: 10, to: 11, len: 0 },
    { from: 16, to: 22, len: 0 },
  ]);
  expect(search.findAll('beta gamma')).toEqual([]);
  expect(search.findAll('betagamma')).toEqual([12]);
  expect(search.findAll('omega alpha')).toEqual([0]);
  expect(search.findAll('alpha')).toEqual([6]);
  expect(search.findAll('delta')).toEqual([]);
  expect(search.findAll('a')).toEqual(naive('omega alpha betagamma', 'a'));
});
