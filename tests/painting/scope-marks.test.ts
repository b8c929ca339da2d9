// @vitest-environment jsdom
// The Highlight API painter's scope marks (where it adds its own sheet, its rules only style marked
// elements): which elements are marked, with which words, how often the page's DOM is written, and
// how clear() takes them off.
import { beforeEach, expect, test } from 'vitest';
import { ScopeMarks } from '../../lib/painting/scope-marks.js';
import type { HighlightColor } from '../../lib/painting/types.js';

const MARK = 'data-tidemark-hl';

beforeEach(() => {
  document.body.innerHTML = [
    '<article id="art">',
    '  <p id="p1">The <em id="em">harbour</em> opens at dawn.</p>',
    '  <p id="p2">Boats leave <a id="link" href="#x">on the tide</a> each morning.</p>',
    '</article>',
  ].join('\n');
});

const el = (id: string) => document.getElementById(id)!;
/** A range over `text` inside the first text node of element `id` that contains it. */
function textRange(id: string, text: string): Range {
  const walker = document.createTreeWalker(el(id), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const at = (n as Text).data.indexOf(text);
    if (at < 0) continue;
    const r = document.createRange();
    r.setStart(n, at);
    r.setEnd(n, at + text.length);
    return r;
  }
  throw new Error(`no "${text}" in #${id}`);
}
const marks = () => [...document.querySelectorAll(`[${MARK}]`)].map((e) => `${e.id}: ${e.getAttribute(MARK)}`);
/** Every write of the mark attribute from now on (id: the value it replaced). */
function watchWrites(): { writes: string[]; take(): string[] } {
  const writes: string[] = [];
  const record = (records: MutationRecord[]) => {
    for (const r of records) writes.push(`${(r.target as Element).id}: ${r.oldValue}`);
  };
  const observer = new MutationObserver(record);
  observer.observe(document.body, { subtree: true, attributeFilter: [MARK], attributeOldValue: true });
  return {
    writes,
    take: () => {
      record(observer.takeRecords());
      return writes.splice(0);
    },
  };
}
const endOfTask = () => new Promise((r) => setTimeout(r, 0));
/** Marks `ranges` as one highlight of `color`, as the painter's paint() does. */
const mark = (m: ScopeMarks, ranges: AbstractRange[], color: HighlightColor, hasNote = false) => m.mark([{ key: 'k', ranges, color, hasNote }]);

test('marks the parent of every text node a highlight covers, with its colours in a fixed order and `note`, but not the container of white space between blocks', () => {
  const m = new ScopeMarks();
  mark(m, [textRange('p1', 'opens at')], 'yellow');
  // Across both paragraphs: from inside <em> to inside the link (the white space between the <p>s is the article's).
  const across = document.createRange();
  across.setStart(textRange('em', 'bour').startContainer, 4);
  across.setEnd(textRange('link', 'on the').startContainer, 2);
  mark(m, [across], 'blue', true);
  // Element boundaries: the link and nothing else of its paragraph.
  const link = document.createRange();
  link.setStartBefore(el('link'));
  link.setEndAfter(el('link'));
  mark(m, [link], 'green');
  expect(marks()).toEqual(['p1: blue yellow note', 'em: blue note', 'p2: blue note', 'link: blue green note']);
});

test('each element is written once per change of its words and not for words it already has; a StaticRange marks nothing', () => {
  const m = new ScopeMarks();
  const w = watchWrites();
  mark(m, [textRange('p1', 'The'), textRange('p1', 'opens')], 'red');
  mark(m, [textRange('p1', 'dawn')], 'red');
  mark(m, [textRange('p1', 'at')], 'red', true);
  mark(m, [new StaticRange({ startContainer: el('p2').firstChild!, startOffset: 0, endContainer: el('p2').firstChild!, endOffset: 5 })], 'teal');
  expect(w.take()).toEqual(['p1: null', 'p1: red']);
  expect(marks()).toEqual(['p1: red note']);
});

test('clear() takes the marks off at the end of the task, leaving untouched those marked again with the same words meanwhile; clear(true) at once', async () => {
  const m = new ScopeMarks();
  mark(m, [textRange('p1', 'opens')], 'yellow');
  mark(m, [textRange('em', 'harbour')], 'pink');
  mark(m, [textRange('link', 'tide')], 'blue');
  const w = watchWrites();
  // A re-anchor: clear and paint again in one task (twice here), one highlight now in another colour.
  m.clear();
  mark(m, [textRange('p1', 'opens')], 'yellow');
  m.clear();
  mark(m, [textRange('p1', 'opens')], 'yellow');
  mark(m, [textRange('em', 'harbour')], 'orange');
  expect(marks()).toEqual(['p1: yellow', 'em: orange', 'link: blue']);
  await endOfTask();
  expect(marks()).toEqual(['p1: yellow', 'em: orange']);
  expect(w.take()).toEqual(['em: pink', 'link: blue']);
  // What the page did to a mark is not trusted: a cleared mark the page removed is written again.
  m.clear();
  el('p1').removeAttribute(MARK);
  mark(m, [textRange('p1', 'opens')], 'yellow');
  await endOfTask();
  expect(marks()).toEqual(['p1: yellow']);
  m.clear(true);
  expect(marks()).toEqual([]);
});

test('many highlights at once where the view cannot be told (no caret hit testing here): all are marked at once', () => {
  const m = new ScopeMarks();
  const items = Array.from({ length: 300 }, (_, i) => ({ key: `k${i}`, ranges: textRange(i % 2 ? 'p1' : 'link', i % 2 ? 'opens' : 'tide'), color: (i % 2 ? 'yellow' : 'blue') as HighlightColor }));
  m.mark(items);
  expect(marks()).toEqual(['p1: yellow', 'link: blue']);
  expect(m.pending).toBe(0);
});
