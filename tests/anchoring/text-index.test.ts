// @vitest-environment jsdom
import { beforeEach, describe, expect, test } from 'vitest';
import { TextIndex, normalizeText, offsetsOf, offsetAt } from '../../lib/anchoring/index.js';
import { Normaliser } from '../../lib/anchoring/text-index.js';
import { HIDDEN_OR_STYLED, HidingRules } from '../../lib/anchoring/visibility.js';
import { loadFixture, rangeText, seededRandom, setPage } from './helpers.js';

/** Range.toString() has no spaces for block boundaries; compare what the reader sees, letter for letter. */
function sameLetters(range: Range, text: string): boolean {
  return rangeText(range).replace(/ /g, '') === text.replace(/ /g, '');
}

function indexOf(html: string): TextIndex {
  setPage(html);
  return new TextIndex(document);
}

/** The DOM range for the first occurrence of `quote` in the index, checked to read back as `quote`. */
function rangeOfQuote(index: TextIndex, quote: string): Range {
  const start = index.text.indexOf(quote);
  expect(start, `"${quote}" in index text`).toBeGreaterThanOrEqual(0);
  const range = index.rangeFor(start, start + quote.length);
  expect(sameLetters(range, quote)).toBe(true);
  expect(offsetsOf(index, range)).toEqual({ start, end: start + quote.length });
  return range;
}

describe('normalizeText', () => {
  test('collapses whitespace, folds nbsp, drops soft hyphens and zero-width characters, trims', () => {
    expect(normalizeText('  a \n\t b\u00a0\u00a0c\u202fd  ')).toBe('a b c d');
    expect(normalizeText('inter\u00adnational zero\u200bwidth\u200c\u200d\ufeffjoin')).toBe('international zerowidthjoin');
    expect(normalizeText('\u00ad \u200b')).toBe('');
  });
});

