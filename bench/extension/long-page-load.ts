// Opening a saved long page through the built extension: from the page's load to the frame that shows
// every highlight, on bench/anchoring's long page (a generated API reference, 1.1M characters of text)
// with 100 highlights saved as another device would have, against the real server on loopback:
//
//   npx tsx bench/extension/long-page-load.ts [extension dir]     # ROUNDS=n (default 5)
//
// The user's way, nothing of lib/ driven by hand. The test site is on loopback, a host the extension may read (the
// server's), so its loader and style sheet are registered content scripts: the loader runs at
// document_idle, asks the background whether the page is saved, and the background injects the
// highlighter, which indexes the page in slices, anchors in slices and paints. Each round opens the page
// in a new tab, the original and the edited version (12 highlighted entries removed, 400 typos, 20
// entries inserted: 13 highlights' text gone, the approximate anchoring injected) alternating. A script
// added before the page's own watches CSS.highlights at every frame start and records when the frame
// that shows a new count is done (the task after it), and a PerformanceObserver records long tasks
// (over 50 ms, wall time; the page's own parsing comes before its load and is left out). The target
// (bench/README.md) counts from the page's idle, so the trace also gives that time less the page's own
// work after its load event (its first frames, before or between the highlighter's slices).
// Figures only; nothing here asserts timings.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { ensureExtensionBuilt } from '../../tests/e2e/helpers/extension-build.js';
import { describeSpansInPage } from '../../tests/e2e/helpers/describe-spans.js';
import { fmt, median } from '../anchoring/figures.js';
import type { TraceEvent } from '../anchoring/trace-event.js';
import { outermostTasks } from '../anchoring/trace-run.js';
import { longPageScenario, saveHighlights, startExtensionSession, until } from './long-page-session.js';

const SAVED = 100;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SAME_TAB = process.env.SAME_TAB === '1';
/** The count is taken as final once it has not changed for this long. */
const SETTLED_MS = 3000;
/** BENCH_TRACE_CATEGORIES (comma-separated) adds trace categories (BENCH_TRACE=file.json keeps the last tab's trace; PROFILE=file.cpuprofile its V8 profile). */
const EXTRA_CATEGORIES = process.env.BENCH_TRACE_CATEGORIES?.split(',').filter(Boolean) ?? [];

/** Runs in every page before its own scripts: what bench reads back as `window.tidemarkLoadWatch`. */
const WATCH = `(() => {
  const watch = { changes: [], longTasks: [] };
  window.tidemarkLoadWatch = watch;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) watch.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  let last = 0;
  const started = performance.now();
  const look = () => {
    let n = 0;
    for (const h of CSS.highlights.values()) n += h.size;
    if (n !== last) {
      last = n;
      // This frame shows the new count; it is done when the task after it runs.
      setTimeout(() => {
        watch.changes.push([performance.now(), n]);
        console.timeStamp('tidemark:painted');
      }, 0);
    }
    if (performance.now() - started < 30000) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
  addEventListener('load', () => {
    console.timeStamp('tidemark:load');
    setTimeout(() => console.timeStamp('tidemark:loaded'), 0);
  });
})();`;

interface Watch {
  changes: Array<[number, number]>;
  longTasks: Array<[number, number]>;
}

interface Sample {
  /** ms from the load event's end to the frame that showed the final count. */
  afterLoad: number;
  /** ms from the load event's end to the frame that showed the first highlight. */
  firstAfterLoad: number;
  /** ms from navigation start to the load event's end. */
  load: number;
  painted: number;
  /** Long tasks (wall ms) that started after the load event. */
  longTasks: number[];
  /** CPU ms of each main-thread task from the load event to all painted: the extension's, and the rest. */
  extensionCpu: number[];
  /** The frames' CPU ms, in order: the last one showed every highlight. */
  frameCpu: number[];
  otherCpu: number[];
  /**
   * ms from the load event to the frame that showed the final count, less the page's own main-thread
   * work in between (from the trace): the target counts from the page's idle.
   */
  afterIdle: number;
  /** Wall ms of the page's own tasks after its load event, up to that frame. */
  pageAfterLoad: number;
  traced: boolean;
}

