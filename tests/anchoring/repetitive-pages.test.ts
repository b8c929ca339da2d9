// @vitest-environment jsdom
// The failure classes of long, repetitive pages (API references): a short quote occurring hundreds of
// times, twin paragraphs documented in the same words, a twin whose context differs by a few characters.
import { describe, expect, test } from 'vitest';
import { TextIndex, anchor, describeOffsets, type HighlightDescriptor } from '../../lib/anchoring/index.js';
import { boundedAnchoredDistance } from '../../lib/anchoring/context.js';
import { anchored, seededRandom, setPage } from './helpers.js';

function nthIndex(text: string, quote: string, nth: number): number {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(quote, at + 1);
  return at;
}

function describeNth(index: TextIndex, quote: string, nth: number): HighlightDescriptor {
  const at = nthIndex(index.text, quote, nth);
  expect(at).toBeGreaterThanOrEqual(0);
  const d = describeOffsets(index, at, at + quote.length);
  expect(d).not.toBeNull();
  return d!;
}

/** A method entry as API references write them: the same sentences, only the names differ. */
function entry(name: string, verb: string, i: number): string {
  return `<section><h3>${name}(key, value)</h3><p>${verb} the entry for the given key. Returns null if the key is missing.</p>` +
    `<p>Parameters: key, a string; value, any value. Returns null if the store is closed. Since version ${1 + (i % 3)}.${i % 10}.</p></section>`;
}

describe('many occurrences with a stored position', () => {
  // 300 entries: "null" occurs 600 times, "Returns null if the key is missing." 300 times with the same
  // 32 characters around it, so neither the quote nor its short context says which one was meant.
  const page = Array.from({ length: 300 }, (_, i) => entry(`item${i}`, 'Stores', i)).join('');

  test('every highlighted occurrence of a word occurring hundreds of times is found again on the unchanged page', () => {
    setPage(`<h1>Store API</h1>${page}`);
    const index = new TextIndex(document);
    expect(index.text.split('null').length - 1).toBe(600);
    for (const nth of [0, 1, 137, 298, 451, 599]) {
      const d = describeNth(index, 'null', nth);
      const r = anchored(anchor(index, d));
      expect(r.start).toBe(nthIndex(index.text, 'null', nth));
    }
  });

  test('a short-context descriptor (as stored before) of a word occurring hundreds of times is placed by its position', () => {
    setPage(`<h1>Store API</h1>${page}`);
    const index = new TextIndex(document);
    for (const nth of [3, 250, 597]) {
      const at = nthIndex(index.text, 'null', nth);
      const d = { text: 'null', position: nth, prefix: index.text.slice(at - 32, at), suffix: index.text.slice(at + 4, at + 36) };
      const r = anchored(anchor(index, d));
      expect(r.start).toBe(at);
      // Without a position the same descriptor is ambiguous, never guessed.
      expect(anchor(index, { ...d, position: undefined }).status).not.toBe('anchored');
    }
  });
});

describe('twin paragraphs', () => {
  const intro = '<h1>Event API</h1><p>Listeners are called in the order they were added.</p>';
  const add = entry('addListener', 'Adds', 4);
  const remove = entry('removeListener', 'Removes', 4);
  const filler = Array.from({ length: 6 }, (_, i) => `<p>Unrelated paragraph number ${i} about configuration files and their defaults.</p>`).join('');

  test('the context is stored longer where the page repeats itself, and 32 characters elsewhere', () => {
    setPage(`${intro}${add}${filler}${remove}`);
    const index = new TextIndex(document);
    const twin = describeNth(index, 'the entry for the given key', 0);
    expect(twin.prefix!.length + twin.suffix!.length).toBeGreaterThan(64);
    expect(twin.prefix!.length).toBeLessThanOrEqual(200);
    const unique = describeNth(index, 'called in the order', 0);
    expect(unique.prefix!.length).toBeLessThanOrEqual(32);
    expect(unique.suffix!.length).toBeLessThanOrEqual(32);
  });

  test('when the highlighted paragraph is removed, its twin is not painted instead', () => {
    setPage(`${intro}${add}${filler}${remove}`);
    let index = new TextIndex(document);
    const quotes = ['the entry for the given key', 'Returns null if the key is missing', 'key, a string; value, any value', 'null'];
    const ds = quotes.map((q) => describeNth(index, q, 0));
    for (const [i, d] of ds.entries()) expect(anchored(anchor(index, d)).start).toBe(nthIndex(index.text, quotes[i], 0));
    // The addListener entry is removed; removeListener stays.
    setPage(`${intro}${filler}${remove}`);
    index = new TextIndex(document);
    for (const d of ds) expect(anchor(index, d).status, d.text).not.toBe('anchored');
  });

  test('a twin whose context differs by a few characters is not taken; the highlighted one is found after a small edit', () => {
    // The twins differ in one letter of a name next to the quote ("getItem" / "setItem").
    const get = '<p>The method getItem reads the value stored under the given key and returns it as a string.</p>';
    const set = '<p>The method setItem reads the value stored under the given key and returns it as a string.</p>';
    setPage(`${intro}${get}${filler}${set}`);
    let index = new TextIndex(document);
    const d = describeNth(index, 'reads the value stored', 0);
    expect(anchored(anchor(index, d)).start).toBe(nthIndex(index.text, 'reads the value stored', 0));
    // Removed: not painted on setItem's paragraph.
    setPage(`${intro}${filler}${set}`);
    expect(anchor(new TextIndex(document), d).status).not.toBe('anchored');
    // Still there with a typo in its sentence: found where it was, not on the twin.
    setPage(`${intro}${get.replace('returns it', 'retuns it')}${filler}${set}`);
    index = new TextIndex(document);
    expect(anchored(anchor(index, d)).start).toBe(nthIndex(index.text, 'reads the value stored', 0));
    // The twin paragraph removed instead: the highlighted one is still found.
    setPage(`${intro}${get}${filler}`);
    index = new TextIndex(document);
    expect(anchored(anchor(index, d)).start).toBe(nthIndex(index.text, 'reads the value stored', 0));
  });
});

