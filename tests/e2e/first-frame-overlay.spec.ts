// A new highlight's first frame in real Chromium (lib/painting/first-frame-overlay.ts and
// lib/highlighter/paint-new.ts): drawn on a canvas over the view, over the highlighted text only, then
// painted by the Highlight API painter a frame later with the canvas rubbed out in the same task; a
// scroll rubs it out at once; not drawn when the canvas was not sized for the view.
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { bundleForPage } from './helpers/page-bundle.js';
import { FixturePages, decodePng, shareOf } from './fixtures/anchoring/harness.js';

let fixtures: FixturePages;
let script: string;

test.beforeAll(async () => {
  fixtures = await FixturePages.start();
  script = await bundleForPage({
    source: `
      import { FirstFrameOverlay } from './lib/painting/first-frame-overlay.ts';
      import { paintNew } from './lib/highlighter/paint-new.ts';
      import { PageUi } from './lib/highlighter/ui/page-ui.ts';
      window.overlayTest = { FirstFrameOverlay, paintNew, PageUi };`,
    resolveDir: fileURLToPath(new URL('../..', import.meta.url)),
  });
});

test.afterAll(() => fixtures?.close());

type Overlay = import('../../lib/painting/first-frame-overlay.js').FirstFrameOverlay;
type OverlayWindow = Window & {
  overlayTest: {
    FirstFrameOverlay: typeof import('../../lib/painting/first-frame-overlay.js').FirstFrameOverlay;
    paintNew: typeof import('../../lib/highlighter/paint-new.js').paintNew;
    PageUi: typeof import('../../lib/highlighter/ui/page-ui.js').PageUi;
  };
  overlay: Overlay;
  /** The range of `text` in element #`within`. */
  quote(text: string, within: string): Range;
  /** Alpha of the overlay's canvas under viewport point (x, y): 0 where nothing is drawn. */
  alphaAt(x: number, y: number): number;
  nextFrame(): Promise<void>;
};

/** The painting fixture with the overlay in a highlighter-like shadow root. */
async function open(page: Page): Promise<void> {
  await fixtures.open(page, 'painting.html');
  await page.addScriptTag({ content: script });
  await page.evaluate(() => {
    const w = window as unknown as OverlayWindow;
    const ui = new w.overlayTest.PageUi(() => {});
    ui.attach();
    w.overlay = new w.overlayTest.FirstFrameOverlay(ui.root);
    w.quote = (text, within) => {
      const el = document.getElementById(within)!;
      const index = new window.tidemarkTest.TextIndex(el);
      const at = index.text.indexOf(text);
      if (at < 0) throw new Error(`fixture has no "${text}" in #${within}`);
      return index.rangeFor(at, at + text.length);
    };
    w.alphaAt = (x, y) => {
      const c = w.overlay.canvas;
      const box = c.getBoundingClientRect();
      if (c.width === 0) return 0;
      const px = Math.floor(((x - box.left) * c.width) / box.width);
      const py = Math.floor(((y - box.top) * c.height) / box.height);
      return c.getContext('2d')!.getImageData(px, py, 1, 1).data[3];
    };
    w.nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  });
}

const isYellowBackground = ([r, g, b]: [number, number, number]) => r > 235 && g > 205 && g < 250 && b > 90 && b < 190;