describe('TextIndex: text of the page', () => {
  beforeEach(() => setPage(''));

  test('text split across inline elements reads as one run and maps back to the DOM', () => {
    const index = indexOf('<p>Hel<b>lo</b> <i>wor</i>ld, <a href="#x">dear <em>reader</em></a>!</p>');
    expect(index.text).toBe('Hello world, dear reader!');
    const range = rangeOfQuote(index, 'lo world, dear re');
    expect(range.startContainer.textContent).toBe('lo');
    expect(range.endContainer.textContent).toBe('reader');
    expect(range.endOffset).toBe(2);
  });

  test('block boundaries, <br> and table cells separate words', () => {
    const index = indexOf(
      '<div>one</div><div>two</div><p>three<br>four</p><ul><li>five</li><li>six</li></ul>' +
        '<table><tr><td>seven</td><td>eight</td></tr></table><h2>nine</h2>ten',
    );
    expect(index.text).toBe('one two three four five six seven eight nine ten');
    rangeOfQuote(index, 'two three four');
    rangeOfQuote(index, 'seven eight');
  });

  test('whitespace runs, newlines and indentation collapse to one space', () => {
    const index = indexOf('<p>\n    alpha   beta\n\t\tgamma   </p>\n\n   <p>  delta</p>');
    expect(index.text).toBe('alpha beta gamma delta');
  });

  test('non-breaking spaces fold to spaces', () => {
    const index = indexOf('<p>10&nbsp;km&nbsp;&nbsp;north of\u202fthe\u00a0 bay</p>');
    expect(index.text).toBe('10 km north of the bay');
    rangeOfQuote(index, 'km north');
  });

  test('soft hyphens and zero-width characters are dropped but ranges still cover them', () => {
    const index = indexOf('<p>inter\u00adnational zero\u200bwidth\ufeff space</p>');
    expect(index.text).toBe('international zerowidth space');
    const range = rangeOfQuote(index, 'international zerowidth');
    expect(range.toString()).toBe('inter\u00adnational zero\u200bwidth');
  });

  test('script, style, noscript, template and head content are skipped', () => {
    setPage(
      '<head><title>Title text</title><style>p { color: red }</style></head><body>' +
        '<p>before</p><script>var secret = "script text";</script><style>.x{}</style>' +
        '<noscript>noscript text</noscript><template><p>template text</p></template><p>after</p></body>',
    );
    const index = new TextIndex(document);
    expect(index.text).toBe('before after');
  });

  test('hidden subtrees are skipped: hidden attribute and display:none; aria-hidden is kept', () => {
    const index = indexOf(
      '<p>visible one</p><div hidden><p>hidden by attribute</p></div>' +
        '<p style="display:none">hidden by style</p>' +
        '<p aria-hidden="true">aria hidden but shown</p><p>visible two</p>',
    );
    expect(index.text).toBe('visible one aria hidden but shown visible two');
  });

  test('visibility:hidden hides an element’s own text but a visible child still shows', () => {
    const index = indexOf('<div style="visibility:hidden">ghost <span style="visibility:visible">shown</span></div>');
    expect(index.text).toBe('shown');
  });

  test('stylesheet rules that hide content are honoured where computed style is available', () => {
    setPage('<head><style>.collapsed { display: none }</style></head><body><p>kept</p><p class="collapsed">gone</p></body>');
    expect(new TextIndex(document).text).toBe('kept');
    // Without computed style only markup decides.
    expect(new TextIndex(document, { computedStyle: false }).text).toBe('kept gone');
  });

  test('open shadow roots are walked in rendering order, slotted content included', () => {
    setPage('<p>light before</p><div id="host"><span>slotted child</span></div><p>light after</p>');
    const host = document.getElementById('host')!;
    const shadow = host.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<p>shadow heading</p><slot></slot><p>shadow footer</p>';
    const index = new TextIndex(document);
    expect(index.text).toBe('light before shadow heading slotted child shadow footer light after');
    const inside = rangeOfQuote(index, 'shadow heading');
    expect(inside.startContainer.getRootNode()).toBe(shadow);
    const slotted = rangeOfQuote(index, 'slotted child');
    expect(slotted.startContainer.getRootNode()).toBe(document);
    // A DOM Range cannot cross the shadow boundary: it is cut where the shadow tree's text ends.
    const start = index.text.indexOf('heading slotted');
    const across = index.rangeFor(start, start + 'heading slotted'.length);
    expect(across.toString()).toBe('heading');
  });

  test('an element root indexes only its subtree', () => {
    setPage('<p>outside</p><article id="a"><p>inside one</p><p>inside two</p></article>');
    const index = new TextIndex(document.getElementById('a')!);
    expect(index.text).toBe('inside one inside two');
  });
});

describe('TextIndex: DOM positions to offsets', () => {
  test('element boundary points map to the text they precede', () => {
    const index = indexOf('<p id="a">alpha</p><p id="b">beta <b>gamma</b></p>');
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('b')!);
    expect(offsetsOf(index, range)).toEqual({ start: 6, end: 16 });
    range.selectNode(document.getElementById('a')!);
    expect(index.text.slice(offsetsOf(index, range)!.start, offsetsOf(index, range)!.end).trim()).toBe('alpha');
  });

  test('points inside skipped content map to the next visible text', () => {
    const index = indexOf('<p>alpha</p><script>var x = 1;</script><p>beta</p>');
    const script = document.querySelector('script')!;
    expect(offsetAt(index, script.firstChild!, 3)).toBe(index.text.indexOf('beta'));
  });

  test('a range built from normalised offsets never starts or ends on a synthetic space', () => {
    const index = indexOf('<p>one</p><p>two</p>');
    const range = index.rangeFor(3, 5); // " t": block-boundary space + "t"
    expect(range.toString()).toBe('t');
  });

  test('every offset of a real page converts to a DOM point and back', () => {
    loadFixture('article.html');
    const index = new TextIndex(document);
    expect(index.text.startsWith('Home | Archive | About Reading the Tide Tables')).toBe(true);
    expect(index.text).not.toContain('should never be matched');
    expect(index.text).not.toContain('Subscribe now');
    expect(index.text).toContain("Related: the lock keeper's diary.");
    for (let i = 0; i < index.text.length; i += 7) {
      const j = Math.min(index.text.length, i + 1 + (i % 40));
      const range = index.rangeFor(i, j);
      const back = offsetsOf(index, range)!;
      // Edge spaces are dropped from ranges; the non-space content must round-trip exactly.
      expect(index.text.slice(back.start, back.end).trim()).toBe(index.text.slice(i, j).trim());
      // The range starts on the span's first character and ends on its last one, except that
      // synthetic spaces (block boundaries) have no DOM character and are left out.
      const span = index.text.slice(i, j);
      if (span.trim().length === 0) continue;
      const asText = (c: string | undefined) => (c !== undefined && /\s/.test(c) ? ' ' : c);
      const first = asText((range.startContainer as Text).data[range.startOffset]);
      const last = asText((range.endContainer as Text).data[range.endOffset - 1]);
      expect([span[0], span.trim()[0]], `start of ${i}-${j}`).toContain(first);
      expect([span[span.length - 1], span.trim()[span.trim().length - 1]], `end of ${i}-${j}`).toContain(last);
    }
  });
});