describe('short-context descriptors (as stored before the long context)', () => {
  // Mirror-image methods documented in the same words, per instance: "Encodes" and "Decodes" the buffer
  // of each store, so a 32-character context tells a method's entry from its twin by two letters.
  const entry = (verb: string, store: string) =>
    `<section><h3>${verb.toLowerCase()}(key, value)</h3><p>${verb} the buffer stored under the given key in the ${store} instance. The key must be a string.</p></section>`;
  const stores = ['Vault63', 'Document16', 'Cache7', 'Queue21'];
  const quote = 'stored under the given key';

  /** A descriptor as older stored highlights have it: 32 characters of context a side. */
  function shortDescriptor(index: TextIndex, nth: number): HighlightDescriptor {
    const d = describeNth(index, quote, nth);
    return { ...d, prefix: d.prefix!.slice(-32), suffix: d.suffix!.slice(0, 32) };
  }

  test('when its entry is removed, the twin entry (its context two letters off) is not painted instead', () => {
    const all = stores.flatMap((store) => [entry('Encodes', store), entry('Decodes', store)]);
    setPage(`<h1>Buffer API</h1>${all.join('')}`);
    let index = new TextIndex(document);
    const d = shortDescriptor(index, 0); // Encodes, Vault63
    expect(d.prefix).toContain('Encodes the buffer');
    expect(anchored(anchor(index, d)).start).toBe(nthIndex(index.text, quote, 0));
    setPage(`<h1>Buffer API</h1>${all.slice(1).join('')}`);
    index = new TextIndex(document);
    expect(anchor(index, d).status).not.toBe('anchored');
    // Still there, with a typo a few words away: found where it was.
    setPage(`<h1>Buffer API</h1>${[all[0].replace('must be', 'mst be'), ...all.slice(1)].join('')}`);
    index = new TextIndex(document);
    expect(anchored(anchor(index, d)).start).toBe(nthIndex(index.text, quote, 0));
  });
});

/** Plain dynamic programme: anchored near end, free far end, `slack` extra text characters. */
function reference(pattern: string, text: string, at: number, backwards: boolean, slack: number): number {
  const m = pattern.length;
  const w = Math.min(m + slack, backwards ? at : text.length - at);
  const p = backwards ? [...pattern].reverse().join('') : pattern;
  const t = backwards ? [...text.slice(at - w, at)].reverse().join('') : text.slice(at, at + w);
  let prev = Array.from({ length: w + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= w; j++) cur[j] = Math.min(prev[j - 1] + (p[i - 1] === t[j - 1] ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
    prev = cur;
  }
  return Math.min(...prev);
}

test('the bounded distance used for long contexts agrees with the plain dynamic programme up to its limit', () => {
  const random = seededRandom(23);
  const alphabet = 'ab c';
  const word = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  for (let trial = 0; trial < 3000; trial++) {
    const base = word(1 + Math.floor(random() * 120));
    // Texts near the pattern (a few edits) as well as unrelated ones.
    let text = random() < 0.6 ? base : word(Math.floor(random() * 140));
    for (let e = Math.floor(random() * 6); e > 0; e--) {
      const at = Math.floor(random() * (text.length + 1));
      text = text.slice(0, at) + word(Math.floor(random() * 2)) + text.slice(at + Math.floor(random() * 2));
    }
    const backwards = random() < 0.5;
    const padded = backwards ? word(5) + text : text + word(5);
    const at = backwards ? padded.length : 0;
    const limit = Math.floor(random() * 9);
    const want = Math.min(limit + 1, reference(base, padded, at, backwards, limit));
    expect(boundedAnchoredDistance(base, padded, at, backwards, limit), `${base} | ${padded} | ${limit}`).toBe(want);
  }
});
