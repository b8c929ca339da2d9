/**
 * Benchmark code that runs inside the page (bundled to an IIFE by run.ts). Exposes `window.tidemarkBench`.
 */
import * as textQuote from 'dom-anchor-text-quote';
import { TextIndex, anchorAll, anchorAllSliced, describeOffsets, type HighlightDescriptor, offsetsOf, offsetAt } from '../../lib/anchoring/index.js';
import { textSearchOf } from '../../lib/anchoring/search-text.js';
import { patchTextIndex, type PatchStats } from '../../lib/anchoring/text-index-patch.js';
import { HIGHLIGHT_COLORS, ScopeMarks, createPainter, type HighlightColor } from '../../lib/painting/index.js';
import { FirstFrameOverlay } from '../../lib/painting/first-frame-overlay.js';
import { paintNew } from '../../lib/highlighter/paint-new.js';
import type { SpanSpec } from '../../tests/anchoring/fixtures/article-model.js';
import { MEASURED_FROM, MEASURED_TO } from './trace-event.js';

type Found = { start: number; end: number } | null;

export interface Judgement {
  correct: number;
  /** Of `correct`: highlights whose text is gone and that were (rightly) not placed. */
  goneReported: number;
  wrong: number;
  /** Not placed although the text is still there. */
  orphaned: number;
  wrongDetails: string[];
  orphanDetails: string[];
}

function sentenceStarts(index: TextIndex): Map<string, number> {
  const out = new Map<string, number>();
  for (const el of document.querySelectorAll('[data-s]')) out.set(el.getAttribute('data-s')!, offsetAt(index, el, 0));
  return out;
}

function spanOffsets(starts: Map<string, number>, s: SpanSpec): { start: number; end: number } {
  const a = starts.get(s.startS);
  const b = starts.get(s.endS);
  if (a === undefined || b === undefined) throw new Error(`sentence ${s.startS}/${s.endS} missing from the page`);
  return { start: a + s.startC, end: b + s.endC };
}

