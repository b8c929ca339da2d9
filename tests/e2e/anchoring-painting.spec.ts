// Highlight painting in real Chromium: the CSS Custom Highlight API painter (pixels on screen, no DOM
// changes, hit testing, clickable links, flash/scroll/restyle/remove) and the rangy class-applier
// fallback used when CSS.highlights is missing.
import { expect, test, type Page } from '@playwright/test';
import type { DisposablePainter as Painter } from '../../lib/painting/index.js';
import { FixturePages, decodePng, shareOf } from './fixtures/anchoring/harness.js';

let fixtures: FixturePages;

test.beforeAll(async () => {
  fixtures = await FixturePages.start();
});

test.afterAll(() => fixtures?.close());

/** The page's window with what open() adds to it. */
type PaintingWindow = Window & {
  /** The range of `text`, found in element #`within`. */
  anchorQuote(text: string, within: string): Range;
  /** Creates a painter for the document and keeps it as `painter`. */
  startPainter(): Promise<Painter>;
  painter: Painter;
};

async function open(page: Page, options: { withoutHighlightApi?: boolean } = {}): Promise<void> {
  if (options.withoutHighlightApi) {
    // A browser without the CSS Custom Highlight API.
    await page.addInitScript(() => {
      delete (CSS as unknown as { highlights?: unknown }).highlights;
    });
  }
  await fixtures.open(page, 'painting.html');
  // Helpers in the page (see PaintingWindow): anchor a quote by its element, start and keep a painter.
  await page.evaluate(() => {
    const w = window as unknown as PaintingWindow;
    w.startPainter = async () => (w.painter = await w.tidemarkTest.createPainter(document));
    w.anchorQuote = (text: string, within: string) => {
      const el = document.getElementById(within)!;
      const index = new window.tidemarkTest.TextIndex(el);
      const at = index.text.indexOf(text);
      if (at < 0) throw new Error(`fixture has no "${text}" in #${within}`);
      return index.rangeFor(at, at + text.length);
    };
  });
}

type Box = { x: number; y: number; width: number; height: number };

