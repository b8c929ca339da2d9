// @vitest-environment jsdom
// The Highlight API painter's scope marks (where it adds its own sheet, its rules only style marked
// elements): which elements are marked, with which words, how often the page's DOM is written, and
// how clear() takes them off.
import { afterEach, beforeEach, expect, test } from 'vitest';
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

// manyInView() below gives the document caret hit tests (jsdom has none).
afterEach(() => {
  delete (document as unknown as { caretPositionFromPoint?: unknown }).caretPositionFromPoint;
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

/**
 * A page of `n` paragraphs under a heading, one highlight on each (yellow and blue in turn), with the
 * caret hit tests answering as if the view showed the heading down to paragraph `lastInView`.
 */
function manyInView(n: number, lastInView: number) {
  document.body.innerHTML = `<h2 id="head">Tide tables</h2>${Array.from({ length: n }, (_, i) => `<p id="q${i}">Entry ${i} of the tables.</p>`).join('')}`;
  const top = el('head').firstChild!;
  const bottom = el(`q${lastInView}`).firstChild!;
  (document as unknown as { caretPositionFromPoint: (x: number, y: number) => unknown }).caretPositionFromPoint = (_x, y) => ({ offsetNode: y === 0 ? top : bottom, offset: 0 });
  return Array.from({ length: n }, (_, i) => ({ key: `k${i}`, ranges: textRange(`q${i}`, 'Entry'), color: (i % 2 ? 'blue' : 'yellow') as HighlightColor, hasNote: i === 1 }));
}
const markOf = (id: string) => el(id).getAttribute(MARK);
async function allMarked(m: ScopeMarks) {
  for (let i = 0; m.pending && i < 200; i++) await endOfTask();
  expect(m.pending).toBe(0);
}

test('many highlights at once: the parents of the text in view get the words of all of them in the task, without a test per range; each range is marked later, then those parents keep only their own words', async () => {
  const items = manyInView(300, 2);
  const m = new ScopeMarks();
  const w = watchWrites();
  m.mark(items);
  expect(['head', 'q0', 'q1', 'q2', 'q3'].map(markOf)).toEqual(['blue yellow note', 'blue yellow note', 'blue yellow note', 'blue yellow note', null]);
  expect(m.pending).toBe(300);
  await allMarked(m);
  expect(['head', 'q0', 'q1', 'q2', 'q3', 'q299'].map(markOf)).toEqual([null, 'yellow', 'blue note', 'yellow', 'blue', 'blue']);
  // Each element in view written twice (its view mark, then its own words or, for the heading, none), each other once.
  expect(w.take().length).toBe(4 + 4 + 297);
  expect(document.querySelectorAll(`[${MARK}]`).length).toBe(300);
});

test('many highlights at once with much text in view: those with an end in view are marked in the task with their own words, the others later', async () => {
  const items = manyInView(600, 450);
  const m = new ScopeMarks();
  m.mark(items);
  expect(['head', 'q0', 'q1', 'q450', 'q451'].map(markOf)).toEqual([null, 'yellow', 'blue note', 'yellow', null]);
  expect(m.pending).toBe(149);
  await allMarked(m);
  expect(document.querySelectorAll(`[${MARK}]`).length).toBe(600);
});

test('clear() while the view marks wait for their ranges: all marks come off at the end of the task; painted again meanwhile, the view marks stay untouched', async () => {
  const items = manyInView(300, 2);
  const m = new ScopeMarks();
  m.mark(items);
  const w = watchWrites();
  m.clear();
  m.mark(items);
  expect(['head', 'q0', 'q3'].map(markOf)).toEqual(['blue yellow note', 'blue yellow note', null]);
  expect(w.take()).toEqual([]);
  m.clear();
  await endOfTask();
  expect(document.querySelectorAll(`[${MARK}]`).length).toBe(0);
  expect(m.pending).toBe(0);
  // Painted again and left to settle, then cleared.
  m.mark(items);
  await allMarked(m);
  expect(['head', 'q0', 'q1'].map(markOf)).toEqual([null, 'yellow', 'blue note']);
  m.clear();
  await endOfTask();
  expect(document.querySelectorAll(`[${MARK}]`).length).toBe(0);
});
