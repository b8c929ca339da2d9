// @vitest-environment jsdom
import { describe, expect, test } from 'vitest';
import {
  TextIndex,
  anchor,
  anchorAll,
  describeRange,
  type HighlightDescriptor,
  offsetsOf,
} from '../../lib/anchoring/index.js';
import { NEEDS_APPROXIMATE, anchor as anchorCore } from '../../lib/anchoring/anchor.js';
import { approximateSearch } from '../../lib/anchoring/anchor-approximate.js';
import { anchored, loadFixture, seededRandom, setPage } from './helpers.js';

/** Descriptor of the `nth` occurrence of `quote` on the current page. */
function describeQuote(index: TextIndex, quote: string, nth = 0): HighlightDescriptor {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = index.text.indexOf(quote, at + 1);
  expect(at, `occurrence ${nth} of "${quote}"`).toBeGreaterThanOrEqual(0);
  const d = describeRange(index, index.rangeFor(at, at + quote.length));
  expect(d).not.toBeNull();
  return d!;
}

function nthIndex(text: string, quote: string, nth: number): number {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(quote, at + 1);
  return at;
}

describe('describeRange', () => {
  test('stores the quote, its occurrence index and 32 characters of context on each side', () => {
    loadFixture('article.html');
    const index = new TextIndex(document);
    const d = describeQuote(index, 'harbour master', 2);
    expect(d.text).toBe('harbour master');
    expect(d.position).toBe(2);
    expect(d.prefix).toHaveLength(32);
    expect(d.suffix).toHaveLength(32);
    expect(d.prefix!.endsWith('On those days the ')).toBe(true);
    expect(d.suffix!.startsWith(' closes the lower car park')).toBe(true);
  });

  test('describes a user selection spanning inline markup and paragraphs', () => {
    loadFixture('article.html');
    const first = document.querySelectorAll('article p')[3];
    const second = document.querySelectorAll('article p')[4];
    const range = document.createRange();
    range.setStart(first.lastChild!, first.lastChild!.textContent!.indexOf('of one month'));
    range.setEnd(second.firstChild!, 'Spring tides'.length);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    const d = describeRange(document, selection.getRangeAt(0))!;
    expect(d.text).toBe('of one month fall on different weekdays from those of the next. Spring tides');
    expect(d.position).toBe(0);
  });

  test('a selection of only whitespace or hidden content has no descriptor', () => {
    setPage('<p>one</p>\n   <p hidden>secret</p><p>two</p>');
    const range = document.createRange();
    range.selectNode(document.querySelector('p[hidden]')!);
    expect(describeRange(document, range)).toBeNull();
  });
});