const bench = {
  textLength(): number {
    return new TextIndex(document).text.length;
  },

  describe(spans: SpanSpec[]): HighlightDescriptor[] {
    const index = new TextIndex(document);
    const starts = sentenceStarts(index);
    // As the highlighter does in idle time once the page is painted (PageIndex.prepareSearchWhenIdle).
    textSearchOf(index).prepare();
    return spans.map((s) => {
      const { start, end } = spanOffsets(starts, s);
      const d = describeOffsets(index, start, end);
      if (!d) throw new Error('empty highlight in scenario');
      return d;
    });
  },

  /**
   * Ours: build the index and anchor every descriptor, `runs` times (the first run is cold). Index and
   * anchoring are separate tasks (setTimeout callbacks named tidemarkIndex / tidemarkAnchor) so that
   * run.ts can read their CPU time from a trace.
   */
  async ours(descriptors: HighlightDescriptor[], runs: number) {
    const times: number[] = [];
    const indexTimes: number[] = [];
    let results: Found[] = [];
    const methods: Record<string, number> = {};
    for (let i = 0; i < runs; i++) {
      let index: TextIndex | null = null;
      let t0 = 0;
      await new Promise<void>((resolve) =>
        setTimeout(function tidemarkIndex() {
          t0 = performance.now();
          index = new TextIndex(document);
          indexTimes.push(performance.now() - t0);
          resolve();
        }, 0),
      );
      await new Promise<void>((resolve) =>
        setTimeout(function tidemarkAnchor() {
          const t1 = performance.now();
          const res = anchorAll(index!, descriptors);
          times.push(indexTimes[i] + performance.now() - t1);
          if (i === 0) {
            results = res.map((r) => (r.status === 'anchored' ? { start: r.start, end: r.end } : null));
            for (const r of res) {
              const k = r.status === 'anchored' ? r.method : r.status;
              methods[k] = (methods[k] ?? 0) + 1;
            }
          }
          resolve();
        }, 0),
      );
    }
    return { wallMs: times, indexWallMs: indexTimes, results, methods };
  },

  /** Baseline: dom-anchor-text-quote on document.body with the same quote/prefix/suffix (task: tidemarkBaseline). */
  async baseline(descriptors: HighlightDescriptor[]) {
    let ranges: Array<Range | null> = [];
    let wallMs = 0;
    await new Promise<void>((resolve) =>
      setTimeout(function tidemarkBaseline() {
        const t0 = performance.now();
        ranges = descriptors.map((d) => {
          try {
            return textQuote.toRange(document.body, { exact: d.text, prefix: d.prefix, suffix: d.suffix });
          } catch {
            return null;
          }
        });
        wallMs = performance.now() - t0;
        resolve();
      }, 0),
    );
    // Convert to our normalised offsets for judging (not timed).
    const index = new TextIndex(document);
    const results: Found[] = ranges.map((r) => {
      if (!r) return null;
      const o = offsetsOf(index, r);
      if (!o) return null;
      let { start, end } = o;
      while (start < end && index.text[start] === ' ') start++;
      while (end > start && index.text[end - 1] === ' ') end--;
      return { start, end };
    });
    return { wallMs: [wallMs], results };
  },

  judge(results: Found[], truth: Array<SpanSpec | null>, tolerance: number): Judgement {
    const index = new TextIndex(document);
    const starts = sentenceStarts(index);
    const j: Judgement = { correct: 0, goneReported: 0, wrong: 0, orphaned: 0, wrongDetails: [], orphanDetails: [] };
    results.forEach((r, i) => {
      const t = truth[i];
      if (!t) {
        if (r) {
          j.wrong++;
          j.wrongDetails.push(`#${i} is gone but was placed on "${index.text.slice(r.start, r.end).slice(0, 60)}"`);
        } else {
          j.correct++;
          j.goneReported++;
        }
        return;
      }
      if (!r) {
        j.orphaned++;
        j.orphanDetails.push(`#${i}`);
        return;
      }
      const want = spanOffsets(starts, t);
      if (Math.abs(r.start - want.start) <= tolerance && Math.abs(r.end - want.end) <= tolerance) j.correct++;
      else {
        j.wrong++;
        j.wrongDetails.push(`#${i} placed on "${index.text.slice(r.start, r.end).slice(0, 50)}" instead of "${index.text.slice(want.start, want.end).slice(0, 50)}"`);
      }
    });
    return j;
  },

  /**
   * Paints `n` highlights (ranges from the index) in one task (tidemarkPaint) and measures it.
   * `styled`: the page has the registered sheet (no scope marks); else the painter marks the text's
   * parents (the frame that shows the highlights restyles them).
   */
  async paint(n: number, styled = false) {
    // The scope marks as the extension has them: from their own script (highlighter-scope-marks.js,
    // loaded by run.ts in a task of its own) where it was loaded, else this bundle's copy.
    const part = (window as unknown as Record<string, (() => ScopeMarks) | undefined>)['__tidemarkPart_scope-marks'];
    // Made in a task of its own (tidemarkMakeMarks), as the highlighter makes them before its painter,
    // before it indexes the page and anchors the highlights: what that costs is read from the trace too.
    const marks = styled
      ? undefined
      : await new Promise<ScopeMarks>((resolve) =>
          setTimeout(function tidemarkMakeMarks() {
            const made = part?.() ?? new ScopeMarks();
            // Resolved from the next task: the code after the await (the painter made) is not this task's.
            setTimeout(() => resolve(made), 0);
          }, 0),
        );
    const painter = await createPainter(document, { documentStyled: styled, marks });
    // The page's highlights, found after the painter is made (as the highlighter anchors them after making it).
    const index = new TextIndex(document);
    const text = index.text;
    const items: Array<{ key: string; ranges: Range; color: HighlightColor; hasNote: boolean }> = [];
    const step = Math.floor(text.length / n);
    for (let i = 0; i < n; i++) {
      let s = i * step + 7;
      while (s < text.length && text[s] !== ' ') s++;
      const e = Math.min(text.length, s + 1 + 20 + (i % 60));
      items.push({ key: `h${i}`, ranges: index.rangeFor(s + 1, e), color: HIGHLIGHT_COLORS[i % 12], hasNote: i % 10 === 0 });
    }
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    let scriptMs = 0;
    let t0 = 0;
    await new Promise<void>((resolve) =>
      setTimeout(function tidemarkPaint() {
        t0 = performance.now();
        painter.paintMany(items);
        scriptMs = performance.now() - t0;
        resolve();
      }, 0),
    );
    // Time until the frame that shows the highlights has been produced (style, layout and paint).
    const frameMs = await new Promise<number>((resolve) =>
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)),
    );
    // Where more than 200 are painted at once, the marks of those out of view come in idle slices after the task.
    while (marks?.pending) await new Promise((r) => setTimeout(r, 5));
    const markedMs = performance.now() - t0;
    const marked = document.querySelectorAll('[data-tidemark-hl]').length;
    // Sanity: after scrolling to one painted highlight, a hit test on its first line finds it.
    const target = items[n >> 1];
    painter.scrollTo(target.key);
    const rect = target.ranges.getClientRects()[0];
    const hits = painter.highlightsAt(rect.left + 1, rect.top + rect.height / 2);
    const t3 = performance.now();
    painter.clear();
    const clearMs = performance.now() - t3;
    return { kind: painter.kind, scriptMs, frameMs, markedMs, marked, clearMs, hitOk: hits.includes(target.key), marksFrom: styled ? 'none' : part ? 'own script' : 'bench bundle' };
  },
};

