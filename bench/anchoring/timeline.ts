/**
 * Where the wall time of painting the long page goes: the main thread's tasks, one line each (start
 * after the paint began, wall and CPU ms, what ran: script, a rendering frame with its steps), and the
 * idle gaps between them, from a Chromium trace of one `paintAll` (as bench:anchoring runs it).
 *
 *   npx tsx bench/anchoring/timeline.ts [original|edited|styled] [repeats]
 *
 * It also prints, per run without a trace, the wall time after idle (index + anchoring + frames).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
import { highlightApiCss } from '../../lib/painting/highlight-css.js';
import type { HighlightDescriptor } from '../../lib/anchoring/index.js';
import type { TraceEvent as Ev } from './trace-event.js';


type PaintAll = { total: number; tIndex: number; tAnchor: number; painted: number };
/** What in-page.ts puts on the page's window. */
type BenchWindow = Window & {
  tidemarkBench: { describe(spans: unknown[]): HighlightDescriptor[] };
  tidemarkLongPage: { settle(): Promise<void>; paintAll(d: HighlightDescriptor[], styled?: boolean): Promise<PaintAll> };
};

const STEPS = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'UpdateLayer', 'HitTest', 'ParseHTML', 'MajorGC', 'MinorGC', 'V8.GC_MARK_COMPACTOR', 'BlinkGC.AtomicPhase'];

async function main(): Promise<void> {
  const which = (process.argv[2] ?? 'edited') as 'original' | 'edited' | 'styled';
  const repeats = Number(process.argv[3] ?? 3);
  const api = buildApiScenario(1, 1_100_000);
  const original = renderPage(api.original, 'Store API reference');
  const html = which === 'edited' ? renderPage(api.edited, 'Store API reference') : which === 'styled' ? original.replace('</head>', `<style>${highlightApiCss()}</style></head>`) : original;
  const script = await bundleForPage({ file: fileURLToPath(new URL('./in-page.ts', import.meta.url)) });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    let page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const load = async (h: string) => {
      // FRESH=1: every page in a tab of its own, not in the tab of the page before (whose garbage is still collected).
      if (process.env.FRESH) {
        await page.close();
        page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      }
      await page.setContent(h, { waitUntil: 'load' });
      await page.addScriptTag({ content: script });
    };
    await load(original);
    const descriptors = await page.evaluate((spans) => (window as unknown as BenchWindow).tidemarkBench.describe(spans), api.highlights as unknown[]);
    const walls: string[] = [];
    for (let i = 0; i < repeats; i++) {
      await load(html);
      await page.evaluate(() => (window as unknown as BenchWindow).tidemarkLongPage.settle());
      const r = await page.evaluate(([d, s]) => (window as unknown as BenchWindow).tidemarkLongPage.paintAll(d, s), [descriptors, which === 'styled'] as const);
      walls.push(`${r.total.toFixed(1)} (index ${r.tIndex.toFixed(1)} + anchoring ${r.tAnchor.toFixed(1)} + frames ${(r.total - r.tIndex - r.tAnchor).toFixed(1)}; ${r.painted} painted)`);
    }
    console.log(`${which}: wall after idle without a trace, ms: ${walls.join('; ')}`);

    if (process.env.PROFILE) {
      // A sampled CPU profile of one more run (V8's profiler): the functions with the most self time.
      await load(html);
      await page.evaluate(() => (window as unknown as BenchWindow).tidemarkLongPage.settle());
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      await page.evaluate(([d, s]) => (window as unknown as BenchWindow).tidemarkLongPage.paintAll(d, s), [descriptors, which === 'styled'] as const);
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(process.env.PROFILE, JSON.stringify(profile));
      const self = new Map<string, number>();
      const dt = profile.timeDeltas ?? [];
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      (profile.samples ?? []).forEach((id, i) => {
        const n = byId.get(id)!;
        const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
        self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
      });
      const top = [...self].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)')).sort((a, b) => b[1] - a[1]).slice(0, 40);
      console.log('self time, ms (sampled):');
      for (const [k, ms] of top) console.log(`  ${ms.toFixed(1).padStart(6)}  ${k}`);
      await cdp.detach();
    }

    await load(html);
    await page.evaluate(() => (window as unknown as BenchWindow).tidemarkLongPage.settle());
    const extra = process.env.BENCH_TRACE_CATEGORIES?.split(',').filter(Boolean) ?? [];
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', '__metadata', 'blink.user_timing', ...extra] });
    const r = await page.evaluate(([d, s]) => {
      performance.mark('paintAll-start');
      return (window as unknown as BenchWindow).tidemarkLongPage.paintAll(d, s).then((v) => (performance.mark('paintAll-end'), v));
    }, [descriptors, which === 'styled'] as const);
    const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: Ev[] }).traceEvents;
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')!;
    const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
    const start = onMain.find((e) => e.name === 'paintAll-start')?.ts ?? onMain.find((e) => e.name === 'FunctionCall')!.ts;
    const end = onMain.find((e) => e.name === 'paintAll-end')?.ts ?? Infinity;
    // The outermost complete events of the main thread in that time (tasks, whatever their name).
    const all = onMain.filter((e) => e.ph === 'X' && e.ts + (e.dur ?? 0) >= start && e.ts <= end + 30_000).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const tasks: Ev[] = [];
    for (const e of all) {
      const last = tasks[tasks.length - 1];
      if (!last || e.ts >= last.ts + (last.dur ?? 0)) tasks.push(e);
    }
    console.log(`traced: ${r.total.toFixed(1)} ms wall (index ${r.tIndex.toFixed(1)} + anchoring ${r.tAnchor.toFixed(1)}); the main thread's tasks from the start of paintAll (ms):`);
    let prevEnd = start;
    let busy = 0;
    let cpu = 0;
    for (const t of tasks) {
      const inner = onMain.filter((e) => e.ph === 'X' && e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0) && STEPS.includes(e.name));
      const steps = STEPS.map((s) => {
        const es = inner.filter((e) => e.name === s);
        if (!es.length) return '';
        const ms = es.reduce((a, e) => a + (e.tdur ?? e.dur ?? 0), 0) / 1000;
        const count = s === 'UpdateLayoutTree' ? ` ${es.map((e) => e.args?.elementCount ?? e.args?.beginData?.elementCount ?? '?').join('+')} el` : '';
        return `${s} ${ms.toFixed(1)}${count}`;
      }).filter(Boolean);
      const fn = onMain.find((e) => e.name === 'FunctionCall' && e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0))?.args?.data?.functionName;
      const gap = (t.ts - prevEnd) / 1000;
      const wall = (t.dur ?? 0) / 1000;
      const tcpu = (t.tdur ?? 0) / 1000;
      if (t.ts <= end) {
        busy += wall;
        cpu += tcpu;
      }
      if (wall >= 0.3 || steps.length) {
        console.log(`  +${((t.ts - start) / 1000).toFixed(1).padStart(6)}  gap ${gap.toFixed(1).padStart(5)}  wall ${wall.toFixed(1).padStart(5)}  cpu ${tcpu.toFixed(1).padStart(5)}  ${t.name === 'RunTask' || t.name === 'ThreadControllerImpl::RunTask' ? '' : t.name + ' '}${t.args?.src_func ?? ''}${fn ? ` fn=${fn}` : ''} ${steps.join(', ')}`);
      }
      prevEnd = Math.max(prevEnd, t.ts + (t.dur ?? 0));
    }
    console.log(`until paintAll ended (+${((end - start) / 1000).toFixed(1)} ms): tasks ${busy.toFixed(1)} ms wall, ${cpu.toFixed(1)} ms CPU`);
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
