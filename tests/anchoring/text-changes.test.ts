// @vitest-environment jsdom
// Which unfound highlights a page change may have made findable (lib/anchoring/text-changes.ts), the index
// patcher's record of what it re-read, and its walk of elements whose attributes can show hidden text.
// What a user relies on: a highlight whose text arrives (even with typos) is painted; a clock ticking far
// from it does not make the highlighter search for it again.
import { afterEach, describe, expect, test } from 'vitest';
import { TextIndex, anchor, describeOffsets, type HighlightDescriptor } from '../../lib/anchoring/index.js';
import { TextChanges } from '../../lib/anchoring/text-changes.js';
import { SHOWING_ATTRIBUTES } from '../../lib/anchoring/visibility.js';
import { patchTextIndex } from '../../lib/anchoring/text-index-patch.js';
import { PageIndex } from '../../lib/highlighter/page-index.js';
import { providePart } from '../../lib/highlighter/parts.js';
import { seededRandom, setPage, stopWatchingPage, watchPage } from './helpers.js';

afterEach(stopWatchingPage);

/** Records the page's changes as the highlighter's observer does while some highlights are not found. */
const watch = () => watchPage(SHOWING_ATTRIBUTES);

const WORDS = 'tide harbour lantern gull rope anchor salt pier keel mast sail oar reef shoal current breeze dune cove buoy tackle'.split(' ');

/** Filler prose of `n` words (seeded). */
function prose(seed: number, n: number): string {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
}

/** One edit turning `before` into `after` (their common start and end kept), as a patch reports it (undefined past the cap: typed away, checked where it matters). */
function changed(before: string, after: string, prev: TextChanges | null = null): TextChanges {
  let a = 0;
  while (a < before.length && a < after.length && before[a] === after[a]) a++;
  let b = 0;
  while (b < before.length - a && b < after.length - a && before[before.length - 1 - b] === after[after.length - 1 - b]) b++;
  return TextChanges.after(prev, before, after, [{ from: a, to: before.length - b, len: after.length - a - b }]) as TextChanges;
}

const QUOTE = 'The quarterly tide tables were reprinted for the northern harbour';
const d: HighlightDescriptor = { text: QUOTE, prefix: 'the almanac says that. ', suffix: ' after the storm of ninety' };

describe('TextChanges.mayPlace', () => {
  const page = `12:00:01 ${prose(1, 400)} the almanac says that. ${prose(2, 400)}`;

  test('a clock ticking far from where the quote could be: not retried', () => {
    expect(changed(page, page.replace('12:00:01', '12:00:02')).mayPlace(d)).toBe(false);
    // Nor a comment arriving elsewhere.
    const end = `${page} ${prose(3, 30)}`;
    expect(changed(page, end).mayPlace(d)).toBe(false);
  });

  test('the quote arriving, verbatim, with typos, or with its spaces gone: retried', () => {
    const at = page.indexOf(' the almanac says that.');
    const insert = (q: string) => changed(page, `${page.slice(0, at)} ${q}${page.slice(at)}`).mayPlace(d);
    expect(insert(QUOTE)).toBe(true);
    // Six errors in 65 characters (anchoring allows 13).
    expect(insert(QUOTE.replace('quarterly', 'quartrly').replace('reprinted', 'reprintde').replace('northern', 'nothern'))).toBe(true);
    expect(insert(QUOTE.replace(/ /g, ''))).toBe(true);
    // Half of it is not the quote.
    expect(insert(QUOTE.slice(0, 30))).toBe(false);
  });

  test('only the last word of the quote arriving, the rest already there: retried', () => {
    const without = `${page} ${QUOTE.slice(0, -'harbour'.length)}`;
    expect(changed(without, `${without}harbour`).mayPlace(d)).toBe(true);
    // A one-character fix inside the quote.
    const typo = `${page} ${QUOTE.replace('tide', 'tyde')} ${prose(4, 50)}`;
    expect(changed(typo, typo.replace('tyde', 'tide')).mayPlace(d)).toBe(true);
  });

  test('a rival occurrence removed (the text before the change held it): retried', () => {
    const twice = `${page} ${QUOTE} ${prose(5, 100)} ${QUOTE} ${prose(6, 100)}`;
    const last = twice.lastIndexOf(QUOTE);
    const once = twice.slice(0, last) + twice.slice(last + QUOTE.length);
    expect(changed(twice, once).mayPlace(d)).toBe(true);
    // A word inserted into the middle of the rival (it is no longer one) is also a removal.
    const broken = twice.slice(0, last + 10) + 'XYZZY ' + twice.slice(last + 10);
    expect(changed(twice, broken).mayPlace(d)).toBe(true);
  });

  test('changes accumulate over several patches until taken; too many are "unknown"', () => {
    const tick = (t: string, s: number) => t.replace(/^12:00:\d\d/, `12:00:${String(s).padStart(2, '0')}`);
    let text = page;
    let c: TextChanges | null = null;
    for (let s = 2; s < 6; s++) {
      const next = s === 3 ? `${tick(text, s)} ${QUOTE}` : tick(text, s);
      c = changed(text, next, c);
      text = next;
    }
    expect(c!.mayPlace(d)).toBe(true);
    // A fifth patch before they are taken: more than is kept (each keeps its texts).
    c = changed(text, tick(text, 6), c);
    expect(c).toBeUndefined();
    // Or more touched stretches than are kept, in one patch.
    const edits = Array.from({ length: 100 }, (_, i) => ({ from: 4 * i, to: 4 * i + 1, len: 1 }));
    expect(TextChanges.after(null, 'a b '.repeat(100), 'x b '.repeat(100), edits)).toBeUndefined();
  });
});