async function measure(extensionDir: string) {
  const { html, editedHtml, spans } = longPageScenario();
  const session = await startExtensionSession(extensionDir);
  const { browser, site } = session;
  try {
    const urls = {
      original: site.add('/load-reference', { title: 'Store API reference', body: html }),
      edited: site.add('/load-reference-edited', { title: 'Store API reference', body: editedHtml }),
    };
    // Described on the original page (where they were made), saved for both addresses.
    const maker = browser.context.pages()[0] ?? (await browser.context.newPage());
    await maker.goto(site.add('/load-reference-made', { title: 'Store API reference', body: html }));
    const descriptors = await describeSpansInPage(maker, spans.slice(0, SAVED));
    await maker.goto('about:blank');
    await saveHighlights(session, urls.original, descriptors);
    await saveHighlights(session, urls.edited, descriptors);
    await browser.fireAlarm('index-sync'); // the extension learns that the pages are saved
    await browser.context.addInitScript(WATCH);

    const samples: Record<keyof typeof urls, Sample[]> = { original: [], edited: [] };
    let shared: Page | undefined;
    for (let r = 0; r < ROUNDS; r++) {
      for (const which of r % 2 ? (['edited', 'original'] as const) : (['original', 'edited'] as const)) {
        // SAME_TAB=1: every round in one tab, as a reader following links on a site (its renderer has
        // walked the long page before); by default a new tab each round.
        const tab = SAME_TAB ? (shared ??= await browser.context.newPage()) : await browser.context.newPage();
        const cdp = await browser.context.newCDPSession(tab);
        await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'v8.execute', '__metadata', ...EXTRA_CATEGORIES] }, transferMode: 'ReturnAsStream' });
        // PROFILE=file.cpuprofile: a sampled V8 profile of the page's renderer (the last tab's is kept).
        if (process.env.PROFILE) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          await cdp.send('Profiler.start');
        }
        await tab.goto(urls[which], { waitUntil: 'load' });
        const read = () => tab.evaluate(() => (window as unknown as { tidemarkLoadWatch: Watch }).tidemarkLoadWatch);
        // Painted once the count stops changing (the edited page paints fewer than 100).
        let seen = -1;
        let since = Date.now();
        await until(`the highlights of the ${which} page painted`, async () => {
          const w = await read();
          const n = w.changes.length ? w.changes[w.changes.length - 1][1] : 0;
          if (n !== seen) {
            seen = n;
            since = Date.now();
          }
          return n > 0 && Date.now() - since > SETTLED_MS;
        });
        if (process.env.PROFILE) fs.writeFileSync(process.env.PROFILE, JSON.stringify((await cdp.send('Profiler.stop')).profile));
        const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream!)));
        await cdp.send('Tracing.end');
        const events = await readTrace(cdp, await done);
        if (process.env.BENCH_TRACE) fs.writeFileSync(process.env.BENCH_TRACE, JSON.stringify(events));
        await cdp.detach();
        const w = await read();
        const loadEnd = await tab.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
        const final = w.changes[w.changes.length - 1];
        samples[which].push({
          afterLoad: final[0] - loadEnd,
          firstAfterLoad: w.changes[0][0] - loadEnd,
          load: loadEnd,
          painted: final[1],
          longTasks: w.longTasks.filter(([start]) => start >= loadEnd).map(([, d]) => Math.round(d)),
          ...tasksAfterLoad(events, urls[which]),
        });
        if (!SAME_TAB) await tab.close();
      }
    }
    return samples;
  } finally {
    await session.close();
  }
}

async function readTrace(cdp: { send(method: 'IO.read', params: { handle: string }): Promise<{ data: string; eof: boolean; base64Encoded?: boolean }> }, stream: string): Promise<TraceEvent[]> {
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}

/**
 * The page's main-thread work from its load event to the frame that showed the final count, CPU ms:
 * the extension's (tasks that ran one of its scripts, and the continuations of its sliced work after
 * scheduler.yield(), which the trace records as microtask checkpoints outside any task: the test page
 * has no promises of its own), the frames (the last one is the frame that showed every highlight), and
 * the rest.
 */
