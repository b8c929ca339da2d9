/**
 * The article's cold index + anchoring for several versions of lib/anchoring side by side, measured as
 * run.ts measures its cold target: `new TextIndex(document)` in a task of its own (tidemarkIndex), then
 * `anchorAll` with approximate search in the same script (tidemarkAnchor), each sample a page in a fresh
 * browser context; the versions interleaved (the machine's load changes from minute to minute).
 *
 *   npx tsx bench/anchoring/cold-ab.ts [rounds]              # default 7 rounds
 *   VERSIONS=26f20ae,main,. npx tsx bench/anchoring/cold-ab.ts 9
 *
 * VERSIONS: git refs (their lib/, taken with git archive) or `.` for this tree; default `26f20ae,.`
 * (26f20ae: a baseline with short stored context). The page glue uses only what every version has
 * (TextIndex, anchorAll, describeOffsets, and offsetAt as a function or as a TextIndex method), so it
 * runs older code unchanged. Each version describes the highlights on the original page itself
 * (as it would have stored them), then anchors them on both pages; accuracy is judged against the
 * scenario's truth (within 2 characters at both ends, or not placed when the text is gone).
 * SAME_TAB=1 runs every sample of a version in one tab (the page set again, the renderer and V8's
 * caches kept), a warmer measure. PAGES=edited (or original) runs one page.
 * JS_FLAGS=--single-threaded passes that V8 flag (compiles on the main thread: less load-dependent).
 * Also printed: the CPU of loading each version's script (a task of its own, before the index; not
 * part of the target) and the load average at every round.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage, type SpanSpec } from '../../tests/anchoring/fixtures/article-model.js';
import { buildScenario } from './scenario.js';
import { traceWhile } from './trace-run.js';
import { fmt, median } from './figures.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Span = { start: number; end: number };
type Placed = { start: number; end: number; method: string };
interface Glue {
  describe(spans: SpanSpec[]): unknown[];
  offsets(spans: Array<SpanSpec | null>): Array<Span | null>;
  run(descriptors: unknown[]): Promise<Placed[]>;
}
type GlueWindow = Window & { tidemarkColdAB: Glue };

/** The page glue for a lib/ whose offsetAt is a function (`modern`) or a TextIndex method (older code). */
function glueSource(modern: boolean): string {
  return `
import { TextIndex, anchorAll, describeOffsets${modern ? ', offsetAt' : ''} } from './lib/anchoring/index.js';
const offsetOf = (index, el) => ${modern ? 'offsetAt(index, el, 0)' : 'index.offsetAt(el, 0)'};
function spanOffsets(index, spans) {
  const starts = new Map();
  for (const el of document.querySelectorAll('[data-s]')) starts.set(el.getAttribute('data-s'), offsetOf(index, el));
  return spans.map((s) => s && { start: starts.get(s.startS) + s.startC, end: starts.get(s.endS) + s.endC });
}
window.tidemarkColdAB = {
  describe(spans) {
    const index = new TextIndex(document);
    return spanOffsets(index, spans).map((o) => describeOffsets(index, o.start, o.end));
  },
  offsets(spans) {
    return spanOffsets(new TextIndex(document), spans);
  },
  run(descriptors) {
    return new Promise((resolve) => {
      let index = null;
      setTimeout(function tidemarkIndex() {
        index = new TextIndex(document);
        setTimeout(function tidemarkAnchor() {
          const results = anchorAll(index, descriptors);
          resolve(results.map((r) => (r.status === 'anchored' ? { start: r.start, end: r.end, method: r.method } : { start: -1, end: -1, method: r.status })));
        }, 0);
      }, 0);
    });
  },
};
`;
}