describe('the patcher records what it re-read (TextIndex.changed)', () => {
  const paragraphs = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `<p id="p${i}">${prose(seed + i, 30)}.</p>`).join('');

  test('after random changes, every unfound highlight that anchoring would now place was retried, and a clock tick retries none', () => {
    const rand = seededRandom(7);
    setPage(`<div id="clock">12:00:00</div>${paragraphs(60, 100)}`);
    // Highlights made on sentences of ten paragraphs, which are then removed: not found.
    const original = new TextIndex(document);
    const descriptors: HighlightDescriptor[] = [];
    const removed: string[] = [];
    for (let i = 5; i < 55; i += 5) {
      const p = document.getElementById(`p${i}`)!;
      const at = original.text.indexOf(p.textContent!.slice(0, 40));
      descriptors.push(describeOffsets(original, at + 10, at + 10 + 50 + (i % 3) * 20)!);
      removed.push(p.textContent!);
      p.remove();
    }
    let index = new TextIndex(document);
    index.changed = null; // as the highlighter leaves it once it has taken the changes
    for (const x of descriptors) expect(anchor(index, x).status).not.toBe('anchored');
    const take = watch();
    let ticksRetried = 0;
    let arrivals = 0;
    const found = new Set<HighlightDescriptor>();
    for (let step = 0; step < 40; step++) {
      const kind = step % 4;
      const paras = [...document.querySelectorAll('p')];
      const at = paras[Math.floor(rand() * paras.length)];
      if (kind === 0 || kind === 2) document.getElementById('clock')!.textContent = `12:00:${String(step).padStart(2, '0')}`;
      else if (kind === 1) {
        // A removed paragraph comes back, sometimes with typos, sometimes split over two nodes.
        let text = removed[Math.floor(rand() * removed.length)];
        if (rand() < 0.5) text = text.replace(/e/, 'ee').replace(/a(?=[^a]*$)/, '');
        const p = document.createElement('p');
        const cut = Math.floor(rand() * text.length);
        p.append(text.slice(0, cut), document.createElement('b'), text.slice(cut));
        (p.lastChild as Text).data = text.slice(cut);
        at.after(p);
        arrivals++;
      } else at.firstChild!.textContent += ` ${prose(step, 5)}`;
      const next = patchTextIndex(index, take());
      expect(next).not.toBeNull();
      // None (null): the text read again was the same (a tick that wrote the time already shown).
      const changes = next!.changed;
      expect(changes).not.toBeUndefined();
      for (const x of descriptors) {
        if (found.has(x)) continue; // placed: no longer among the unfound
        const may = changes?.mayPlace(x) ?? false;
        if (anchor(next!, x).status === 'anchored') {
          expect(may, `${x.text} placed at step ${step} (${kind})`).toBe(true);
          found.add(x);
        }
        if (kind === 0 && may) ticksRetried++;
      }
      next!.changed = null;
      index = next!;
    }
    expect(arrivals).toBe(10);
    // Some were placed along the way (the test is not vacuous), and no tick made any be retried.
    expect(found.size).toBeGreaterThan(3);
    expect(ticksRetried).toBe(0);
  });

  test('an index built anew knows no changes (undefined: retry everything); a patch of it stays unknown', () => {
    setPage(paragraphs(5, 1));
    const index = new TextIndex(document);
    expect(index.changed).toBeUndefined();
    const take = watch();
    document.getElementById('p1')!.textContent = 'new text';
    expect(patchTextIndex(index, take())!.changed).toBeUndefined();
  });
});

