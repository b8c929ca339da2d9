// @vitest-environment jsdom
// Patching the text index after DOM mutations (lib/anchoring/text-index-patch.ts, used by the
// highlighter's PageIndex): the patched index must be the index a full walk of the changed page gives,
// and cost work in proportion to the change.
import { afterEach, describe, expect, test } from 'vitest';
import { TextIndex, anchorAll, describeOffsets, type HighlightDescriptor } from '../../lib/anchoring/index.js';
import { patchTextIndex, type PatchStats } from '../../lib/anchoring/text-index-patch.js';
import { nodeIdOf, offsetAt } from '../../lib/anchoring/range-offsets.js';
import { PatchedTextSearch } from '../../lib/anchoring/search-patched.js';
import { TextSearch, textSearchOf } from '../../lib/anchoring/search-text.js';
import { PageIndex } from '../../lib/highlighter/page-index.js';
import { providePart } from '../../lib/highlighter/parts.js';
import { anchored, rangeText, seededRandom, setPage, stopWatchingPage, watchPage } from './helpers.js';

const newStats = (): PatchStats => ({ records: 0, stretches: 0, removed: 0, added: 0, renormalised: 0 });

afterEach(stopWatchingPage);

const watch = () => watchPage();

/**
 * The non-empty text nodes an index reaches, each with its raw start: its text entries, and those inside
 * the elements it indexes whole. (A patch may keep as separate entries the text of an element that a full
 * walk now takes whole: the same text nodes at the same places.)
 */
function textNodesOf(index: TextIndex): [Text, number][] {
  const out: [Text, number][] = [];
  index.nodes.forEach((entry, k) => {
    let at = index.nodeStart[k];
    const walker = document.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
    for (let t = entry.nodeType === Node.TEXT_NODE ? entry : walker.nextNode(); t; t = entry.nodeType === Node.TEXT_NODE ? null : walker.nextNode()) {
      const length = (t as Text).length;
      if (length > 0) out.push([t as Text, at]);
      at += length;
    }
  });
  return out;
}

/** Asserts that `patched` is the index a full walk of the page gives now: same text, same way back to the DOM. */
function expectSameAsFresh(patched: TextIndex, seed = 1): void {
  const fresh = new TextIndex(document);
  expect(patched.text).toBe(fresh.text);
  const freshNodes = textNodesOf(fresh);
  expect(textNodesOf(patched)).toEqual(freshNodes);
  const n = fresh.text.length;
  const rand = seededRandom(seed);
  const point = (r: Range) => [r.startContainer, r.startOffset, r.endContainer, r.endOffset];
  for (let i = 0; i < 60 && n > 0; i++) {
    const a = Math.floor(rand() * n);
    const b = Math.min(n, a + 1 + Math.floor(rand() * 40));
    expect(point(patched.rangeFor(a, b)), `range ${a}-${b} of "${fresh.text.slice(a, b)}"`).toEqual(point(fresh.rangeFor(a, b)));
  }
  // Its search (carried over from the old index's when it had one: search-patched.ts) answers as a fresh one.
  const search = textSearchOf(patched);
  const freshSearch = new TextSearch(fresh.text);
  for (let i = 0; i < 20 && n > 0; i++) {
    const a = Math.floor(rand() * n);
    const needle = fresh.text.slice(a, a + 1 + Math.floor(rand() * 12));
    expect(search.findAll(needle), JSON.stringify(needle)).toEqual(freshSearch.findAll(needle));
  }
  // Every point of the page's text maps to the same offset, and every entry of the patched index is known by its number.
  for (const [t] of freshNodes) {
    for (const off of [0, t.length >> 1, t.length]) expect(offsetAt(patched, t, off)).toBe(offsetAt(fresh, t, off));
  }
  patched.nodes.forEach((entry, k) => expect(nodeIdOf(patched, entry)).toBe(k));
}

function paragraphs(count: number): string {
  let html = '<main><h1>Reference</h1>';
  for (let i = 0; i < count; i++) html += `<p id="p${i}">Paragraph ${i} says <b>something</b> about item ${i}.</p>\n`;
  return html + '</main><aside id="side"><span id="clock">12:00</span></aside>';
}