describe('TextIndex: text taken from the page in one read', () => {
  test('content left out between visible text (script, hidden, display:none, visibility:hidden, shadow host light children) does not shift offsets', () => {
    setPage(
      '<p>alpha <script>var s = "script text";</script>beta</p>' +
        '<p>gamma<span hidden>hidden text</span> delta <b style="display:none">none text</b>epsilon</p>' +
        '<p><i style="visibility:hidden">ghost <b style="visibility:visible">zeta</b> ghost</i> omega</p>' +
        '<div id="host">light child not slotted</div><p>theta iota</p>',
    );
    const host = document.getElementById('host')!;
    host.attachShadow({ mode: 'open' }).innerHTML = '<p>shadow kappa</p>';
    const index = new TextIndex(document);
    expect(index.text).toBe('alpha beta gamma delta epsilon zeta omega shadow kappa theta iota');
    // Each word maps to its own DOM text (a range over left-out content would read it too).
    for (const quote of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'omega', 'shadow kappa', 'theta iota']) rangeOfQuote(index, quote);
    const theta = rangeOfQuote(index, 'theta');
    expect(theta.startContainer.textContent).toBe('theta iota');
    expect(theta.startOffset).toBe(0);
  });

  test('comments and processing instructions add no text; in an XML document a CDATA section reads as the text it shows', () => {
    setPage('<p>alpha<!-- a comment --> beta <b><!--x-->gamma</b></p><!-- between --><p>delta</p>');
    const html = new TextIndex(document);
    expect(html.text).toBe('alpha beta gamma delta');
    for (const quote of ['alpha', 'beta', 'gamma', 'delta']) rangeOfQuote(html, quote);

    const xml = new DOMParser().parseFromString(
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>one <![CDATA[in cdata]]>two<?pi data?> three</p><p>four</p></body></html>',
      'application/xhtml+xml',
    );
    const index = new TextIndex(xml);
    expect(index.text).toBe('one in cdatatwo three four');
    expect(index.rangeFor(index.text.indexOf('two'), index.text.indexOf('two') + 3).toString()).toBe('two');
    expect(index.rangeFor(index.text.indexOf('four'), index.text.length).toString()).toBe('four');
    // A CDATA section inside a paragraph read whole, and one that is an entry of its own (its paragraph holds
    // a styled element). Points, not ranges: jsdom's Range does not take an offset inside a CDATA section.
    const cdataOf = (doc: Document) => doc.getElementsByTagName('p')[0].childNodes[1];
    expect(index.pointAt(index.text.indexOf('cdata'))).toEqual({ node: cdataOf(xml), offset: 3 });
    const mixed = new DOMParser().parseFromString(
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>one <![CDATA[in cdata]]><b class="k">two</b></p></body></html>',
      'application/xhtml+xml',
    );
    const own = new TextIndex(mixed);
    expect(own.nodes).toContain(cdataOf(mixed));
    expect(own.pointAt(own.text.indexOf('cdata'))).toEqual({ node: cdataOf(mixed), offset: 3 });
    expect(own.rangeFor(own.text.indexOf('two'), own.text.length).toString()).toBe('two');
  });

  test('points inside collapsed whitespace and in empty text nodes map like the text around them', () => {
    setPage('<p id="p">one  \n two <b>three</b></p>');
    const p = document.getElementById('p')!;
    const b = p.querySelector('b')!;
    b.insertBefore(document.createTextNode(''), b.firstChild);
    const index = new TextIndex(document);
    expect(index.text).toBe('one two three');
    const first = p.firstChild as Text;
    expect(offsetAt(index, first, 3)).toBe(3); // at the collapsed run: its space
    expect(offsetAt(index, first, 5)).toBe(4); // inside the run: the next word
    expect(offsetAt(index, first, first.data.length)).toBe(8); // after the node's trailing space
    // An empty node right after a space sits before that space, as nothing after it was written yet.
    expect(offsetAt(index, b.firstChild!, 0)).toBe(7);
    expect(offsetAt(index, b.lastChild!, 0)).toBe(8);
  });
});