/** Long tasks (> 50 ms) of the page's main thread while `fn` runs, from a PerformanceObserver. */
async function watchingLongTasks<T>(fn: () => Promise<T>): Promise<{ value: T; longTasks: number[] }> {
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(Math.round(e.duration));
  });
  observer.observe({ type: 'longtask' });
  const value = await fn();
  // Long-task entries are delivered after the task: let them arrive.
  await new Promise((r) => setTimeout(r, 100));
  for (const e of observer.takeRecords()) longTasks.push(Math.round(e.duration));
  observer.disconnect();
  return { value, longTasks };
}

/** A display's frame interval at 60 Hz. */
const FRAME_MS = 1000 / 60;
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
/**
 * The page is idle: it has rendered and the main thread has nothing to do. Headless Chromium may leave
 * a freshly set page's style uncomputed until something asks for it; a shown page has it computed for
 * its first paint, so the page's own style and layout are forced here, before the measured work.
 */
const idle = async () => {
  void document.body.offsetHeight;
  await nextFrame();
  await nextFrame();
  await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 }));
};

const longPage = {
  /** The page's own first style and layout, done before the measured work (see idle). */
  settle: idle,

  /**
   * What the highlighter does on a saved page once it is idle: build the index in slices, anchor every
   * highlight in slices, paint them; timed to the next frame, with the long tasks seen meanwhile.
   */
  async paintAll(descriptors: HighlightDescriptor[], documentStyled = false) {
    await idle();
    // The trace's measured window (run.ts tasksOf) starts here, once the page is idle: making the painter is counted.
    console.timeStamp(MEASURED_FROM);
    const tIdle = performance.now();
    // documentStyled: the page had the ::highlight() rules from its first style computation (as the
    // extension's registered content-script style sheet gives it), so the painter adds no sheet.
    const marks = documentStyled ? undefined : new ScopeMarks();
    const painter = await createPainter(document, { documentStyled, marks });
    // The highlighter asks the background for the page's highlights after making its painter: a
    // message there and back, so the index starts in another task.
    await new Promise((r) => setTimeout(r, 0));
    const { value, longTasks } = await watchingLongTasks(async () => {
      const t0 = performance.now();
      const index = await TextIndex.build(document);
      const tIndex = performance.now() - t0;
      const results = await anchorAllSliced(index, descriptors);
      const tAnchor = performance.now() - t0 - tIndex;
      painter.paintMany(
        results.flatMap((r, i) => (r.status === 'anchored' ? [{ key: `h${i}`, ranges: r.range, color: HIGHLIGHT_COLORS[i % 12], hasNote: false }] : [])),
      );
      await nextFrame();
      // From idle: making the painter and the message's round trip are part of it.
      const total = performance.now() - tIdle;
      console.timeStamp(MEASURED_TO);
      (window as unknown as { keptIndex: TextIndex }).keptIndex = index;
      // As the highlighter does once the page is painted (PageIndex.prepareSearchWhenIdle).
      requestIdleCallback(() => textSearchOf(index).prepare(), { timeout: 2000 });
      return { total, tIndex, tAnchor, painted: painter.keys().length, results: results.map((r): Found => (r.status === 'anchored' ? { start: r.start, end: r.end } : null)) };
    });
    (window as unknown as { keptPainter: unknown }).keptPainter = painter;
    return { ...value, longTasks };
  },

  /**
   * Creating highlights on the painted page, as the highlighter's editor does for the context-menu
   * command (paintNew, the editor's code): the selection is drawn on the first-frame overlay in the
   * command's task (tidemarkCreate), which the toolbar's frame at the selection's end sized (prepare());
   * once the frame that shows it is rendered, the painter paints it (the page's whole repaint); once that
   * frame is rendered, it is described with the kept index in a task of its own (tidemarkDescribe), whose
   * result goes to the background. With `overlay` false, the painter paints it in the command's task (as
   * before the overlay). Per highlight: the command's script ms, ms from the command to the start of
   * the next frame (the wait) and to its end (painted: the user sees it), to the end of the frame that
   * shows the painter's paint, and to the description.
   *
   * `arrival` is when each command comes, the page being idle: 'any' at a moment drawn at random over
   * two frame intervals (as a click in a menu, or a key, comes at any point of the display's frame
   * cycle), 'after-frame' just after a frame (the worst case in headless Chromium: a command in the
   * idle period that follows a frame waits a whole interval for the next one).
   */
  async create(spans: SpanSpec[], arrival: 'any' | 'after-frame', seed: number, withOverlay = true) {
    let state = seed >>> 0 || 1;
    /** xorshift32: the same moments on every run with the same seed. */
    const random = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    };
    const index = (window as unknown as { keptIndex: TextIndex }).keptIndex;
    const painter = (window as unknown as { keptPainter: Awaited<ReturnType<typeof createPainter>> }).keptPainter;
    const starts = sentenceStarts(index);
    const ms: number[] = [];
    const frameMs: number[] = [];
    const waitMs: number[] = [];
    const describedMs: number[] = [];
    const painterMs: number[] = [];
    let early = 0;
    let long = 0;
    // As the highlighter (lib/highlighter/ui/page-ui.ts, not bundled here: it brings the extension's
    // i18n): an element of its own in the page, fixed, the overlay's canvas in its shadow root.
    const w = window as unknown as { benchUiRoot?: ShadowRoot };
    if (!w.benchUiRoot) {
      const host = document.createElement('tidemark-ui');
      host.style.cssText = 'all:initial;position:fixed;top:0;left:0;width:0;height:0;z-index:2147483647';
      w.benchUiRoot = host.attachShadow({ mode: 'open' });
      document.documentElement.append(host);
    }
    const overlay = withOverlay ? new FirstFrameOverlay(w.benchUiRoot) : null;
    for (const [i, s] of spans.entries()) {
      const { start, end } = spanOffsets(starts, s);
      const range = index.rangeFor(start, end);
      // The selection's end: the toolbar's frame sizes the overlay (editor.ts, onSelectionEnd).
      overlay?.prepare();
      await idle();
      if (arrival === 'any') await new Promise((resolve) => setTimeout(resolve, random() * 2 * FRAME_MS));
      let t0 = 0;
      let painted: Promise<number> | null = null;
      let shown: Promise<void> = Promise.resolve();
      // One named task per highlight (its CPU time is read from the trace: tidemarkCreate).
      await new Promise<void>((resolve) =>
        setTimeout(function tidemarkCreate() {
          t0 = performance.now();
          // The frame that shows it: asked for before the description waits for the same frame.
          painted = new Promise<number>((resolve) =>
            requestAnimationFrame(() => {
              waitMs.push(performance.now() - t0);
              setTimeout(() => resolve(performance.now() - t0), 0);
            }),
          );
          const drawn = paintNew(painter, overlay, `new-${arrival}-${i}`, range, 'yellow');
          if (drawn.early) early++;
          shown = drawn.painted;
          ms.push(performance.now() - t0);
          resolve();
        }, 0),
      );
      await shown;
      // The frame that shows the painter's paint (the same frame as above when the overlay did not draw it).
      const painterFrame = new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0)));
      const d = await new Promise<HighlightDescriptor | null>((resolve) =>
        requestAnimationFrame(() =>
          setTimeout(function tidemarkDescribe() {
            const desc = describeOffsets(index, start, end);
            describedMs.push(performance.now() - t0);
            resolve(desc);
          }, 0),
        ),
      );
      frameMs.push(await painted!);
      painterMs.push(await painterFrame);
      if (!d) throw new Error('empty highlight');
      if (d.prefix!.length > 32 || d.suffix!.length > 32) long++;
    }
    overlay?.canvas.remove();
    return { ms, frameMs, waitMs, describedMs, painterMs, early, long };
  },

  /**
   * A live page: before each new highlight the page changes a little (a clock at the top ticks, every
   * other time a comment is added at the end, each its own task: tidemarkMutate), then the highlight
   * is made as above: painted in the command's task (tidemarkCreatePatched / tidemarkCreateFull), then,
   * after the frame that shows it, the index brought up to date and the selection described
   * (tidemarkDescribePatched / tidemarkDescribeFull). `mode` 'patched': as the highlighter does, the
   * kept index is patched with the changes; 'full': the page is indexed again; 'none': no
   * highlight is made (the page's change alone: what its next frame costs without the extension).
   * Each highlight: the command's script ms, ms to the next frame (wall), and to the description.
   */
  async createAfterChange(spans: SpanSpec[], mode: 'patched' | 'full' | 'none') {
    const patched = mode === 'patched';
    let index = (window as unknown as { keptIndex: TextIndex }).keptIndex;
    const painter = (window as unknown as { keptPainter: Awaited<ReturnType<typeof createPainter>> }).keptPainter;
    let clock = document.getElementById('bench-clock');
    if (!clock) {
      clock = document.createElement('div');
      clock.id = 'bench-clock';
      clock.textContent = '12:00:00';
      document.body.prepend(clock);
    }
    const comments = document.getElementById('bench-comments') ?? document.body.appendChild(Object.assign(document.createElement('section'), { id: 'bench-comments' }));
    // As the highlighter's observer: records delivered since the index was made, and any not yet delivered.
    const delivered: MutationRecord[] = [];
    const observer = new MutationObserver((records) => void delivered.push(...records));
    observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    const changes = () => delivered.splice(0).concat(observer.takeRecords());
    // The clock and the comments section were added before this index was patched or made.
    index = new TextIndex(document);
    // As the highlighter once the page is painted (PageIndex.prepareSearchWhenIdle).
    textSearchOf(index).prepare();
    const starts = sentenceStarts(index);
    const ms: number[] = [];
    const frameMs: number[] = [];
    const describedMs: number[] = [];
    /** Wall ms of bringing the index up to date alone (patch, or full index), and of describing. */
    const indexMs: number[] = [];
    const describeMs: number[] = [];
    const stats: PatchStats = { records: 0, stretches: 0, removed: 0, added: 0, renormalised: 0 };
    let fallbacks = 0;
    for (const [i, s] of spans.entries()) {
      const { start, end } = spanOffsets(starts, s);
      const range = index.rangeFor(start, end);
      await idle();
      await new Promise<void>((resolve) =>
        setTimeout(function tidemarkMutate() {
          clock!.textContent = `12:00:${String(i % 60).padStart(2, '0')}`;
          if (i % 2 === 0) comments.append(Object.assign(document.createElement('p'), { textContent: `Comment ${i}: thanks, this helped.` }));
          resolve();
        }, 0),
      );
      let t0 = 0;
      let painted: Promise<number> | null = null;
      const paint = () => {
        t0 = performance.now();
        painted = nextFrame().then(() => performance.now() - t0);
        if (mode !== 'none') painter.paint(`changed${patched ? 'p' : 'f'}${i}`, range, { color: 'green' });
        ms.push(performance.now() - t0);
      };
      let d: HighlightDescriptor | null = null;
      const describe = () => {
        if (mode === 'none') {
          d = describeOffsets(index, start, end);
          return;
        }
        const t1 = performance.now();
        if (patched) {
          const next = patchTextIndex(index, changes(), stats);
          if (!next) fallbacks++;
          index = next ?? new TextIndex(document);
        } else {
          changes();
          index = new TextIndex(document);
        }
        const t2 = performance.now();
        indexMs.push(t2 - t1);
        d = describeOffsets(index, start, end);
        describeMs.push(performance.now() - t2);
        describedMs.push(performance.now() - t0);
      };
      await new Promise<void>((resolve) =>
        setTimeout(patched ? function tidemarkCreatePatched() { paint(); resolve(); } : function tidemarkCreateFull() { paint(); resolve(); }, 0),
      );
      await new Promise<void>((resolve) =>
        requestAnimationFrame(() =>
          setTimeout(patched ? function tidemarkDescribePatched() { describe(); resolve(); } : function tidemarkDescribeFull() { describe(); resolve(); }, 0),
        ),
      );
      frameMs.push(await painted!);
      if (!d) throw new Error('empty highlight');
    }
    observer.disconnect();
    if (mode !== 'none') (window as unknown as { keptIndex: TextIndex }).keptIndex = index;
    return { ms, frameMs, describedMs, indexMs, describeMs, stats, fallbacks, textLength: index.text.length };
  },
};

(window as unknown as { tidemarkBench: typeof bench }).tidemarkBench = bench;
(window as unknown as { tidemarkLongPage: typeof longPage }).tidemarkLongPage = longPage;