describe('patching the text index after mutations', () => {
  test('text changed inside one paragraph (character data, and textContent) re-walks only that stretch', () => {
    setPage(paragraphs(200));
    const index = new TextIndex(document);
    nodeIdOf(index, index.nodes[0]);
    const take = watch();
    (document.querySelector('#p57 b')!.firstChild as Text).data = 'nothing at all';
    const stats = newStats();
    const patched = patchTextIndex(index, take(), stats)!;
    expect(patched).not.toBeNull();
    expectSameAsFresh(patched);
    expect(patched.text).toContain('Paragraph 57 says nothing at all about item 57.');
    expect(stats.stretches).toBe(1);
    expect(stats.removed).toBeLessThanOrEqual(3);
    expect(stats.added).toBeLessThanOrEqual(3);

    // A ticking clock: textContent replaces the text node.
    document.getElementById('clock')!.textContent = '12:01';
    const stats2 = newStats();
    const again = patchTextIndex(patched, take(), stats2)!;
    expectSameAsFresh(again, 2);
    expect(again.text.endsWith('12:01')).toBe(true);
    expect(stats2.added).toBeLessThanOrEqual(2);
    expect(stats2.renormalised).toBeLessThan(200);
  });

  test('a paragraph inserted or removed: the rest of the index is copied, not walked', () => {
    setPage(paragraphs(300));
    const index = new TextIndex(document);
    const take = watch();
    const p = document.createElement('p');
    p.innerHTML = 'A new <em>paragraph</em> arrives.';
    document.getElementById('p120')!.after(p);
    const stats = newStats();
    const patched = patchTextIndex(index, take(), stats)!;
    expectSameAsFresh(patched);
    expect(patched.text).toContain('about item 120. A new paragraph arrives. Paragraph 121');
    expect(stats.added).toBeLessThanOrEqual(6);

    document.getElementById('p7')!.remove();
    document.getElementById('p8')!.remove();
    const stats2 = newStats();
    const removed = patchTextIndex(patched, take(), stats2)!;
    expectSameAsFresh(removed, 3);
    expect(removed.text).toContain('about item 6. Paragraph 9 says');
    expect(stats2.added).toBeLessThanOrEqual(4);
    expect(stats2.removed).toBeLessThanOrEqual(12);
  });

  test('inline changes next to block boundaries keep word separation exact', () => {
    setPage('<div id="a">alpha</div>x<div id="b">beta</div><p id="c">one<br>two<span id="s"><div>deep</div></span>three</p><p id="e"></p><p>end</p>');
    const index = new TextIndex(document);
    const take = watch();
    document.getElementById('a')!.after('inserted');
    document.querySelector('#c br')!.remove();
    document.getElementById('s')!.remove();
    document.getElementById('e')!.append('now text');
    const patched = patchTextIndex(index, take())!;
    expectSameAsFresh(patched);
    // (The parser ends <p id="c"> before the <div>: the span holds nothing, "deep" stays.)
    expect(patched.text).toBe('alpha insertedx beta onetwo deep three now text end');
  });

  test('a change inside a hidden subtree leaves the index as it is', () => {
    setPage(`${paragraphs(20)}<div id="menu" style="display: none"><p id="hid">hidden <b>menu</b></p></div><div hidden><p id="h2">also hidden</p></div>`);
    const index = new TextIndex(document);
    const take = watch();
    (document.querySelector('#hid b')!.firstChild as Text).data = 'changed';
    document.getElementById('hid')!.append(document.createElement('span'), 'more hidden text');
    document.getElementById('h2')!.textContent = 'still hidden';
    const stats = newStats();
    const patched = patchTextIndex(index, take(), stats);
    expect(patched).toBe(index);
    expect(stats.stretches).toBe(0);
    expectSameAsFresh(patched!);
  });

  test('changes inside a paragraph indexed whole: its text, a hidden or styled element inside it, a child removed or added', () => {
    setPage(paragraphs(100).replace('<p id="p40">', '<p id="p40">Call <code>open(<var>path</var>)</code> now. '));
    const index = new TextIndex(document);
    const p40 = document.getElementById('p40')!;
    expect(index.nodes).toContain(p40);
    const take = watchPage(['hidden', 'class', 'style', 'open']);
    // Text changed two levels down.
    (p40.querySelector('var')!.firstChild as Text).data = 'file';
    let stats = newStats();
    let patched = patchTextIndex(index, take(), stats)!;
    expectSameAsFresh(patched);
    expect(patched.text).toContain('Call open(file) now. Paragraph 40 says something');
    expect(stats.removed).toBeLessThanOrEqual(3);
    // An element inside it hidden: its text leaves the index; shown again, it comes back.
    p40.querySelector('code')!.hidden = true;
    stats = newStats();
    patched = patchTextIndex(patched, take(), stats)!;
    expectSameAsFresh(patched, 2);
    expect(patched.text).toContain('Call now. Paragraph 40 says');
    expect(stats.stretches).toBe(1);
    p40.querySelector('code')!.hidden = false;
    patched = patchTextIndex(patched, take())!;
    expectSameAsFresh(patched, 3);
    expect(patched.text).toContain('Call open(file) now.');
    // A class on an element inside it (no longer plain), then a child removed and one added.
    p40.querySelector('b')!.className = 'em';
    patched = patchTextIndex(patched, take())!;
    expectSameAsFresh(patched, 4);
    p40.querySelector('code')!.remove();
    p40.append(Object.assign(document.createElement('i'), { textContent: ' Added.' }));
    patched = patchTextIndex(patched, take())!;
    expectSameAsFresh(patched, 5);
    expect(patched.text).toContain('Call now. Paragraph 40 says something about item 40. Added.');
    // Attributes that cannot show or hide anything leave the index as it is.
    p40.querySelector('i')!.setAttribute('data-x', '1');
    expect(patchTextIndex(patched, take())).toBe(patched);
  });

  test('attribute-only and style changes do not touch the kept index', () => {
    setPage(paragraphs(50));
    let patches = 0;
    const take = watch();
    // The patcher as the highlighter has it once its part is loaded.
    providePart('index-patch', (index, records) => {
      patches++;
      return patchTextIndex(index, records);
    });
    const pageIndex = new PageIndex(() => document.body, () => pageIndex.invalidate(take()));
    const kept = pageIndex.now();
    // What a live page does all the time: classes, inline styles, ARIA state, a style sheet in <head>.
    document.getElementById('p3')!.className = 'active';
    document.getElementById('p4')!.style.transform = 'translateX(2px)';
    document.getElementById('side')!.setAttribute('aria-expanded', 'true');
    const style = document.createElement('style');
    style.textContent = '.active { color: red }';
    document.head.append(style);
    document.body.append(document.createComment('a comment'));
    expect(pageIndex.now()).toBe(kept);
    expect(patches).toBe(0);
    // Attribute records, if an observer asks for them, change nothing either.
    const o = new MutationObserver(() => {});
    o.observe(document.documentElement, { attributes: true, subtree: true });
    document.getElementById('p5')!.setAttribute('data-x', '1');
    expect(patchTextIndex(kept, o.takeRecords())).toBe(kept);
    o.disconnect();
  });

  test('PageIndex: a small change followed by a new highlight patches the kept index instead of indexing again', () => {
    setPage(paragraphs(400));
    const stats = newStats();
    const take = watch();
    providePart('index-patch', (index, records) => patchTextIndex(index, records, stats));
    const pageIndex = new PageIndex(() => document.body, () => pageIndex.invalidate(take()));
    const first = pageIndex.now();
    document.getElementById('clock')!.textContent = '12:01';
    const p = document.createElement('p');
    p.textContent = 'A comment loaded later.';
    document.getElementById('p399')!.after(p);
    const second = pageIndex.now();
    expect(second).not.toBe(first);
    expect(stats.records).toBe(2);
    expect(stats.added).toBeLessThanOrEqual(4);
    expectSameAsFresh(second);
    // Describing a new highlight on it finds the right place.
    const start = second.text.indexOf('item 250');
    const d = describeOffsets(second, start, start + 'item 250'.length)!;
    const [r] = anchorAll(second, [d]);
    expect(rangeText(anchored(r).range)).toBe('item 250');
    expect(anchored(r).range.startContainer.parentElement!.id).toBe('p250');
  });

  test('highlights anchored with a patched index are never painted at a wrong place', () => {
    setPage(paragraphs(120));
    const index = new TextIndex(document);
    const quotes = [5, 40, 41, 80, 119].map((i) => `Paragraph ${i} says something`);
    const descriptors: HighlightDescriptor[] = quotes.map((q) => {
      const s = index.text.indexOf(q);
      return describeOffsets(index, s, s + q.length)!;
    });
    const take = watch();
    // Before, between and inside the highlighted paragraphs: text edits, insertions, removals, a move.
    document.getElementById('p2')!.before(Object.assign(document.createElement('p'), { textContent: 'Paragraph 40 says something else entirely' }));
    (document.querySelector('#p40 b')!.firstChild as Text).data = 'nothing';
    document.getElementById('p41')!.firstChild!.textContent = 'Paragraph 41 now says ';
    document.getElementById('p60')!.remove();
    document.getElementById('p119')!.after(document.getElementById('p80')!);
    const patched = patchTextIndex(index, take())!;
    expectSameAsFresh(patched);
    const results = anchorAll(patched, descriptors);
    // Exactly where anchoring on a freshly built index puts them, reading as their quotes.
    const fresh = anchorAll(new TextIndex(document), descriptors);
    const where = (r: (typeof results)[number]) =>
      r.status === 'anchored' ? [r.start, r.end, r.range.startContainer, r.range.startOffset, r.range.endContainer, r.range.endOffset] : r.status;
    expect(results.map(where)).toEqual(fresh.map(where));
    results.forEach((r, i) => {
      if (r.status === 'anchored') expect(rangeText(r.range)).toBe(quotes[i]);
    });
    // The untouched ones, the moved one included, are on their own paragraphs.
    for (const [i, id] of [[0, 'p5'], [3, 'p80'], [4, 'p119']] as const) {
      expect((anchored(results[i]).range.startContainer.parentElement!.closest('p') as HTMLElement).id).toBe(id);
    }
  });

  test('after a patch, describing a new highlight searches through the kept index\'s word index, with the same result as on a fresh index', () => {
    setPage(paragraphs(1500)); // over 20k characters: the search gets a word index
    const index = new TextIndex(document);
    textSearchOf(index).prepare(); // as the highlighter does in idle time once the page is painted
    const take = watch();
    document.getElementById('clock')!.textContent = '12:01';
    document.getElementById('p700')!.after(Object.assign(document.createElement('p'), { textContent: 'Paragraph 900 says something about item 900.' }));
    const patched = patchTextIndex(index, take())!;
    expect(patched.search).toBeInstanceOf(PatchedTextSearch);
    expectSameAsFresh(patched);
    const fresh = new TextIndex(document);
    for (const quote of ['something about item 900.', 'item 1200', 'says', 'Paragraph 900 says something']) {
      const at = patched.text.lastIndexOf(quote);
      expect(describeOffsets(patched, at, at + quote.length), quote).toEqual(describeOffsets(fresh, at, at + quote.length));
    }
  });

  test('random mutations, patched after each batch, always give the index a full walk gives', () => {
    const rand = seededRandom(17);
    const pick = <T>(xs: ArrayLike<T>): T => xs[Math.floor(rand() * xs.length)];
    let html = '<article>';
    for (let i = 0; i < 40; i++) {
      html += i % 7 === 3 ? `<ul><li>item ${i}a</li><li>item <i>${i}</i>b</li></ul>` : `<p>w${i} <span>x${i}</span> y${i}<br>z${i}</p>`;
      if (i % 9 === 4) html += `<div style="display:none">gone ${i}</div> loose ${i} `;
    }
    setPage(html + '</article>');
    let index = new TextIndex(document);
    textSearchOf(index).findAll('item'); // a search to carry over from patch to patch
    const take = watch();
    const words = ['', ' ', 'a', 'b c', '  d  ', '\n', 'e\u00a0f', '\u00adg'];
    const makers: Array<() => Node> = [
      () => document.createTextNode(pick(words)),
      () => Object.assign(document.createElement('p'), { textContent: `new ${Math.floor(rand() * 100)}` }),
      () => Object.assign(document.createElement('span'), { textContent: pick(words) }),
      () => document.createElement('br'),
      () => Object.assign(document.createElement('div'), { innerHTML: '<b>bold</b> <div>inner</div>' }),
      () => Object.assign(document.createElement('script'), { textContent: 'var x;' }),
    ];
    let patchedCount = 0;
    for (let round = 0; round < 60; round++) {
      const steps = 1 + Math.floor(rand() * 4);
      for (let s = 0; s < steps; s++) {
        const all = Array.from(document.querySelector('article')!.querySelectorAll('*'));
        const el = pick(all);
        const op = Math.floor(rand() * 6);
        if (op === 0) el.append(pick(makers)());
        else if (op === 1) el.before(pick(makers)());
        else if (op === 2 && all.length > 20) el.remove();
        else if (op === 3) {
          const t = Array.from(el.childNodes).find((c) => c.nodeType === 3) as Text | undefined;
          if (t) t.data = pick(words);
        } else if (op === 4) {
          const to = pick(all);
          if (!el.contains(to)) to.after(el); // a move
        }
        else el.textContent = pick(words);
      }
      const next = patchTextIndex(index, take());
      if (next) {
        patchedCount++;
        expectSameAsFresh(next, round);
        index = next;
      } else {
        index = new TextIndex(document);
        textSearchOf(index).findAll('item');
      }
    }
    expect(patchedCount).toBeGreaterThan(50);
  });
});