describe('anchor: exact matches', () => {
  test('round trip describe -> anchor on many random ranges of a page lands on the same text', () => {
    loadFixture('article.html');
    const index = new TextIndex(document);
    const texts: Text[] = [];
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if ((n as Text).data.trim()) texts.push(n as Text);
    const random = seededRandom(42);
    const descriptors: HighlightDescriptor[] = [];
    const expected: Array<{ start: number; end: number }> = [];
    while (descriptors.length < 300) {
      const a = texts[Math.floor(random() * texts.length)];
      const b = texts[Math.min(texts.length - 1, texts.indexOf(a) + Math.floor(random() * 4))];
      const range = document.createRange();
      range.setStart(a, Math.floor(random() * a.length));
      const endOffset = Math.floor(random() * (b.length + 1));
      if (a === b && endOffset <= range.startOffset) continue;
      range.setEnd(b, endOffset);
      const d = describeRange(index, range);
      if (!d) continue;
      const offsets = offsetsOf(index, range)!;
      const text = index.text;
      let { start, end } = offsets;
      while (text[start] === ' ') start++;
      while (text[end - 1] === ' ') end--;
      descriptors.push(d);
      expected.push({ start, end });
    }
    const results = anchorAll(document, descriptors);
    const shortOnes = descriptors.filter((d) => d.text.length < 4).length;
    let exactSame = 0;
    results.forEach((r, i) => {
      if (r.status !== 'anchored') {
        // Only very short quotes whose every occurrence has the same context may remain ambiguous.
        expect(r.status, `descriptor ${i}: "${descriptors[i].text}"`).toBe('ambiguous');
        expect(descriptors[i].text.length).toBeLessThan(4);
        return;
      }
      expect({ start: r.start, end: r.end }, `descriptor ${i}: "${descriptors[i].text}"`).toEqual(expected[i]);
      expect(r.method).toBe('exact');
      expect(describeRange(index, r.range)).toEqual(descriptors[i]);
      exactSame++;
    });
    expect(exactSame).toBeGreaterThanOrEqual(300 - shortOnes);
  });

  test('repeated short quote without context or position is reported ambiguous, never guessed', () => {
    loadFixture('article.html');
    const r = anchorAll(document, [{ text: 'harbour master' }, { text: 'the' }]);
    expect(r[0].status).toBe('ambiguous');
    expect(r[1].status).toBe('ambiguous');
    if (r[0].status !== 'anchored') expect(r[0].reason).toMatch(/appears several times/);
  });

  test('the stored position picks the occurrence when there is no context', () => {
    loadFixture('article.html');
    const index = new TextIndex(document);
    // Five visible occurrences: the ones in script, noscript, template and the hidden paragraph do not count.
    expect(index.text.split('harbour master')).toHaveLength(6);
    for (const nth of [0, 1, 3, 4]) {
      const r = anchored(anchor(index, { text: 'harbour master', position: nth }));
      expect(r.start).toBe(nthIndex(index.text, 'harbour master', nth));
    }
    // An occurrence index beyond what the page holds is not silently re-targeted.
    expect(anchor(index, { text: 'harbour master', position: 5 }).status).toBe('orphan');
  });

  test('prefix and suffix pick the occurrence of a repeated short quote (position absent or stale)', () => {
    loadFixture('article.html');
    const index = new TextIndex(document);
    for (const nth of [0, 2, 4]) {
      const d = describeQuote(index, 'tide', nth);
      const expectedStart = nthIndex(index.text, 'tide', nth);
      expect(anchored(anchor(index, { ...d, position: undefined })).start).toBe(expectedStart);
      // A stale position (occurrences were added above) loses against agreeing context.
      expect(anchored(anchor(index, { ...d, position: (d.position! + 3) % 7 })).start).toBe(expectedStart);
    }
  });

  test('identical repeated passages: ambiguous without position, resolved with it', () => {
    const block = '<p>Read the full tide table before you sail out of the harbour today.</p>';
    setPage(`<p>Intro text about the coast and the weather.</p>${block}<p>Some more words in between.</p>${block}`);
    const index = new TextIndex(document);
    const quote = 'full tide table';
    const second = describeQuote(index, quote, 1);
    // Both occurrences have 32 identical characters on each side? Only the suffix is identical here,
    // so context alone decides; check the fully identical case with a bare suffix.
    const bare = { text: quote, suffix: second.suffix };
    expect(anchor(index, bare).status).toBe('ambiguous');
    const withPosition = anchored(anchor(index, { ...bare, position: 1 }));
    expect(withPosition.start).toBe(nthIndex(index.text, quote, 1));
    expect(anchored(anchor(index, second)).start).toBe(nthIndex(index.text, quote, 1));
  });

  test('a quote that is not on the page is an orphan with a reason', () => {
    loadFixture('article.html');
    const r = anchor(new TextIndex(document), {
      text: 'a sentence that was never written on this page at all',
      prefix: 'something else entirely ',
    });
    expect(r.status).toBe('orphan');
    if (r.status !== 'anchored') expect(r.reason.length).toBeGreaterThan(20);
  });

  test('stored text with un-normalised whitespace still anchors', () => {
    loadFixture('article.html');
    const index = new TextIndex(document);
    const d = describeQuote(index, 'the most important piece of paper');
    const r = anchored(anchor(index, { ...d, text: 'the  most\u00a0important\n piece of paper', prefix: d.prefix + '  ' }));
    expect(index.text.slice(r.start, r.end)).toBe('the most important piece of paper');
  });
});

describe('anchor: whitespace-insensitive matches', () => {
  test('a re-render that drops the space between inline elements still anchors', () => {
    setPage('<p>The <span>lock</span> <span>keeper</span> telephoned twice that night about the flood.</p>');
    const d = describeQuote(new TextIndex(document), 'lock keeper telephoned');
    setPage('<p>The <span>lock</span><span>keeper</span> telephoned twice that night about the flood.</p>');
    const index = new TextIndex(document);
    const r = anchored(anchor(index, d));
    expect(r.method).toBe('whitespace');
    expect(index.text.slice(r.start, r.end)).toBe('lockkeeper telephoned');
    // The injected highlighter's core has no spaced search of its own: it asks for the approximate part.
    expect(anchorCore(index, d)).toBe(NEEDS_APPROXIMATE);
    expect(anchored(anchorCore(index, d, { approximate: approximateSearch })).method).toBe('whitespace');
  });

  test('a short quote that is gone does not make the injected highlighter load the approximate part', () => {
    setPage('<p>The tide came in at nine and the lock was shut.</p><p>Later the tide turned.</p>');
    const d = describeQuote(new TextIndex(document), 'lock');
    setPage('<p>The tide came in at nine and the gate was shut.</p><p>Later the tide turned.</p>');
    const r = anchorCore(new TextIndex(document), d);
    expect(r).not.toBe(NEEDS_APPROXIMATE);
    expect(r.status).toBe('orphan');
  });
});