describe('normalizeText', () => {
  test('agrees with the rule as written on random strings (fast path for text already normalised)', () => {
    const random = seededRandom(11);
    const alphabet = ['a', 'b', ' ', '  ', '\n', '\t', '\u00a0', '\u00ad', '\u200b', '\u2003', '\ufeff', 'é', '字'];
    const reference = (s: string) =>
      s.replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, '').replace(/[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g, ' ').replace(/^ | $/g, '');
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const n = Math.floor(random() * 12);
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(random() * alphabet.length)];
      expect(normalizeText(s), JSON.stringify(s)).toBe(reference(s));
      // Normalising twice changes nothing.
      expect(normalizeText(normalizeText(s))).toBe(reference(s));
    }
  });

  test("the index's normaliser makes the same text, and its runs account for every character of it", () => {
    const random = seededRandom(12);
    const alphabet = ['a', 'b', ' ', '  ', '\n', '\t', '\u00a0', '\u00ad', '\u200b', '\u2003', '\ufeff', '\x85', 'é'];
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const n = Math.floor(random() * 14);
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(random() * alphabet.length)];
      for (const sliced of [false, true]) {
        const norm = new Normaliser(s, sliced);
        if (sliced) {
          expect(norm.run(() => true)).toBe(true);
          norm.finish();
        }
        expect(norm.text, JSON.stringify(s)).toBe(normalizeText(s));
        // Between runs raw and normalised text advance together: the last run's end says the length.
        const last = norm.count - 1;
        const length = last < 0 ? s.length : norm.runNorm[last] + norm.runOut[last] + (s.length - norm.runEnd[last]);
        expect(length, JSON.stringify(s)).toBe(norm.text.length);
      }
    }
  });
});

describe('TextIndex: plain elements read whole (few nodes touched on long pages)', () => {
  const page =
    '<article><p id="a">Call <code>open(<var>path</var>)</code> first, then <a href="#r"><em>read</em> it</a>.</p>' +
    '<p id="b">Styled <span class="k">keyword</span> and <b hidden>hidden words</b> here.</p>' +
    '<ul><li id="c">one <i>two</i></li><li>three</li></ul></article>';

  test('a paragraph of text and bare inline elements is one entry; one with a styled or hidden element inside is not', () => {
    const index = indexOf(page);
    expect(index.text).toBe('Call open(path) first, then read it. Styled keyword and here. one two three');
    const a = document.getElementById('a')!;
    const c = document.getElementById('c')!;
    expect(index.nodes).toContain(a);
    expect(index.nodes).toContain(c);
    // None of the text nodes inside them is an entry of its own.
    for (const el of [a, c]) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) expect(index.nodes).not.toContain(t);
    }
    // Paragraph b holds a styled span and a hidden element: walked node by node (the span, a leaf, whole).
    const b = document.getElementById('b')!;
    expect(index.nodes).not.toContain(b);
    expect(index.nodes).toContain(b.querySelector('.k'));
    expect(index.nodes).not.toContain(b.querySelector('b'));
  });

  test('ranges inside a whole paragraph start and end in the text nodes that hold the characters, at any depth', () => {
    const index = indexOf(page);
    const r1 = rangeOfQuote(index, 'path) first, then re');
    expect(r1.startContainer).toBe(document.querySelector('var')!.firstChild);
    expect(r1.startOffset).toBe(0);
    expect(r1.endContainer).toBe(document.querySelector('em')!.firstChild);
    expect(r1.endOffset).toBe(2);
    const r2 = rangeOfQuote(index, 'Call');
    expect([r2.startContainer, r2.startOffset, r2.endContainer, r2.endOffset]).toEqual([document.getElementById('a')!.firstChild, 0, document.getElementById('a')!.firstChild, 4]);
    const r3 = rangeOfQuote(index, 'it. Styled');
    expect(r3.startContainer).toBe(document.querySelector('a')!.lastChild);
    rangeOfQuote(index, 'two three');
    // The last character of the page: the point after it is at the end of its text node.
    const end = index.pointAt(index.text.length)!;
    expect(end.node).toBe(document.querySelector('li:last-child')!.firstChild);
    expect(end.offset).toBe(5);
  });

  test('points inside a whole paragraph map to their offsets: text nodes at any depth, element boundaries, empty text nodes', () => {
    const index = indexOf(page);
    const at = (s: string) => index.text.indexOf(s);
    const v = document.querySelector('var')!;
    expect(offsetAt(index, v.firstChild!, 2)).toBe(at('th)'));
    expect(offsetAt(index, v, 0)).toBe(at('path'));
    expect(offsetAt(index, v, 1)).toBe(at(') first'));
    const code = document.querySelector('code')!;
    expect(offsetAt(index, code, code.childNodes.length)).toBe(at(' first'));
    const a = document.getElementById('a')!;
    expect(offsetAt(index, a, 0)).toBe(0);
    expect(offsetAt(index, a, a.childNodes.length)).toBe(at(' Styled'));
    // An empty text node after "then " sits before that space, as one indexed on its own does.
    const link = document.querySelector('a')!;
    link.before(document.createTextNode(''));
    const again = new TextIndex(document);
    expect(offsetAt(again, link.previousSibling!, 0)).toBe(at(' read'));
  });
});

