/**
 * CPU of building the text index (TextIndex) and the word index of its text (search-text.ts), on the
 * long page (original and edited) and the article, in Chromium, each page in a new browser context so
 * that the first build runs cold code (as in a freshly injected highlighter). Figures are main-thread
 * CPU from a trace: the sliced build (TextIndex.build, the highlighter's path, cold), the word index
 * (one task, cold), and the median of warm builds in one task each.
 *
 *   npx tsx bench/anchoring/index-build.ts [rounds] [pages]
 *
 * `pages`: comma-separated of long-edited, long-original, article, article-edited (default: all).
 * BASE=dir[:dir2...] compares against other copies of the code (a directory holding lib/anchoring, e.g.
 * `mkdir /tmp/base && git archive main lib/anchoring | tar -x -C /tmp/base`): the two are run
 * interleaved, round by round, and their digests (text, node ranges, offset map) must agree.
 * JS_FLAGS=--single-threaded runs V8's compilers and GC on the main thread: its CPU then depends less on
 * how busy the machine's other cores are (a steadier A/B on a shared machine; not the browser's real figures).
 * WARM_AB=n first builds the index n times with each variant, alternated in one page (minimum and median wall ms).
 * PROFILE=1 first prints a sampled profile of this code's cold run on the first page.
 */
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
import { buildScenario } from './scenario.js';
import type { TraceEvent } from './trace-event.js';
import { fmt, median } from './figures.js';

type Result = { slicedWall: number; words: number; warmWall: number[]; digest: string };
type Cpu = { sliced: number; slicedGc: number; words: number; warm: number[] };

const WARM = 3;
const here = path.dirname(fileURLToPath(import.meta.url));

/** Main-thread CPU ms of the outermost tasks overlapping each pair of marks `name`-start .. `name`-end. */
function cpuBetweenMarks(events: TraceEvent[], names: string[]): Record<string, number> {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid);
  const sorted = onMain.filter((e) => e.ph === 'X' && typeof e.tdur === 'number').sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks: TraceEvent[] = [];
  for (const e of sorted) {
    const last = tasks[tasks.length - 1];
    if (!last || e.ts >= last.ts + (last.dur ?? 0)) tasks.push(e);
  }
  const out: Record<string, number> = {};
  for (const name of names) {
    const a = onMain.find((e) => e.name === `${name}-start`)?.ts;
    const b = onMain.find((e) => e.name === `${name}-end`)?.ts;
    if (a === undefined || b === undefined) continue;
    const within = tasks.filter((t) => t.ts + (t.dur ?? 0) >= a && t.ts <= b);
    out[name] = within.reduce((s, t) => s + (t.tdur ?? 0), 0) / 1000;
    // Of that, the garbage collector's pauses on the main thread.
    const from = within[0]?.ts ?? a;
    const to = Math.max(b, ...within.map((t) => t.ts + (t.dur ?? 0)));
    out[`${name}-gc`] = onMain.filter((e) => (e.name === 'MinorGC' || e.name === 'MajorGC') && e.ts >= from && e.ts <= to).reduce((s, e) => s + (e.tdur ?? e.dur ?? 0), 0) / 1000;
  }
  return out;
}

