/**
 * A/B runs of two figures of bench/anchoring/run.ts, each in a fresh tab, the two versions interleaved
 * (the machine's load changes from minute to minute; compare runs made side by side):
 *
 *   npx tsx bench/anchoring/ab.ts paint [rounds]     # paintMany() of 1000 highlights with scope marks (the click path)
 *   npx tsx bench/anchoring/ab.ts anchor [rounds]    # the edited article's cold anchoring (index and anchoring tasks apart)
 *
 * BASE=<git ref>[,<git ref>...] adds versions A, B, ...: each commit's lib/ (taken with git archive into a
 * temporary directory), run with this tree's bench code, interleaved with this tree. Without it only this tree runs.
 * PROFILE=1 adds, per version, a sampled V8 profile summed over `rounds` more runs: the functions with
 * the most self time inside the measured task. Figures are main-thread CPU ms from a Chromium trace.
 * In `anchor`, each version's approximate search is a script of its own, run in a task of its own
 * (tidemarkLoadApprox) before the index, as the background injects highlighter-approximate.js; MAGIC=1 gives
 * this tree's scripts V8's compile hint, MAGIC=approx only its approximate search's script.
 * JS_FLAGS=--single-threaded passes that V8 flag to Chromium: the JIT then compiles on the main thread
 * instead of starving for CPU on a busy machine, so A and B differ less from run to run (the figures are
 * then not those of a normal browser: compare versions with it, report figures without it).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildScenario } from './scenario.js';
import type { HighlightDescriptor } from '../../lib/anchoring/index.js';
import type { TraceEvent } from './trace-event.js';
import { traceWhile } from './trace-run.js';
import { fmt, median } from './figures.js';

/** A version: the bench page script, and its approximate search as a script of its own (ab-page.ts). */
type Version = { name: string; script: string; approx: string };
type Each = Array<{ method: string; ms: number; start: number; end: number }>;
type AbWindow = Window & {
  tidemarkBench: { describe(spans: unknown[]): HighlightDescriptor[]; paint(n: number, styled?: boolean): Promise<{ marked: number; hitOk: boolean }> };
  tidemarkAB: { anchorEach(d: HighlightDescriptor[]): Promise<Each> };
};

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `libRoot`'s approximate search as a script of its own, as the extension injects it (highlighter-approximate.js). */
function approxScript(libRoot: string): Promise<string> {
  return bundleForPage({ source: "import { approximateSearch } from './lib/anchoring/anchor-approximate.js';\n(window as unknown as { tidemarkApproximate: unknown }).tidemarkApproximate = approximateSearch;\n", resolveDir: libRoot });
}

/** V8's explicit compile hint: every function of the script compiled when it loads (as the build does for highlighter-scope-marks.js). */
const HINT = '//# allFunctionsCalledOnLoad\n';

/** This tree's bench page script, bundled against `libRoot`'s lib/. */
async function bundleWith(libRoot: string): Promise<string> {
  if (libRoot === ROOT) return bundleForPage({ file: path.join(ROOT, 'bench/anchoring/ab-page.ts') });
  fs.rmSync(path.join(libRoot, 'bench'), { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'bench/anchoring'), path.join(libRoot, 'bench/anchoring'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'tests/anchoring/fixtures'), path.join(libRoot, 'tests/anchoring/fixtures'), { recursive: true });
  if (!fs.existsSync(path.join(libRoot, 'node_modules'))) fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(libRoot, 'node_modules'));
  return bundleForPage({ file: path.join(libRoot, 'bench/anchoring/ab-page.ts') });
}