test('the overlay draws the text of a range over two lines and a link, nothing beside it; a scroll rubs it out; it does not draw before it is sized for the view', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await open(page);
  // Not sized yet: nothing drawn, the caller paints the usual way.
  expect(await page.evaluate(() => (window as unknown as OverlayWindow).overlay.show((window as unknown as OverlayWindow).quote('Read the tide tables', 'p3'), 'yellow'))).toBe(false);

  await page.evaluate(() => (window as unknown as OverlayWindow).overlay.prepare());
  const probe = await page.evaluate(() => {
    const w = window as unknown as OverlayWindow;
    // From the middle of one line to the middle of the next, through the link.
    const range = w.quote('Read the tide tables for this week before you sail. The ferry captain mapped the slipway on Sunday', 'p3');
    const drawn = w.overlay.show(range, 'yellow');
    const lines = [...range.getClientRects()].filter((r) => r.height > 0 && r.width > 4);
    const first = lines[0];
    const last = lines[lines.length - 1];
    const p = document.getElementById('p3')!.getBoundingClientRect();
    const at = (x: number, y: number) => w.alphaAt(x, y);
    const middle = (r: DOMRect) => [r.left + r.width / 2, r.top + r.height / 2] as const;
    return {
      drawn,
      lines: lines.length > 1,
      inFirst: at(...middle(first)),
      inLast: at(...middle(last)),
      // Left of where it starts on its first line; right of where it ends on its last (inside the paragraph's box).
      beforeStart: at(p.left + 3, first.top + first.height / 2),
      afterEnd: at(last.right + 20, last.top + last.height / 2),
      outside: at(p.left + 3, p.bottom + 20),
      box: { x: first.left, y: first.top, width: first.width, height: first.height },
      canvas: { w: w.overlay.canvas.width, h: w.overlay.canvas.height, pointer: getComputedStyle(w.overlay.canvas).pointerEvents, hidden: w.overlay.canvas.getAttribute('aria-hidden') },
      elementAt: document.elementFromPoint(...middle(first))?.tagName,
    };
  });
  expect(probe).toMatchObject({ drawn: true, lines: true, beforeStart: 0, afterEnd: 0, outside: 0, canvas: { w: 500, h: 350, pointer: 'none', hidden: 'true' } });
  // The pointer goes through it to the page's text.
  expect(['P', 'A']).toContain(probe.elementAt);
  expect(probe.inFirst).toBeGreaterThan(80);
  expect(probe.inLast).toBeGreaterThan(80);
  // On screen: the highlight's colour behind the words of the first line (no Highlight painted at all).
  expect(await page.evaluate(() => CSS.highlights.size)).toBe(0);
  const shot = decodePng(await page.screenshot({ clip: probe.box }));
  expect(shareOf(shot, isYellowBackground)).toBeGreaterThan(0.4);

  // A scroll (here of the page) rubs it out at once: fixed to the view, it would no longer be over the text.
  const afterScroll = await page.evaluate(async () => {
    const w = window as unknown as OverlayWindow;
    scrollBy(0, 40);
    await w.nextFrame();
    const c = w.overlay.canvas;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    return data.some((v, i) => i % 4 === 3 && v > 0);
  });
  expect(afterScroll).toBe(false);

  // The window resized: not drawn until sized again (as the toolbar's frame does).
  await page.setViewportSize({ width: 900, height: 700 });
  const resized = await page.evaluate(() => {
    const w = window as unknown as OverlayWindow;
    const range = w.quote('Read the tide tables', 'p3');
    const before = w.overlay.show(range, 'yellow');
    w.overlay.prepare();
    return { before, after: w.overlay.show(range, 'yellow'), width: w.overlay.canvas.width };
  });
  expect(resized).toEqual({ before: false, after: true, width: 450 });
});

test('a selection over more than 200 text nodes, or over text with no box, is not drawn on the overlay (painted the usual way)', async ({ page }) => {
  await open(page);
  const drawn = await page.evaluate(() => {
    const w = window as unknown as OverlayWindow;
    const host = document.createElement('div');
    for (let i = 0; i < 210; i++) host.append(Object.assign(document.createElement('span'), { textContent: `word${i} ` }));
    document.body.prepend(host);
    const hidden = Object.assign(document.createElement('p'), { textContent: 'text that is not shown', hidden: true });
    document.body.append(hidden);
    w.overlay.prepare();
    const many = document.createRange();
    many.selectNodeContents(host);
    const none = document.createRange();
    none.selectNodeContents(hidden);
    return { many: w.overlay.show(many, 'yellow'), hidden: w.overlay.show(none, 'yellow') };
  });
  expect(drawn).toEqual({ many: false, hidden: false });
});

test('paintNew: the first frame shows the overlay and no new Highlight range; after it the painter has painted it and the overlay is rubbed out; unprepared, the painter paints at once', async ({ page }) => {
  await open(page);
  const result = await page.evaluate(async () => {
    const w = window as unknown as OverlayWindow;
    const painter = await window.tidemarkTest.createPainter(document);
    w.overlay.prepare();
    await w.nextFrame();
    const range = w.quote('tide tables for this week', 'p3');
    const r = range.getClientRects()[0];
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const ranges = () => [...CSS.highlights.values()].reduce((n, h) => n + h.size, 0);
    const drawn = w.overlayTest.paintNew(painter, w.overlay, 'k1', range, 'green', () => document.body.setAttribute('data-before-paint', String(ranges())));
    // What the first frame renders (requestAnimationFrame runs at its start).
    const firstFrame = await new Promise<{ alpha: number; ranges: number }>((resolve) => requestAnimationFrame(() => resolve({ alpha: w.alphaAt(x, y), ranges: ranges() })));
    await drawn.painted;
    const after = { alpha: w.alphaAt(x, y), ranges: ranges(), green: CSS.highlights.get('tidemark-green')?.size ?? 0, beforePaint: document.body.getAttribute('data-before-paint') };
    // Not prepared for this view (its size changed): painted at once, nothing drawn.
    w.overlay.canvas.width = 7;
    const plain = w.overlayTest.paintNew(painter, w.overlay, 'k2', w.quote('before you sail', 'p3'), 'blue');
    const blueAtOnce = CSS.highlights.get('tidemark-blue')?.size ?? 0;
    await plain.painted;
    return { early: drawn.early, firstFrame, after, plainEarly: plain.early, blueAtOnce };
  });
  expect(result.early).toBe(true);
  expect(result.firstFrame.ranges).toBe(0);
  expect(result.firstFrame.alpha).toBeGreaterThan(60);
  expect(result.after).toEqual({ alpha: 0, ranges: 1, green: 1, beforePaint: '0' });
  expect(result.plainEarly).toBe(false);
  expect(result.blueAtOnce).toBe(1);
});