/** A sampled V8 profile of one fresh page's run: the functions with the most self time (PROFILE=1). */
async function profile(browser: Browser, html: string, script: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await page.addScriptTag({ content: script });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.evaluate(() => (window as unknown as { tidemarkIndexBench: { run(n: number): Promise<Result> } }).tidemarkIndexBench.run(0));
    const { profile: p } = await cdp.send('Profiler.stop');
    const self = new Map<string, number>();
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    (p.samples ?? []).forEach((id, i) => {
      const f = byId.get(id)!.callFrame;
      const key = `${f.functionName || '(anonymous)'}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + (p.timeDeltas?.[i] ?? 0) / 1000);
    });
    const top = [...self].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)')).sort((a, b) => b[1] - a[1]).slice(0, 25);
    console.log('self time of a cold sliced build and the word index, ms (sampled):');
    for (const [k, ms] of top) console.log(`  ${ms.toFixed(1).padStart(6)}  ${k}`);
  } finally {
    await context.close();
  }
}

async function measure(browser: Browser, html: string, script: string): Promise<{ r: Result; cpu: Cpu }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await page.addScriptTag({ content: script });
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', '__metadata', 'blink.user_timing'] });
    const r = await page.evaluate((n) => (window as unknown as { tidemarkIndexBench: { run(n: number): Promise<Result> } }).tidemarkIndexBench.run(n), WARM);
    const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const names = ['sliced', 'words', ...Array.from({ length: WARM }, (_, i) => `warm${i}`)];
    const c = cpuBetweenMarks(events, names);
    return { r, cpu: { sliced: c.sliced, slicedGc: c['sliced-gc'], words: c.words, warm: names.slice(2).map((n) => c[n]) } };
  } finally {
    await context.close();
  }
}

type Bench = { once(): Promise<number> };

/**
 * Warm builds of every variant alternated `n` times in one page (each variant's script under its own
 * name): the minimum and median wall ms of each. Alternating in one page, the minimum is the figure
 * least disturbed by other processes on a busy machine.
 */
async function warmAlternated(browser: Browser, html: string, variants: Array<{ name: string; script: string }>, n: number): Promise<string> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    for (const v of variants) {
      await page.addScriptTag({ content: v.script });
      await page.evaluate((name) => {
        const w = window as unknown as { tidemarkIndexBench: Bench; variants?: Record<string, Bench> };
        (w.variants ??= {})[name] = w.tidemarkIndexBench;
      }, v.name);
    }
    const times = await page.evaluate(
      async ([names, rounds]) => {
        const all = (window as unknown as { variants: Record<string, Bench> }).variants;
        const out: Record<string, number[]> = {};
        for (let i = 0; i < rounds; i++) for (const name of i % 2 ? [...names].reverse() : names) (out[name] ??= []).push(await all[name].once());
        return out;
      },
      [variants.map((v) => v.name), n] as const,
    );
    return variants.map((v) => `${v.name} min ${fmt(Math.min(...times[v.name]))} median ${fmt(median(times[v.name]))}`).join(', ');
  } finally {
    await context.close();
  }
}


async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const api = buildApiScenario(1, 1_100_000);
  const article = buildScenario(1, 440_000);
  const allPages: Record<string, string> = {
    'long-edited': renderPage(api.edited, 'Store API reference'),
    'long-original': renderPage(api.original, 'Store API reference'),
    article: renderPage(article.original, 'The Harbour Chronicle'),
    'article-edited': renderPage(article.edited, 'The Harbour Chronicle'),
  };
  const pageNames = (process.argv[3]?.split(',') ?? Object.keys(allPages)).filter((p) => p in allPages);

  const variants: Array<{ name: string; script: string }> = [];
  const pageFile = path.join(here, 'index-build-page.ts');
  for (const [i, base] of (process.env.BASE?.split(':').filter(Boolean) ?? []).entries()) {
    // The page script next to the other copy's lib/anchoring, so that its imports resolve there.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'index-build-'));
    fs.cpSync(path.join(base, 'lib'), path.join(dir, 'lib'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'bench/anchoring'), { recursive: true });
    fs.copyFileSync(pageFile, path.join(dir, 'bench/anchoring/index-build-page.ts'));
    variants.push({ name: i === 0 ? 'base' : `base${i + 1}`, script: await bundleForPage({ file: path.join(dir, 'bench/anchoring/index-build-page.ts') }) });
    fs.rmSync(dir, { recursive: true });
  }
  variants.push({ name: 'this', script: await bundleForPage({ file: pageFile }) });

  console.log(`load: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${rounds} rounds; variants ${variants.map((v) => v.name).join(', ')}`);
  const args = process.env.JS_FLAGS ? [...CHROMIUM_ARGS, `--js-flags=${process.env.JS_FLAGS}`] : CHROMIUM_ARGS;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args, headless: true });
  const rows: Record<string, Array<{ r: Result; cpu: Cpu }>> = {};
  try {
    if (process.env.WARM_AB) {
      for (const p of pageNames) console.log(`warm builds alternated in one page, ${process.env.WARM_AB} each, wall ms: ${p}: ${await warmAlternated(browser, allPages[p], variants, Number(process.env.WARM_AB))}`);
    }
    if (process.env.PROFILE) await profile(browser, allPages[pageNames[0]], variants[variants.length - 1].script);
    for (let round = 0; round < rounds; round++) {
      for (const p of pageNames) {
        // Alternate which variant goes first.
        const order = round % 2 === 0 ? variants : [...variants].reverse();
        for (const v of order) (rows[`${p} ${v.name}`] ??= []).push(await measure(browser, allPages[p], v.script));
      }
    }
  } finally {
    await browser.close();
  }
  if (rounds === 0) return;
  console.log('CPU ms (trace, main thread), medians over rounds [all values]; wall ms of the sliced build in brackets');
  for (const p of pageNames) {
    const digests = new Set<string>();
    for (const v of variants) {
      const xs = rows[`${p} ${v.name}`];
      xs.forEach((x) => digests.add(x.r.digest));
      const sliced = xs.map((x) => x.cpu.sliced);
      const gc = xs.map((x) => x.cpu.slicedGc);
      const words = xs.map((x) => x.cpu.words);
      const warm = xs.map((x) => median(x.cpu.warm));
      console.log(
        `  ${p.padEnd(15)} ${v.name.padEnd(5)} sliced build cold ${fmt(median(sliced)).padStart(6)} [${sliced.map(fmt).join(' ')}] (wall ${fmt(median(xs.map((x) => x.r.slicedWall)))}; GC ${fmt(median(gc))} [${gc.map(fmt).join(' ')}])` +
          `  word index ${fmt(median(words)).padStart(5)} [${words.map(fmt).join(' ')}]  warm build ${fmt(median(warm)).padStart(5)} [${warm.map(fmt).join(' ')}]`,
      );
    }
    console.log(`  ${p.padEnd(15)} digest ${[...digests].join(' ')}${digests.size > 1 ? '  << DIFFERENT RESULTS' : ''}`);
  }
  console.log(`load at the end: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