/** CPU ms of the calls of each named function (FunctionCall events) while `fn` runs. */
async function cpuOf<T>(browser: Browser, page: Page, names: string[], fn: () => Promise<T>): Promise<{ value: T; cpu: Record<string, number[]> }> {
  const extra = process.env.TRACE_CATEGORIES?.split(',').filter(Boolean) ?? [];
  const { value, events } = await traceWhile(browser, page, ['devtools.timeline', ...extra], fn);
  const cpu: Record<string, number[]> = {};
  for (const n of names) cpu[n] = events.filter((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === n && typeof e.tdur === 'number').map((e) => e.tdur! / 1000);
  if (extra.length) for (const n of names) inside(events, n);
  return { value, cpu };
}

/**
 * TRACE_CATEGORIES=blink,disabled-by-default-devtools.timeline,...: prints the trace events within the
 * first call of `name`, summed by event name (CPU ms, count; nested events are counted in their parents too).
 */
function inside(events: TraceEvent[], name: string): void {
  const task = events.find((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === name);
  if (!task || task.dur === undefined) return;
  const sums = new Map<string, { ms: number; n: number }>();
  for (const e of events) {
    if (e === task || e.tid !== task.tid || e.ph !== 'X' || e.ts < task.ts || e.ts + (e.dur ?? 0) > task.ts + task.dur) continue;
    const s = sums.get(e.name) ?? { ms: 0, n: 0 };
    s.ms += (e.tdur ?? e.dur ?? 0) / 1000;
    s.n++;
    sums.set(e.name, s);
  }
  console.log(`  in ${name} (${fmt((task.tdur ?? 0) / 1000)} ms CPU): ${[...sums].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15).map(([k, s]) => `${k} ${fmt(s.ms)} (${s.n})`).join(', ')}`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  positionTicks?: Array<{ line: number; ticks: number }>;
}

/** Adds to `self` the self time (ms) of every function under the named task functions in one sampled profile of `fn`. */
async function profiled(page: Page, tasks: string[], self: Map<string, number>, lines: Map<number, number>, fn: () => Promise<unknown>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  await fn();
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.detach();
  const nodes = profile.nodes as ProfileNode[];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const under = new Set<number>();
  const mark = (id: number) => {
    under.add(id);
    for (const c of byId.get(id)?.children ?? []) mark(c);
  };
  for (const n of nodes) if (tasks.includes(n.callFrame.functionName) && !under.has(n.id)) mark(n.id);
  for (const id of under) for (const t of byId.get(id)?.positionTicks ?? []) lines.set(t.line, (lines.get(t.line) ?? 0) + t.ticks);
  const dt = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    if (!under.has(id)) return;
    const n = byId.get(id)!;
    const key = `${n.callFrame.functionName || '(anonymous)'} :${n.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i + 1] ?? 0) / 1000);
  });
}

/** Runs a script in a task of its own named `task` (its compile and run), as the extension injects its scripts. */
async function loadScript(page: Page, task: string, source: string): Promise<void> {
  // As a string: a function passed from here would be transpiled with a helper (tsx's __name) that the page lacks.
  await page.evaluate(
    `new Promise((resolve) => setTimeout(function ${task}() {
      const script = document.createElement('script');
      script.textContent = ${JSON.stringify(source)};
      document.head.append(script);
      resolve();
    }, 0))`,
  );
}

const list = (xs: number[]) => xs.map(fmt).join(' ');

async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'paint';
  if (mode !== 'paint' && mode !== 'anchor') throw new Error('usage: ab.ts paint|anchor [rounds]');
  const rounds = Number(process.argv[3] ?? 5);
  const versions: Version[] = [];
  for (const [i, ref] of (process.env.BASE ?? '').split(',').filter(Boolean).entries()) {
    const sha = execSync(`git rev-parse --short ${ref}`, { cwd: ROOT }).toString().trim();
    const dir = path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), `tidemark-ab-${sha}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execSync(`git archive ${sha} lib | tar -x -C ${dir}`, { cwd: ROOT });
    versions.push({ name: `${String.fromCharCode(65 + i)} ${sha}`, script: await bundleWith(dir), approx: await approxScript(dir) });
  }
  // MAGIC=1: this tree's scripts with V8's explicit compile hint (every function compiled when the script
  // loads, as the build does for highlighter-scope-marks.js; here for the whole bench script and the
  // approximate search). MAGIC=approx: only the approximate search's script has it (as
  // highlighter-approximate.js would, if the build gave it the hint).
  const own = await bundleWith(ROOT);
  const ownApprox = await approxScript(ROOT);
  const magic = process.env.MAGIC;
  // MAGIC=approx,none (or 1,none): this tree twice, interleaved: with that hint, and without any.
  for (const m of (magic ?? '').split(',')) {
    const hint = m !== '' && m !== 'none';
    versions.push({
      name: m === 'approx' ? 'this tree, compile hint on the approximate search' : hint ? 'this tree, compile hint' : 'this tree',
      script: hint && m !== 'approx' ? HINT + own : own,
      approx: hint ? HINT + ownApprox : ownApprox,
    });
  }

  const scenario = buildScenario(Number(process.env.BENCH_SEED ?? 1), 440_000);
  const originalHtml = renderPage(scenario.original, 'The Harbour Chronicle');
  const editedHtml = renderPage(scenario.edited, 'The Harbour Chronicle');
  // JS_FLAGS=--single-threaded: V8 compiles on the main thread, so cold figures depend less on the load.
  const args = process.env.JS_FLAGS ? [...CHROMIUM_ARGS, `--js-flags=${process.env.JS_FLAGS}`] : CHROMIUM_ARGS;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args, headless: true });
  try {
    const fresh = async (html: string, script: string | null) => {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      page.setDefaultTimeout(300_000);
      await page.setContent(html, { waitUntil: 'load' });
      if (script !== null) await page.addScriptTag({ content: script });
      return page;
    };
    const first = await fresh(originalHtml, versions[versions.length - 1].script);
    const descriptors = await first.evaluate((spans) => (window as unknown as AbWindow).tidemarkBench.describe(spans), scenario.highlights as unknown[]);
    await first.close();

    const results = versions.map(() => ({ a: [] as number[], b: [] as number[], c: [] as number[], d: [] as number[], info: '' }));
    const methodMs = versions.map(() => new Map<string, number[]>());
    /** Per version, per highlight: its wall ms in each round (VERBOSE=1 lists the costliest). */
    const eachMs = versions.map(() => descriptors.map(() => [] as number[]));
    for (let r = 0; r < rounds; r++) {
      // Alternate which version goes first.
      const order = r % 2 ? [...versions.keys()].reverse() : [...versions.keys()];
      for (const v of order) {
        if (mode === 'paint') {
          const page = await fresh(originalHtml, versions[v].script);
          const { value, cpu } = await cpuOf(browser, page, ['tidemarkPaint', 'tidemarkMarkSlice'], () => page.evaluate(() => (window as unknown as AbWindow).tidemarkBench.paint(1000)));
          results[v].a.push(cpu.tidemarkPaint[0]);
          results[v].b.push(cpu.tidemarkMarkSlice.reduce((x, y) => x + y, 0));
          results[v].info = `${value.marked} elements marked, hit test ${value.hitOk ? 'ok' : 'MISSED'}`;
          const styled = await fresh(originalHtml, versions[v].script);
          const s = await cpuOf(browser, styled, ['tidemarkPaint'], () => styled.evaluate(() => (window as unknown as AbWindow).tidemarkBench.paint(1000, true)));
          results[v].c.push(s.cpu.tidemarkPaint[0]);
          await page.close();
          await styled.close();
        } else {
          // The scripts are run in the traced tasks tidemarkLoadMain and tidemarkLoadApprox, so that what a
          // compile hint adds to loading them is seen beside what it takes from indexing and anchoring.
          const page = await fresh(editedHtml, null);
          const { value, cpu } = await cpuOf(browser, page, ['tidemarkIndex', 'tidemarkAnchor', 'tidemarkLoadApprox', 'tidemarkLoadMain'], async () => {
            await loadScript(page, 'tidemarkLoadMain', versions[v].script);
            await loadScript(page, 'tidemarkLoadApprox', versions[v].approx);
            return page.evaluate((d) => (window as unknown as AbWindow).tidemarkAB.anchorEach(d), descriptors);
          });
          results[v].a.push(cpu.tidemarkIndex[0]);
          results[v].b.push(cpu.tidemarkAnchor[0]);
          results[v].c.push(cpu.tidemarkLoadApprox[0]);
          results[v].d.push(cpu.tidemarkLoadMain[0]);
          const counts: Record<string, number> = {};
          value.forEach((x, i) => eachMs[v][i].push(x.ms));
          for (const x of value) {
            counts[x.method] = (counts[x.method] ?? 0) + 1;
            const m = methodMs[v].get(x.method) ?? [];
            m.push(x.ms);
            methodMs[v].set(x.method, m);
          }
          // Placed where the truth says (within 2 characters), or rightly not placed.
          const truthOk = value.filter((x, i) => {
            const t = scenario.truth[i];
            return t === null ? x.start < 0 : x.start >= 0;
          }).length;
          results[v].info = `${JSON.stringify(counts)}; ${truthOk}/100 placed or not placed as the truth says (positions: see run.ts)`;
          await page.close();
        }
      }
    }
    console.log(`${mode}, ${rounds} rounds, CPU ms per run (${new Date().toISOString().slice(11, 16)} UTC, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`);
    versions.forEach((v, i) => {
      const r = results[i];
      if (mode === 'paint') {
        console.log(`  ${v.name}: paintMany() with marks median ${fmt(median(r.a))} [${list(r.a)}]; idle slices median ${fmt(median(r.b))} [${list(r.b)}]; registered sheet median ${fmt(median(r.c))} [${list(r.c)}]; ${r.info}`);
      } else {
        const split = [...methodMs[i]].map(([m, ms]) => `${m} ${fmt(ms.reduce((x, y) => x + y, 0) / rounds)}`).join(', ');
        const total = r.a.map((x, k) => x + r.b[k]);
        const withLoads = total.map((x, k) => x + r.c[k] + r.d[k]);
        console.log(`  ${v.name}: cold anchoring median ${fmt(median(r.b))} [${list(r.b)}]; index median ${fmt(median(r.a))} [${list(r.a)}]; index + anchoring median ${fmt(median(total))} [${list(total)}]`);
        console.log(`    loading the scripts (tasks of their own, before the index): bench page script median ${fmt(median(r.d))} [${list(r.d)}], approximate search median ${fmt(median(r.c))} [${list(r.c)}]; index + anchoring + loads median ${fmt(median(withLoads))} [${list(withLoads)}]`);
        console.log(`    wall ms per method (mean per run): ${split}; ${r.info}`);
        if (process.env.VERBOSE) {
          const costly = eachMs[i].map((ms, k) => ({ k, ms: median(ms) })).sort((a, b) => b.ms - a.ms).slice(0, 25);
          console.log(`    costliest highlights (median wall ms): ${costly.map(({ k, ms }) => `#${k} ${fmt(ms)} (${descriptors[k].text.length} ch${scenario.truth[k] === null ? ', gone' : ''})`).join(', ')}`);
        }
      }
    });
    if (process.env.PROFILE) {
      for (const v of versions) {
        const self = new Map<string, number>();
        const lines = new Map<number, number>();
        for (let r = 0; r < rounds; r++) {
          const page = await fresh(mode === 'paint' ? originalHtml : editedHtml, v.script);
          if (mode === 'paint') await profiled(page, ['tidemarkPaint'], self, lines, () => page.evaluate(() => (window as unknown as AbWindow).tidemarkBench.paint(1000)));
          else
            await profiled(page, ['tidemarkAnchor'], self, lines, async () => {
              await loadScript(page, 'tidemarkLoadApprox', v.approx);
              return page.evaluate((d) => (window as unknown as AbWindow).tidemarkAB.anchorEach(d), descriptors);
            });
          await page.close();
        }
        const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
        console.log(`  ${v.name}: self time in the task, ms per run (sampled profile, ${rounds} runs):`);
        for (const [k, ms] of top) console.log(`    ${fmt(ms / rounds).padStart(6)}  ${k}`);
        // The script's lines with the most samples (self time, any function), as bundled.
        const source = v.script.split('\n');
        const total = [...lines.values()].reduce((a, b) => a + b, 0);
        console.log(`  ${v.name}: lines with the most samples (of ${total}):`);
        for (const [line, ticks] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`    ${String(ticks).padStart(5)}  ${line}: ${source[line - 1]?.trim().slice(0, 110)}`);
      }
    }
  } finally {
    await browser.close();
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