describe('attribute changes that show or hide text', () => {
  test('a hidden section shown (the hidden attribute removed): its text is indexed, and a highlight in it retried', () => {
    setPage(`<p>${prose(1, 40)}</p><section id="s" hidden><p>${QUOTE} after the storm.</p></section><p>${prose(2, 40)}</p>`);
    const index = new TextIndex(document);
    index.changed = null;
    expect(index.text).not.toContain(QUOTE);
    const take = watch();
    document.getElementById('s')!.hidden = false;
    const patched = patchTextIndex(index, take())!;
    expect(patched.text).toBe(new TextIndex(document).text);
    expect(patched.text).toContain(QUOTE);
    expect(patched.changed!.mayPlace(d)).toBe(true);
    // And hidden again: gone from the index.
    document.getElementById('s')!.hidden = true;
    const again = patchTextIndex(patched, take())!;
    expect(again.text).toBe(new TextIndex(document).text);
    expect(again.text).not.toContain(QUOTE);
  });

  test('a tab panel shown by a class change (display:none from a style sheet): its text is indexed', () => {
    setPage(
      `<style>.panel{display:none}.panel.active{display:block}</style><p>${prose(1, 40)}</p>` +
        `<div class="panel active" id="t1"><p>${prose(3, 20)}</p></div><div class="panel" id="t2"><p>${QUOTE} after the storm.</p></div>`,
    );
    const index = new TextIndex(document);
    index.changed = null;
    expect(index.text).not.toContain(QUOTE);
    const take = watch();
    document.getElementById('t1')!.classList.remove('active');
    document.getElementById('t2')!.classList.add('active');
    const patched = patchTextIndex(index, take())!;
    expect(patched.text).toBe(new TextIndex(document).text);
    expect(patched.text).toContain(QUOTE);
    expect(patched.changed!.mayPlace(d)).toBe(true);
  });

  test('a class toggled without showing anything keeps the index as it is (its word index too)', () => {
    setPage(`<p id="a">${prose(1, 40)}</p><p>${prose(2, 40)}</p>`);
    const index = new TextIndex(document);
    const take = watch();
    document.getElementById('a')!.className = 'scrolled';
    document.body.className = 'is-idle';
    document.getElementById('a')!.setAttribute('data-x', '1');
    // The body's own class: the whole page could change, so it is built again (sliced) rather than walked here.
    expect(patchTextIndex(index, take())).toBeNull();
    document.getElementById('a')!.className = '';
    expect(patchTextIndex(index, take())).toBe(index);
  });
});

describe('PageIndex.mayPlace (what the highlighter asks before re-anchoring its unfound highlights)', () => {
  test('everything after a build; then only highlights a change came near; nothing once taken', () => {
    const paragraphs = Array.from({ length: 400 }, (_, i) => `<p>${prose(i, 30)}.</p>`).join('');
    setPage(`<div id="clock">12:00:00</div>${paragraphs}`);
    providePart('index-patch', (index, records) => patchTextIndex(index, records));
    const take = watch();
    const pageIndex = new PageIndex(() => document.body, () => pageIndex.invalidate(take()));
    pageIndex.now();
    expect(pageIndex.mayPlace()(d)).toBe(true); // built anew: unknown
    expect(pageIndex.mayPlace()(d)).toBe(false); // taken, nothing since
    document.getElementById('clock')!.textContent = '12:00:01';
    pageIndex.invalidate(take());
    expect(pageIndex.mayPlace()(d)).toBe(false);
    document.querySelector('p')!.append(` ${QUOTE}`);
    pageIndex.invalidate(take());
    expect(pageIndex.mayPlace()(d)).toBe(true);
    expect(pageIndex.mayPlace()(d)).toBe(false);
  });
});