/** Viewport box of the first line of a painted highlight. */
async function firstLineBox(page: Page, key: string): Promise<Box> {
  return page.evaluate((k) => {
    const painter = (window as unknown as PaintingWindow).painter;
    const r = painter.rangesOf(k)[0] as Range;
    const rect = [...r.getClientRects()].find((x) => x.width > 1) ?? r.getBoundingClientRect();
    return { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
  }, key);
}

const isYellowBackground = ([r, g, b]: [number, number, number]) => r > 235 && g > 205 && g < 250 && b > 90 && b < 190;
/** The blue highlight (rgba(66,133,244,.32)) over a white page. */
const isBlueBackground = ([r, g, b]: [number, number, number]) => r > 175 && r < 215 && g > 195 && g < 230 && b > 240;

test('Highlight API painter: colours show on screen, the text and elements are untouched (only its scope mark, naming the colours, on the highlighted text\'s parents), notes get an underline', async ({ page }) => {
  await open(page);
  const before = await page.evaluate(() => document.body.innerHTML);
  const setup = await page.evaluate(async () => {
    const { HIGHLIGHT_COLORS } = window.tidemarkTest;
    // Where the painter adds its own style sheet (no sheet registered for the site) it marks the parents
    // of highlighted text with an empty attribute its rules are scoped to; nothing else may change.
    const mutations: string[] = [];
    new MutationObserver((records) => records.forEach((r) => mutations.push(r.type === 'attributes' ? `attribute ${r.attributeName}` : r.type))).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    const { startPainter, anchorQuote } = window as unknown as PaintingWindow;
    const painter = await startPainter();
    painter.paint('k-yellow', anchorQuote('tide tables for this week', 'p3'), { color: 'yellow' });
    painter.paint('k-note', anchorQuote('before you sail', 'p3'), { color: 'blue', hasNote: true });
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const names = HIGHLIGHT_COLORS.map((c) => `tidemark-${c}`);
    return {
      kind: painter.kind,
      registered: names.every((n) => CSS.highlights.has(n)) && CSS.highlights.has('tidemark-note'),
      yellowSize: CSS.highlights.get('tidemark-yellow')!.size,
      noteSize: CSS.highlights.get('tidemark-note')!.size,
      adopted: document.adoptedStyleSheets.length,
      styleElements: document.querySelectorAll('style').length,
      mutations: [...new Set(mutations)],
      marked: [...document.querySelectorAll('[data-tidemark-hl]')].map((e) => e.id),
    };
  });
  expect(setup).toEqual({
    kind: 'highlight-api',
    registered: true,
    yellowSize: 1,
    noteSize: 1,
    adopted: 1,
    styleElements: 1,
    mutations: ['attribute data-tidemark-hl'],
    marked: ['p3', 'tide-link'],
  });
  // The marks name the colours of the highlights in their element's text (and `note`), nothing else.
  expect(await page.evaluate(() => [...document.querySelectorAll('[data-tidemark-hl]')].map((e) => `${e.id}: ${e.getAttribute('data-tidemark-hl')}`))).toEqual(['p3: blue note', 'tide-link: yellow']);
  expect(await page.evaluate(() => document.body.innerHTML.replace(/ data-tidemark-hl="[^"]*"/g, ''))).toBe(before);

  // What a reader sees: a yellow background behind the highlighted words, none behind the others.
  const box = await firstLineBox(page, 'k-yellow');
  const shot = decodePng(await page.screenshot({ clip: box }));
  expect(shareOf(shot, isYellowBackground)).toBeGreaterThan(0.4);
  const plain = await page.evaluate(() => {
    const r = (window as unknown as PaintingWindow).anchorQuote('Read the', 'p3');
    const rect = r.getClientRects()[0];
    return { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
  });
  expect(shareOf(decodePng(await page.screenshot({ clip: plain })), isYellowBackground)).toBe(0);
  // The note highlight draws an underline: dark pixels in the band just below the text baseline.
  const note = await firstLineBox(page, 'k-note');
  const band = decodePng(await page.screenshot({ clip: { x: note.x, y: note.y + note.height - 6, width: note.width, height: 6 } }));
  expect(shareOf(band, ([r, g, b]) => r < 110 && g < 110 && b < 110)).toBeGreaterThan(0.05);
});

test('scope marks: every parent of highlighted text and nothing else (not the container of the white space between paragraphs); cleared highlights lose them, repainted ones keep them untouched; the painted highlights stay clickable', async ({ page }) => {
  await open(page);
  const marks = await page.evaluate(async () => {
    const { startPainter, anchorQuote } = window as unknown as PaintingWindow;
    const marked = () => [...document.querySelectorAll('[data-tidemark-hl]')].map((e) => e.id || e.localName);
    const changes: string[] = [];
    new MutationObserver((records) => records.forEach((r) => changes.push(`${(r.target as Element).id}:${r.oldValue === null ? 'set' : 'removed'}`))).observe(document.body, {
      subtree: true,
      attributeFilter: ['data-tidemark-hl'],
      attributeOldValue: true,
    });
    const flush = () => new Promise((r) => setTimeout(r, 0));
    const painter = await startPainter();
    // Across two paragraphs (the white space between them is the article's text node).
    const across = document.createRange();
    const p1 = anchorQuote('in the last week of March (note 1.4).', 'p1');
    const p2 = anchorQuote('The lock keeper', 'p2');
    across.setStart(p1.startContainer, p1.startOffset);
    across.setEnd(p2.endContainer, p2.endOffset);
    // A range given by element boundaries: the link element and nothing else of its paragraph.
    const link = document.createRange();
    const a = document.getElementById('tide-link')!;
    link.setStartBefore(a);
    link.setEndAfter(a);
    painter.paintMany([
      { key: 'across', ranges: across, color: 'yellow' },
      { key: 'link', ranges: link, color: 'green' },
    ]);
    const painted = marked();
    await flush();
    changes.length = 0;
    // Re-anchoring clears and paints again in one task: the marks that stay are not touched.
    painter.clear();
    painter.paint('link', link, { color: 'green' });
    await flush();
    const afterRepaint = { marked: marked(), changes: [...changes] };
    changes.length = 0;
    painter.clear();
    const inTask = marked();
    await flush();
    const afterClear = { inTask, marked: marked(), changes: [...changes] };
    painter.paint('link', link, { color: 'green' });
    painter.destroy();
    return { painted, afterRepaint, afterClear, afterDestroy: marked() };
  });
  expect(marks).toEqual({
    painted: ['p1', 'p2', 'tide-link'],
    afterRepaint: { marked: ['tide-link'], changes: ['p1:removed', 'p2:removed'] },
    afterClear: { inTask: ['tide-link'], marked: [], changes: ['tide-link:removed'] },
    afterDestroy: [],
  });

  // A painted highlight over a link: the link still follows when clicked, and hit testing finds it.
  await page.evaluate(async () => {
    const { startPainter, anchorQuote } = window as unknown as PaintingWindow;
    (await startPainter()).paint('over-link', anchorQuote('Read the tide tables for this week before', 'p3'), { color: 'yellow' });
  });
  const box = await firstLineBox(page, 'over-link');
  expect(await page.evaluate(([x, y]) => (window as unknown as PaintingWindow).painter.highlightsAt(x, y), [box.x + 3, box.y + box.height / 2] as const)).toEqual(['over-link']);
  expect(await page.evaluate(() => [...document.querySelectorAll('[data-tidemark-hl]')].map((e) => e.id))).toEqual(['p3', 'tide-link']);
  await page.click('#tide-link');
  await expect(page).toHaveURL(/#tide-tables$/);
});

test('many highlights at once: the text in view is marked in the task (with the words of all of them), the ranges in idle slices after it (each element left with its own words, all coloured once scrolled to); clear() drops what waits', async ({ page }) => {
  await open(page);
  const state = await page.evaluate(async () => {
    // 400 short paragraphs before the fixture's text, one highlight each, yellow and blue in turn, under
    // a heading with none: only the first few are in view.
    const box = document.createElement('section');
    box.append(Object.assign(document.createElement('h2'), { id: 'many-head', textContent: 'Appendix' }));
    for (let i = 0; i < 400; i++) box.append(Object.assign(document.createElement('p'), { id: `many-${i}`, textContent: `Appendix ${i}: the tide tables.` }));
    document.body.prepend(box);
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    await frame();
    const paragraphs = [...box.querySelectorAll('p')];
    const inView = paragraphs.filter((p) => p.getBoundingClientRect().top < innerHeight).length;
    const painter = await (window as unknown as PaintingWindow).startPainter();
    const items = paragraphs.map((p, i) => {
      const r = document.createRange();
      r.setStart(p.firstChild!, 0);
      r.setEnd(p.firstChild!, 8);
      return { key: `m${i}`, ranges: r, color: i % 2 ? ('blue' as const) : ('yellow' as const) };
    });
    const mark = (id: string) => document.getElementById(id)!.getAttribute('data-tidemark-hl');
    const marked = () => box.querySelectorAll('p[data-tidemark-hl]').length;
    painter.paintMany(items);
    const inTask = marked();
    const lastMarkedInTask = document.getElementById('many-399')!.hasAttribute('data-tidemark-hl');
    // What the frame that shows the highlights styles (the idle slices come after it).
    const inFirstFrame = await new Promise<string[]>((resolve) => requestAnimationFrame(() => resolve(['many-head', 'many-0', 'many-1'].map((id) => `${id}: ${mark(id)}`))));
    const t0 = performance.now();
    while (marked() < 400 && performance.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
    await frame();
    const later = marked();
    const settled = ['many-head', 'many-0', 'many-1', 'many-398', 'many-399'].map((id) => `${id}: ${mark(id)}`);
    // A repaint whose out-of-view marks are still waiting, then cleared: nothing is left marked.
    painter.clear();
    await frame();
    painter.paintMany(items);
    painter.clear();
    await new Promise((r) => setTimeout(r, 300));
    const afterClear = box.querySelectorAll('[data-tidemark-hl]').length;
    painter.paintMany(items);
    while (marked() < 400 && performance.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 10));
    document.getElementById('many-398')!.scrollIntoView({ block: 'center' });
    return { inView, inTask, lastMarkedInTask, inFirstFrame, later, settled, afterClear };
  });
  expect(state.inView).toBeGreaterThan(3);
  expect(state.inView).toBeLessThan(100);
  // The paragraphs in view (the last one may be cut by the bottom edge), not the others.
  expect(state.inTask).toBeGreaterThanOrEqual(state.inView);
  expect(state.inTask).toBeLessThanOrEqual(state.inView + 1);
  expect(state.lastMarkedInTask).toBe(false);
  // In view, every parent of text has both colours' words in the first frame (the heading too, for that frame).
  expect(state.inFirstFrame).toEqual(['many-head: blue yellow', 'many-0: blue yellow', 'many-1: blue yellow']);
  expect(state.later).toBe(400);
  // Once the ranges are marked, each element has the words of its own highlights, the heading none.
  expect(state.settled).toEqual(['many-head: null', 'many-0: yellow', 'many-1: blue', 'many-398: yellow', 'many-399: blue']);
  expect(state.afterClear).toBe(0);
  // The last ones, marked in a slice, show their colours once scrolled to.
  const boxOf = (id: string) =>
    page.evaluate((id) => {
      const p = document.getElementById(id)!.firstChild!;
      const r = document.createRange();
      r.setStart(p, 0);
      r.setEnd(p, 8);
      const rect = r.getClientRects()[0];
      return { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
    }, id);
  const shot = async (id: string) => decodePng(await page.screenshot({ clip: await boxOf(id) }));
  expect(shareOf(await shot('many-398'), isYellowBackground)).toBeGreaterThan(0.4);
  expect(shareOf(await shot('many-399'), isBlueBackground)).toBeGreaterThan(0.4);
  expect(shareOf(await shot('many-399'), isYellowBackground)).toBe(0);
});

// The highlighter's scope marks are a script of their own; where it could not be loaded, the painter
// is made without them and must still colour the highlights (its sheet then unscoped), marking nothing.
test('without scope marks (their script failed to load) the Highlight API painter still colours the highlights, with an unscoped sheet, and marks no element', async ({ page }) => {
  await open(page);
  const state = await page.evaluate(async () => {
    const w = window as unknown as PaintingWindow;
    w.painter = new w.tidemarkTest.HighlightApiPainter(document, { documentStyled: false });
    w.painter.paint('k', w.anchorQuote('tide tables for this week', 'p3'), { color: 'yellow' });
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const rules = document.adoptedStyleSheets.flatMap((s) => [...s.cssRules].map((r) => r.cssText));
    return { marked: document.querySelectorAll('[data-tidemark-hl]').length, scoped: rules.some((r) => r.includes('data-tidemark-hl')), rules: rules.length };
  });
  expect(state).toEqual({ marked: 0, scoped: false, rules: 14 });
  const shot = decodePng(await page.screenshot({ clip: await firstLineBox(page, 'k') }));
  expect(shareOf(shot, isYellowBackground)).toBeGreaterThan(0.4);
});

test('hit testing returns the highlights under the pointer, most specific first, and nothing elsewhere', async ({ page }) => {
  await open(page);
  await page.evaluate(async () => {
    const { startPainter, anchorQuote } = window as unknown as PaintingWindow;
    const painter = await startPainter();
    painter.paint('outer', anchorQuote('Read the tide tables for this week before you sail.', 'p3'), { color: 'green' });
    painter.paint('inner', anchorQuote('tide tables', 'p3'), { color: 'pink' });
  });
  const inner = await firstLineBox(page, 'inner');
  const outer = await firstLineBox(page, 'outer');
  const at = (x: number, y: number) =>
    page.evaluate(([px, py]) => (window as unknown as PaintingWindow).painter.highlightsAt(px, py), [x, y] as const);
  const probe = async () => {
    expect(await at(inner.x + inner.width / 2, inner.y + inner.height / 2)).toEqual(['inner', 'outer']);
    expect(await at(outer.x + 3, outer.y + outer.height / 2)).toEqual(['outer']);
    expect(await at(outer.x - 30, outer.y + outer.height / 2)).toEqual([]);
    expect(await at(5, 5)).toEqual([]);
  };
  await probe();
  // Browsers with the Highlight API but without highlightsFromPoint: caret position + range checks.
  await page.evaluate(() => {
    Object.defineProperty(CSS.highlights, 'highlightsFromPoint', { value: undefined, configurable: true });
  });
  await probe();
});

test('a link inside a highlight still follows when clicked', async ({ page }) => {
  await open(page);
  await page.evaluate(async () => {
    const { startPainter, anchorQuote } = window as unknown as PaintingWindow;
    const painter = await startPainter();
    painter.paint('with-link', anchorQuote('Read the tide tables for this week before', 'p3'), { color: 'yellow', hasNote: true });
  });
  await page.click('#tide-link');
  await expect(page).toHaveURL(/#tide-tables$/);
});

test('flash pulses the highlight, scrollTo brings it into view, restyle and remove take effect', async ({ page }) => {
  await open(page);
  await page.evaluate(async () => {
    const { startPainter, anchorQuote } = window as unknown as PaintingWindow;
    const painter = await startPainter();
    painter.paint('far', anchorQuote('(note 38.2)', 'p38'), { color: 'orange' });
  });
  const flash = await page.evaluate(async () => {
    const painter = (window as unknown as PaintingWindow).painter;
    const flashing = CSS.highlights.get('tidemark-flash')!;
    const done = painter.flash('far', { durationMs: 300 });
    const during = flashing.size;
    const result = await done;
    return { during, after: flashing.size, result, unknown: await painter.flash('nope') };
  });
  expect(flash).toEqual({ during: 1, after: 0, result: true, unknown: false });

  const view = await page.evaluate(() => {
    const painter = (window as unknown as PaintingWindow).painter;
    const before = (painter.rangesOf('far')[0] as Range).getBoundingClientRect().top;
    const ok = painter.scrollTo('far');
    const rect = (painter.rangesOf('far')[0] as Range).getBoundingClientRect();
    return { before, ok, top: rect.top, bottom: rect.bottom, height: window.innerHeight, missing: painter.scrollTo('nope') };
  });
  expect(view.before).toBeGreaterThan(view.height);
  expect(view.ok).toBe(true);
  expect(view.top).toBeGreaterThan(0);
  expect(view.bottom).toBeLessThan(view.height);
  expect(Math.abs((view.top + view.bottom) / 2 - view.height / 2)).toBeLessThan(view.height / 4);
  expect(view.missing).toBe(false);

  const changes = await page.evaluate(() => {
    const painter = (window as unknown as PaintingWindow).painter;
    painter.restyle('far', { color: 'purple', hasNote: true });
    const moved = [CSS.highlights.get('tidemark-orange')!.size, CSS.highlights.get('tidemark-purple')!.size, CSS.highlights.get('tidemark-note')!.size];
    const removed = painter.remove('far');
    const gone = [CSS.highlights.get('tidemark-purple')!.size, CSS.highlights.get('tidemark-note')!.size, painter.keys().length];
    painter.destroy();
    return { moved, removed, gone, registryAfterDestroy: CSS.highlights.has('tidemark-yellow'), sheets: document.adoptedStyleSheets.length };
  });
  expect(changes).toEqual({ moved: [0, 1, 1], removed: true, gone: [0, 0, 0], registryAfterDestroy: false, sheets: 0 });
});

test('without the Highlight API the class-applier fallback paints, hit-tests, keeps links working and cleans up', async ({ page }) => {
  await open(page, { withoutHighlightApi: true });
  const textBefore = await page.evaluate(() => new window.tidemarkTest.TextIndex(document).text);
  const painted = await page.evaluate(async () => {
    const { startPainter, anchorQuote } = window as unknown as PaintingWindow;
    const painter = await startPainter();
    painter.paint('k1', anchorQuote('Read the tide tables for this week before', 'p3'), { color: 'yellow', hasNote: true });
    painter.paint('k2', anchorQuote('tide tables', 'p3'), { color: 'blue' });
    const spans = [...document.querySelectorAll('span.tidemark-hl-yellow, span.tidemark-hl-blue')];
    return {
      kind: painter.kind,
      spans: spans.length,
      // Only the colour class goes into the page: no ids, no data attributes, nothing about notes.
      attributes: [...new Set(spans.flatMap((s) => [...s.attributes].map((a) => `${a.name}=${a.value}`)))].sort(),
      yellowText: spans.filter((s) => s.classList.contains('tidemark-hl-yellow')).map((s) => s.textContent).join(''),
      linkIntact: document.getElementById('tide-link')!.getAttribute('href'),
    };
  });
  expect(painted.kind).toBe('class-applier');
  expect(painted.spans).toBeGreaterThan(1);
  expect(painted.attributes).toEqual(['class=tidemark-hl-blue', 'class=tidemark-hl-yellow']);
  expect(painted.yellowText.replace(/\s+/g, ' ')).toContain('Read the');
  expect(painted.linkIntact).toBe('#tide-tables');
  expect(await page.evaluate(() => new window.tidemarkTest.TextIndex(document).text)).toBe(textBefore);

  const box = await firstLineBox(page, 'k1');
  const shot = decodePng(await page.screenshot({ clip: { ...box, width: Math.min(box.width, 60) } }));
  expect(shareOf(shot, isYellowBackground)).toBeGreaterThan(0.4);
  const inner = await firstLineBox(page, 'k2');
  const keys = await page.evaluate(
    ([x, y]) => (window as unknown as PaintingWindow).painter.highlightsAt(x, y),
    [inner.x + inner.width / 2, inner.y + inner.height / 2] as const,
  );
  expect(keys).toEqual(['k2', 'k1']);

  await page.click('#tide-link');
  await expect(page).toHaveURL(/#tide-tables$/);

  const cleaned = await page.evaluate(() => {
    const painter = (window as unknown as PaintingWindow).painter;
    painter.remove('k2');
    const afterOne = document.querySelectorAll('span.tidemark-hl-blue').length;
    const yellowStill = document.querySelectorAll('span.tidemark-hl-yellow').length > 0;
    painter.destroy();
    return { afterOne, yellowStill, left: document.querySelectorAll('[class^="tidemark-"]').length, styles: document.adoptedStyleSheets.length };
  });
  expect(cleaned).toEqual({ afterOne: 0, yellowStill: true, left: 0, styles: 0 });
  expect(await page.evaluate(() => new window.tidemarkTest.TextIndex(document).text)).toBe(textBefore);

  // The usual flow: anchor a batch against one page state, paint the batch. Wrapping text for one
  // highlight must not disturb the others, including overlapping ones.
  const batch = await page.evaluate(async () => {
    const { TextIndex, anchorAll, describeOffsets, createPainter } = window.tidemarkTest;
    const index = new TextIndex(document);
    const quotes = ['(note 1.2)', 'Mrs Carne', 'tide tables for this week', 'for this week before you sail', '(note 40.4)'];
    const descriptors = quotes.map((q, i) => {
      let at = index.text.indexOf(q);
      if (i === 1) at = index.text.indexOf(q, at + 1);
      return describeOffsets(index, at, at + q.length)!;
    });
    const results = anchorAll(index, descriptors);
    const painter = await createPainter(document);
    painter.paintMany(
      results.map((r, i) => ({ key: `b${i}`, ranges: r.status === 'anchored' ? r.range : [], color: i % 2 ? 'green' : 'red' })),
    );
    return quotes.map((_, i) => painter.rangesOf(`b${i}`).map((r) => (r as Range).toString()).join(''));
  });
  expect(batch).toEqual(['(note 1.2)', 'Mrs Carne', 'tide tables for this week', 'for this week before you sail', '(note 40.4)']);
});
