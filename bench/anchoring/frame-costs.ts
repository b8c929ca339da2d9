/**
 * What one small change costs Chromium's next frame on the 1.1M-character reference page, with its
 * highlights painted: per kind of change, the wall time from the change's task to the end of the next
 * frame (as bench:anchoring's "command -> painted"), and that frame's CPU split (style, pre-paint,
 * paint), from a trace. Medians of a few runs each. Tells whether the frame's cost comes from the
 * highlight's paint or from any change at all, and what waiting for the frame costs.
 *
 *   npx tsx bench/anchoring/frame-costs.ts
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Page, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
import { highlightApiCss } from '../../lib/painting/highlight-css.js';
import type { HighlightDescriptor } from '../../lib/anchoring/index.js';
import type { TraceEvent as Ev } from './trace-event.js';
import { fmt, median } from './figures.js';


/** What in-page.ts puts on the page's window. */
type BenchWindow = Window & {
  tidemarkBench: { describe(spans: unknown[]): HighlightDescriptor[] };
  tidemarkLongPage: { settle(): Promise<void>; paintAll(d: HighlightDescriptor[], styled?: boolean): Promise<unknown> };
  frameCost(kind: string, i: number): Promise<number>;
};

const RUNS = Number(process.env.RUNS ?? 8);
const ALL_KINDS: Record<string, string> = {
  empty: 'nothing changed (requestAnimationFrame only)',
  attr: 'an attribute set on one small element (no rule uses it)',
  text: 'one word of text changed in one element',
  add: 'one range added to the yellow Highlight (as painting a new highlight)',
  addOwn: 'one range added as a Highlight of its own, registered under a new name',
  addHot: 'one range added to the yellow Highlight, frames already running (a requestAnimationFrame loop)',
  uiFixed: "the highlighter's page element (a host, its shadow root's edge strip with 100 marks) added, fixed with the highest z-index",
  uiTopLayer: 'the same element added in the top layer (a manual popover, shown), as the highlighter adds it',
  uiMarks: '100 marks put into the edge strip of such an element already on the page',
};

// KINDS=add,attr picks some.
const KINDS = Object.fromEntries(Object.entries(ALL_KINDS).filter(([k]) => !process.env.KINDS || process.env.KINDS.split(',').includes(k)));

async function measure(browser: Browser, page: Page, kind: string) {
  const extra = process.env.BENCH_TRACE_CATEGORIES?.split(',').filter(Boolean) ?? [];
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', '__metadata', ...extra] });
  const walls: number[] = [];
  for (let i = 0; i < RUNS; i++) walls.push(await page.evaluate(([k, n]) => (window as unknown as BenchWindow).frameCost(k, n), [kind, i] as const));
  const buf = await browser.stopTracing();
  if (process.env.BENCH_TRACE) fs.writeFileSync(`${process.env.BENCH_TRACE}-${kind}.json`, buf);
  const events = (JSON.parse(buf.toString()) as { traceEvents: Ev[] }).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')!;
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const changes = onMain.filter((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === 'tidemarkChange');
  const frames = onMain.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.args?.src_func === 'ScheduledActionSendBeginMainFrame');
  const split = { task: [] as number[], frame: [] as number[], style: [] as number[], prePaint: [] as number[], paint: [] as number[], wait: [] as number[] };
  for (const c of changes) {
    const f = frames.find((e) => e.ts > c.ts);
    if (!f) continue;
    const inside = (name: string) => onMain.filter((e) => e.name === name && e.ts >= f.ts && e.ts < f.ts + (f.dur ?? 0)).reduce((a, e) => a + (e.tdur ?? 0), 0) / 1000;
    split.task.push((c.tdur ?? 0) / 1000);
    split.frame.push((f.tdur ?? 0) / 1000);
    split.style.push(inside('UpdateLayoutTree'));
    split.prePaint.push(inside('PrePaint'));
    split.paint.push(inside('Paint'));
    split.wait.push((f.ts - (c.ts + (c.dur ?? 0))) / 1000);
  }
  return { walls, split };
}


async function main(): Promise<void> {
  const api = buildApiScenario(1, 1_100_000);
  const html = renderPage(api.original, 'Store API reference').replace('</head>', `<style>${highlightApiCss()}\n::highlight(tidemark-fresh) {}</style></head>`);
  const script = await bundleForPage({ file: fileURLToPath(new URL('./in-page.ts', import.meta.url)) });
  const frameScript = await bundleForPage({ file: fileURLToPath(new URL('./frame-costs-page.ts', import.meta.url)) });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.setContent(html, { waitUntil: 'load' });
    await page.addScriptTag({ content: script });
    const descriptors = await page.evaluate((spans) => (window as unknown as BenchWindow).tidemarkBench.describe(spans), api.highlights as unknown[]);
    console.log(`One change, then the next frame, on the long page (Chromium ${browser.version()}); ${RUNS} runs each, medians; CPU ms from a trace.`);
    for (const painted of [false, true]) {
      await page.setContent(html, { waitUntil: 'load' });
      await page.addScriptTag({ content: script });
      await page.evaluate(() => (window as unknown as BenchWindow).tidemarkLongPage.settle());
      if (painted) await page.evaluate((d) => (window as unknown as BenchWindow).tidemarkLongPage.paintAll(d, true), descriptors);
      await page.addScriptTag({ content: frameScript });
      console.log(painted ? `With the page's ${descriptors.length} highlights painted (registered sheet):` : 'No highlights painted yet:');
      for (const [kind, label] of Object.entries(KINDS)) {
        const { walls, split } = await measure(browser, page, kind);
        console.log(
          `  ${label}: change -> frame done ${fmt(median(walls))} ms wall (max ${fmt(Math.max(...walls))}); wait for the frame ${fmt(median(split.wait))}; ` +
            `the change's task CPU ${fmt(median(split.task))}; frame CPU ${fmt(median(split.frame))} (style ${fmt(median(split.style))}, pre-paint ${fmt(median(split.prePaint))}, paint ${fmt(median(split.paint))})`,
        );
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
