/**
 * Painting 1,000 highlights with scope marks (the click path), the marks loaded as the extension loads
 * them: the built `highlighter-scope-marks.js` (with V8's compile hint, see wxt.config.ts) as a script
 * of its own, in a task of its own before the paint. Versions side by side, each run in a fresh browser
 * context (a renderer of its own: nothing compiled by an earlier run), interleaved (the machine's load
 * changes from minute to minute):
 *
 *   npx tsx bench/anchoring/paint-marks.ts [rounds]
 *
 * Versions: `hint` (the built file as it ships), `no-hint` (the same without its first line) and
 * `bundled` (no script of its own: the bench bundle's copy of the marks).
 * VERSIONS=hint,no-hint picks some. BASE=<git ref>[,<ref>...] compares commits' lib/ instead: each
 * version's bench script and its marks script bundled here as the build makes it (minified, with the
 * hint), this tree as `tree` (VERSIONS=tree by default then; it may be combined with the others). DETAIL=1 adds V8's compile events to the trace and prints, per version,
 * the compile and parse time inside the load task and the paint task (the tracing of those events costs
 * time itself: read the split from it, the CPU figures from a run without it).
 * The marks script is that of the test suite's build of this tree (tests/e2e/helpers/extension-build.ts:
 * built when the sources changed); OUT=dir takes it from another Chrome build directory.
 * DIRS=<dir>[,<dir>...] runs directories holding a lib/ of their own (variants being tried) as BASE runs
 * commits; a variant may time its own steps into globalThis.tidemarkSplits (wall ms, printed per version).
 * Figures are main-thread CPU ms of the named tasks, and of the first rendering frame after the paint
 * (the frame that shows the highlights: it restyles the marked elements), from a Chromium trace.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { ensureExtensionBuilt } from '../../tests/e2e/helpers/extension-build.js';
import { loadScriptInOwnTask, marksScript } from './marks-script.js';
import { idleCallbackCpu, traceWhile } from './trace-run.js';
import { buildScenario } from './scenario.js';
import type { TraceEvent } from './trace-event.js';
import { fmt, median } from './figures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
type PaintWindow = Window & { tidemarkBench: { paint(n: number, styled?: boolean): Promise<{ marked: number; hitOk: boolean; marksFrom: string }> } };

/** V8 compile/parse events (by name: CPU ms and count) inside the first call of function `name`. */
export function compileInside(events: TraceEvent[], name: string): Record<string, { ms: number; n: number }> {
  const task = events.find((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === name);
  const out: Record<string, { ms: number; n: number }> = {};
  if (!task || task.dur === undefined) return out;
  for (const e of events) {
    if (e.tid !== task.tid || e.pid !== task.pid || e.ph !== 'X' || e.ts < task.ts || e.ts + (e.dur ?? 0) > task.ts + task.dur) continue;
    if (!process.env.DETAIL_ALL && !/compile|parse/i.test(e.name)) continue;
    const s = (out[e.name] ??= { ms: 0, n: 0 });
    s.ms += (e.tdur ?? e.dur ?? 0) / 1000;
    s.n++;
  }
  return out;
}

/**
 * The CPU ms of the first rendering frame (a main-thread task running ScheduledActionSendBeginMainFrame:
 * style, layout, paint) after the first call of function `name`: the frame that shows what it painted.
 */
export function frameAfter(events: TraceEvent[], name: string): number {
  const call = events.find((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === name);
  if (!call) return NaN;
  const frame = events
    .filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.args?.src_func === 'ScheduledActionSendBeginMainFrame' && e.tid === call.tid && e.pid === call.pid && e.ts > call.ts && typeof e.tdur === 'number')
    .sort((a, b) => a.ts - b.ts)[0];
  return frame ? frame.tdur! / 1000 : NaN;
}

/** The CPU ms of each call of each named function while `fn` runs, and the trace's events. */
export async function traced<T>(browser: Browser, page: Page, names: string[], categories: string[], fn: () => Promise<T>) {
  const { value, events } = await traceWhile(browser, page, ['devtools.timeline', 'toplevel', ...categories], fn);
  const cpu: Record<string, number[]> = {};
  for (const n of names) cpu[n] = events.filter((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === n && typeof e.tdur === 'number').map((e) => e.tdur! / 1000);
  // requestIdleCallback callbacks (the marks' idle slices: the built script's function names are minified).
  return { value, cpu, idle: idleCallbackCpu(events), events };
}

/**
 * The bench's page script and the marks script as the build makes it (a minified script of its own
 * with the compile hint), both from the lib/ under `root` (this tree, or a commit's lib/ taken with git
 * archive, run with this tree's bench code).
 */
async function versionAt(root: string): Promise<{ script: string; marks: string }> {
  if (root !== ROOT) {
    fs.cpSync(path.join(ROOT, 'bench/anchoring'), path.join(root, 'bench/anchoring'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'tests/anchoring/fixtures'), path.join(root, 'tests/anchoring/fixtures'), { recursive: true });
    if (!fs.existsSync(path.join(root, 'node_modules'))) fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  }
  const script = await bundleForPage({ file: path.join(root, 'bench/anchoring/in-page.ts') });
  const out = await build({
    stdin: {
      contents: `import { ScopeMarks } from './lib/painting/scope-marks.js';\nglobalThis['__tidemarkPart_scope-marks'] = () => new ScopeMarks();`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'chrome120',
    write: false,
    logLevel: 'error',
  });
  return { script, marks: `//# allFunctionsCalledOnLoad\n${out.outputFiles[0].text}` };
}

const list = (xs: number[]) => xs.map(fmt).join(' ');

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 5);
  const detail = !!process.env.DETAIL;
  const own = await bundleForPage({ file: path.join(ROOT, 'bench/anchoring/in-page.ts') });
  type Version = { name: string; script: string; marks: string | null };
  const versions: Version[] = [];
  const bases = (process.env.BASE ?? '').split(',').filter(Boolean);
  for (const ref of bases) {
    const sha = execSync(`git rev-parse --short ${ref}`, { cwd: ROOT }).toString().trim();
    const dir = path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), `tidemark-paint-marks-${sha}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execSync(`git archive ${sha} lib | tar -x -C ${dir}`, { cwd: ROOT });
    versions.push({ name: sha, ...(await versionAt(dir)) });
  }
  // DIRS=<dir>[,<dir>...]: directories holding a lib/ of their own (a variant being tried), run as BASE's commits are.
  const dirs = (process.env.DIRS ?? '').split(',').filter(Boolean);
  for (const dir of dirs) versions.push({ name: path.basename(dir), ...(await versionAt(path.resolve(dir))) });
  const picked = (process.env.VERSIONS ?? (bases.length || dirs.length ? 'tree' : 'hint,no-hint,bundled')).split(',').filter(Boolean);
  for (const name of picked) {
    if (name === 'tree') versions.push({ name: 'this tree', ...(await versionAt(ROOT)) });
    else if (name === 'hint' || name === 'no-hint') versions.push({ name, script: own, marks: marksScript(process.env.OUT ?? (await ensureExtensionBuilt()), name === 'hint') });
    else if (name === 'bundled') versions.push({ name, script: own, marks: null });
    else throw new Error(`unknown version ${name}: hint, no-hint, bundled or tree`);
  }
  const html = renderPage(buildScenario(Number(process.env.BENCH_SEED ?? 1), 440_000).original, 'The Harbour Chronicle');
  // JS_FLAGS=--single-threaded: V8 compiles on the main thread, so runs depend less on the load (compare versions with it; report figures without it).
  const args = process.env.JS_FLAGS ? [...CHROMIUM_ARGS, `--js-flags=${process.env.JS_FLAGS}`] : CHROMIUM_ARGS;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args, headless: true });
  const categories = detail ? ['v8', 'disabled-by-default-v8.compile', ...(process.env.DETAIL_ALL ? ['blink', 'v8.execute', 'disabled-by-default-devtools.timeline'] : [])] : [];
  try {
    const results = versions.map(() => ({ load: [] as number[], make: [] as number[], paint: [] as number[], slices: [] as number[], frame: [] as number[], info: '', compile: new Map<string, { ms: number; n: number }[]>(), splits: new Map<string, number[]>() }));
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [...versions.keys()].reverse() : [...versions.keys()];
      for (const v of order) {
        const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
        const page = await context.newPage();
        page.setDefaultTimeout(300_000);
        await page.setContent(html, { waitUntil: 'load' });
        await page.addScriptTag({ content: versions[v].script });
        const marks = versions[v].marks;
        const { value, cpu, idle, events } = await traced(browser, page, ['tidemarkLoadMarks', 'tidemarkMakeMarks', 'tidemarkPaint'], categories, async () => {
          if (marks !== null) await loadScriptInOwnTask(page, marks);
          return page.evaluate(() => (window as unknown as PaintWindow).tidemarkBench.paint(1000));
        });
        const res = results[v];
        // A variant being tried may time its own steps (wall ms) into globalThis.tidemarkSplits: printed per version.
        const splits = (await page.evaluate('globalThis.tidemarkSplits ?? null')) as Record<string, number> | null;
        for (const [k, ms] of Object.entries(splits ?? {})) res.splits.set(k, [...(res.splits.get(k) ?? []), ms]);
        if (marks !== null) res.load.push(cpu.tidemarkLoadMarks[0]);
        res.make.push(cpu.tidemarkMakeMarks[0]);
        res.paint.push(cpu.tidemarkPaint[0]);
        res.slices.push(idle.reduce((a, b) => a + b, 0));
        res.frame.push(frameAfter(events, 'tidemarkPaint'));
        res.info = `${value.marked} elements marked, hit test ${value.hitOk ? 'ok' : 'MISSED'}, marks from ${value.marksFrom}`;
        if (detail) {
          for (const task of ['tidemarkLoadMarks', 'tidemarkMakeMarks', 'tidemarkPaint']) {
            const c = compileInside(events, task);
            for (const [k, s] of Object.entries(c)) res.compile.set(`${task} ${k}`, [...(res.compile.get(`${task} ${k}`) ?? []), s]);
          }
        }
        await context.close();
      }
    }
    console.log(`paintMany() of 1000 highlights with scope marks, ${rounds} rounds, fresh context each, CPU ms (${new Date().toISOString().slice(11, 16)} UTC, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})${detail ? ', V8 compile events traced' : ''}${process.env.JS_FLAGS ? `, V8 flags ${process.env.JS_FLAGS}` : ''}`);
    versions.forEach((v, i) => {
      const r = results[i];
      const load = v.marks === null ? 'no script of its own' : `loading the marks script median ${fmt(median(r.load))} [${list(r.load)}]`;
      console.log(`  ${v.name}: ${load}; making the marks median ${fmt(median(r.make))} [${list(r.make)}]; paintMany() median ${fmt(median(r.paint))} [${list(r.paint)}]; idle slices median ${fmt(median(r.slices))} [${list(r.slices)}]; the frame after the paint median ${fmt(median(r.frame))} [${list(r.frame)}]; ${r.info}`);
      for (const [k, ms] of r.splits) console.log(`    ${k} (wall, the variant's own timing): median ${fmt(median(ms))} [${list(ms)}]`);
      for (const [k, ss] of [...r.compile].sort()) console.log(`    ${k}: median ${fmt(median(ss.map((s) => s.ms)))} ms, ${median(ss.map((s) => s.n))} events [${list(ss.map((s) => s.ms))}]`);
    });
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  void main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