function tasksAfterLoad(events: TraceEvent[], url: string) {
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url);
  const onMain = (e: TraceEvent) => parse !== undefined && e.pid === parse.pid && e.tid === parse.tid;
  const stamp = (message: string) => events.filter((e) => e.name === 'TimeStamp' && onMain(e) && e.args?.data?.message === message).map((e) => e.ts);
  const from = stamp('tidemark:loaded')[0] ?? Infinity;
  const load = stamp('tidemark:load')[0] ?? Infinity;
  const to = Math.max(...stamp('tidemark:painted'));
  const CHECKPOINT = 'BlinkScheduler_PerformMicrotaskCheckpoint';
  const outermost = outermostTasks(
    events.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask' || e.name === CHECKPOINT) && e.ph === 'X' && onMain(e) && typeof e.tdur === 'number'),
  );
  const scripts = events.filter((e) => (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile') && onMain(e) && (e.args?.data?.url ?? '').startsWith('chrome-extension://'));
  const isFrame = (t: TraceEvent) => t.args?.src_func === 'ScheduledActionSendBeginMainFrame';
  const ours = (t: TraceEvent) => t.name === CHECKPOINT || scripts.some((s) => s.ts >= t.ts && s.ts < t.ts + (t.dur ?? 0));
  const inWindow = outermost.filter((t) => t.ts + (t.dur ?? 0) > from && t.ts <= to);
  const cpu = (xs: TraceEvent[]) => xs.map((t) => t.tdur! / 1000);
  const frames = inWindow.filter(isFrame);
  // The page's own main-thread work after its load event (its first frames after it, other tasks without
  // an extension script), before or between the extension's slices: the frame that showed the highlights
  // is left out. Without it the highlights would be painted that much sooner, as on a page idle at load.
  const afterLoadTasks = outermost.filter((t) => t.ts >= load && t.ts < to);
  const showing = frames[frames.length - 1];
  const pageOwn = afterLoadTasks.filter((t) => t !== showing && !ours(t)).reduce((a, t) => a + (t.dur ?? 0), 0);
  return {
    afterIdle: (to - load - pageOwn) / 1000,
    pageAfterLoad: pageOwn / 1000,
    extensionCpu: cpu(inWindow.filter((t) => !isFrame(t) && ours(t))),
    frameCpu: cpu(frames),
    otherCpu: cpu(inWindow.filter((t) => !isFrame(t) && !ours(t))),
    traced: parse !== undefined && from !== Infinity,
  };
}


async function main() {
  const dir = process.argv[2] ?? (await ensureExtensionBuilt());
  const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const samples = await measure(dir);
  const loadAfter = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`Opening a saved long page through the extension (${dir}): ${SAVED} highlights saved, ${ROUNDS} ${SAME_TAB ? 'loads in one tab' : 'new tabs'} of each page; load average ${loadBefore} -> ${loadAfter}`);
  for (const [which, xs] of Object.entries(samples)) {
    const after = xs.map((x) => x.afterLoad);
    const traced = xs.filter((x) => x.traced);
    const idle = traced.map((x) => x.afterIdle);
    console.log(
      `  ${which}: load event -> all painted median ${fmt(median(after))}, max ${fmt(Math.max(...after))} ms [${after.map(fmt).join(' ')}]; ` +
        `-> the first painted median ${fmt(median(xs.map((x) => x.firstAfterLoad)))} ms; painted ${[...new Set(xs.map((x) => x.painted))].join('/')}; ` +
        `the page's own load (navigation -> load event) median ${fmt(median(xs.map((x) => x.load)))} ms; ` +
        `long tasks after the load event: ${xs.flatMap((x) => x.longTasks).join(', ') || 'none'}`,
    );
    console.log(
      `    from the page's idle (traced; the load event -> all painted less the page's own work in between): median ${fmt(median(idle))}, max ${fmt(Math.max(...idle))} ms [${idle.map(fmt).join(' ')}]; ` +
        `the page's own work after its load event ${traced.map((x) => fmt(x.pageAfterLoad)).join(' ')} ms`,
    );
    const sum = (ys: number[]) => ys.reduce((a, b) => a + b, 0);
    const lastFrame = traced.map((x) => x.frameCpu[x.frameCpu.length - 1] ?? 0);
    const otherFrames = traced.map((x) => Math.max(0, ...x.frameCpu.slice(0, -1)));
    console.log(
      `    traced (${traced.length} of ${xs.length}), CPU from the load event to all painted: the extension's script ${traced.map((x) => fmt(sum(x.extensionCpu))).join(' ')} ms ` +
        `in ${traced.map((x) => x.extensionCpu.length).join(' ')} tasks, the longest ${fmt(Math.max(0, ...traced.flatMap((x) => x.extensionCpu)))} ms; ` +
        `the frame that showed them ${lastFrame.map(fmt).join(' ')} ms, the longest frame before it ${otherFrames.map(fmt).join(' ')} ms; ` +
        `other tasks ${traced.map((x) => fmt(sum(x.otherCpu))).join(' ')} ms, the longest ${fmt(Math.max(0, ...traced.flatMap((x) => x.otherCpu)))} ms`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