const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const list = (xs: number[]) => xs.map(fmt).join(' ');

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 7);
  const refs = (process.env.VERSIONS ?? '26f20ae,.').split(',').filter(Boolean);
  const versions: Array<{ name: string; script: string }> = [];
  for (const ref of refs) {
    let dir = ROOT;
    let name = 'this tree';
    if (ref !== '.') {
      const sha = execSync(`git rev-parse --short ${ref}`, { cwd: ROOT }).toString().trim();
      dir = path.join(fs.realpathSync(os.tmpdir()), `tidemark-cold-ab-${sha}`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      execSync(`git archive ${sha} lib | tar -x -C ${dir}`, { cwd: ROOT });
      name = ref === sha ? sha : `${ref} (${sha})`;
    }
    const modern = fs.existsSync(path.join(dir, 'lib/anchoring/range-offsets.ts'));
    versions.push({ name, script: await bundleForPage({ source: glueSource(modern), resolveDir: dir }) });
  }

  const scenario = buildScenario(Number(process.env.BENCH_SEED ?? 1), 440_000);
  const html = { original: renderPage(scenario.original, 'The Harbour Chronicle'), edited: renderPage(scenario.edited, 'The Harbour Chronicle') };
  const pages = (process.env.PAGES ?? 'edited,original').split(',') as Array<keyof typeof html>;
  const sameTab = Boolean(process.env.SAME_TAB);
  const args = process.env.JS_FLAGS ? [...CHROMIUM_ARGS, `--js-flags=${process.env.JS_FLAGS}`] : CHROMIUM_ARGS;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args, headless: true });
  try {
    const tabs = new Map<string, Page>();
    /** A page showing `content`: in a fresh browser context, or (SAME_TAB) the version's one tab. */
    const open = async (content: string, tab?: string): Promise<Page> => {
      let page = tab !== undefined && sameTab ? tabs.get(tab) : undefined;
      if (!page) {
        const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
        page = await context.newPage();
        page.setDefaultTimeout(300_000);
        if (tab !== undefined && sameTab) tabs.set(tab, page);
      }
      await page.setContent(content, { waitUntil: 'load' });
      return page;
    };
    const glue = (page: Page, script: string) => page.addScriptTag({ content: script });

    // Each version's own descriptors, and the truth as offsets (this tree's index on each page).
    const descriptors = new Map<string, unknown[]>();
    for (const v of versions) {
      const page = await open(html.original);
      await glue(page, v.script);
      descriptors.set(v.name, await page.evaluate((spans) => (window as unknown as GlueWindow).tidemarkColdAB.describe(spans), scenario.highlights));
      await page.context().close();
    }
    const truth = {} as Record<keyof typeof html, Array<Span | null>>;
    for (const p of ['original', 'edited'] as const) {
      const page = await open(html[p]);
      await glue(page, versions[versions.length - 1].script);
      const spans = p === 'edited' ? scenario.truth : scenario.highlights;
      truth[p] = await page.evaluate((s) => (window as unknown as GlueWindow).tidemarkColdAB.offsets(s), spans);
      await page.context().close();
    }
    const first = JSON.stringify(descriptors.get(versions[0].name));
    const sameDescriptors = versions.filter((v) => JSON.stringify(descriptors.get(v.name)) === first).map((v) => v.name);

    type Samples = { index: number[]; anchor: number[]; load: number[]; judged: string };
    const samples = new Map<string, Samples>();
    const loads = [loadAverage()];
    for (let r = 0; r < rounds; r++) {
      for (const p of pages) {
        for (const v of r % 2 ? [...versions].reverse() : versions) {
          const page = await open(html[p], v.name);
          const { value, events } = await traceWhile(browser, page, ['devtools.timeline'], async () => {
            // The script run in a task of its own, as the extension injects its scripts.
            await page.evaluate(
              `new Promise((resolve) => setTimeout(function tidemarkLoadScript() {
                const script = document.createElement('script');
                script.textContent = ${JSON.stringify(v.script)};
                document.head.append(script);
                resolve();
              }, 0))`,
            );
            return page.evaluate((d) => (window as unknown as GlueWindow).tidemarkColdAB.run(d), descriptors.get(v.name)!);
          });
          const cpu = (name: string) =>
            events.filter((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === name && typeof e.tdur === 'number').reduce((sum, e) => sum + e.tdur! / 1000, 0);
          const key = `${p} ${v.name}`;
          const s = samples.get(key) ?? { index: [], anchor: [], load: [], judged: '' };
          s.index.push(cpu('tidemarkIndex'));
          s.anchor.push(cpu('tidemarkAnchor'));
          s.load.push(cpu('tidemarkLoadScript'));
          let correct = 0;
          let wrong = 0;
          let orphaned = 0;
          const methods: Record<string, number> = {};
          value.forEach((x, i) => {
            methods[x.method] = (methods[x.method] ?? 0) + 1;
            const t = truth[p][i];
            if (!t) {
              if (x.start < 0) correct++;
              else wrong++;
            } else if (x.start < 0) orphaned++;
            else if (Math.abs(x.start - t.start) <= 2 && Math.abs(x.end - t.end) <= 2) correct++;
            else wrong++;
          });
          s.judged = `${correct} correct, ${wrong} wrong, ${orphaned} orphaned ${JSON.stringify(methods)}`;
          samples.set(key, s);
          if (!sameTab) await page.context().close();
        }
      }
      loads.push(loadAverage());
    }
    console.log(
      `cold index + anchoring, CPU ms from a trace, ${rounds} rounds, ${sameTab ? 'one tab per version (the page set again each time)' : 'a fresh browser context per sample'}` +
        `${process.env.JS_FLAGS ? `, --js-flags=${process.env.JS_FLAGS}` : ''}; ${new Date().toISOString().slice(0, 16)} UTC`,
    );
    console.log(`load average at the start and after each round: ${loads.join(' | ')}`);
    console.log(`descriptors (each version describes the original page): the same as ${versions[0].name}'s for ${sameDescriptors.join(', ')}`);
    for (const p of pages) {
      for (const v of versions) {
        const s = samples.get(`${p} ${v.name}`)!;
        const total = s.index.map((x, i) => x + s.anchor[i]);
        console.log(`  ${p.padEnd(8)} ${v.name.padEnd(18)} index + anchoring ${fmt(median(total))} [${list(total)}]`);
        console.log(`  ${''.padEnd(8)} ${''.padEnd(18)} index ${fmt(median(s.index))} [${list(s.index)}]; anchoring ${fmt(median(s.anchor))} [${list(s.anchor)}]`);
        console.log(`  ${''.padEnd(8)} ${''.padEnd(18)} loading the script ${fmt(median(s.load))} [${list(s.load)}]; ${s.judged}`);
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