describe('TextIndex: visibility from the page\'s style sheets, read once', () => {
  test('a classed element is checked only when a hiding rule names one of its classes; a paragraph of other classed elements is read whole', () => {
    const index = indexOf(
      '<head><style>.collapsed { display: none } .menu .item, li.off { display: none }</style></head><body>' +
        '<p id="a">Call <span class="tok">open</span> and <code class="kw">read</code>.</p>' +
        '<p id="b">Keep <span class="collapsed">gone</span> this.</p>' +
        '<ul class="menu"><li>x <span class="item">hidden item</span></li><li class="off">off</li></ul></body>',
    );
    expect(index.text).toBe('Call open and read. Keep this. x');
    expect(index.nodes).toContain(document.getElementById('a'));
    expect(index.nodes).not.toContain(document.getElementById('b'));
  });

  test('a hiding rule that may match any element (attribute, universal) makes every classed element be checked', () => {
    const index = indexOf(
      '<head><style>[data-off] { display: none }</style></head><body><p id="a">x <span class="tok">y</span> <span class="tok" data-off>z</span></p></body>',
    );
    expect(index.text).toBe('x y');
    expect(index.nodes).not.toContain(document.getElementById('a'));
  });

  test('the classes are read from every rule that hides or shows, grouped ones too; past 64 classes, or a name with escapes, every classed element is checked', () => {
    const selectorFor = (css: string) => {
      setPage(`<head><style>${css}</style></head><body><p>x</p></body>`);
      return new HidingRules(document).styledSelector().split(',').sort();
    };
    expect(selectorFor('.a { display: none } @media screen { .b .c:not(.d) { visibility: hidden } } .e { color: red }')).toEqual(
      ['.a', '.c', '.d', '[hidden]', '[id]', '[style]'],
    );
    const many = Array.from({ length: 65 }, (_, i) => `.c${i} { display: none }`).join(' ');
    expect(selectorFor(many)).toEqual(HIDDEN_OR_STYLED.split(',').sort());
    expect(selectorFor('.sm\\:hidden { display: none }')).toEqual(HIDDEN_OR_STYLED.split(',').sort());
    // ...while bare elements still need no check of their own (no rule names a tag).
    expect(new HidingRules(document).sparesBareTag('p')).toBe(true);
  });

  // In a shadow tree, whose own style sheets HidingRules does not read, every classed element is checked:
  // tests/e2e/anchoring.spec.ts (jsdom applies no shadow-tree style).
});
