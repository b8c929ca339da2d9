/**
 * The long page painted from an isolated world (as the extension's content script runs), this tree's code
 * against another copy's, interleaved: each round loads the original and the edited page in a fresh
 * browser context for each copy, in alternating order, and runs `tidemarkLongPage.paintAll` (in-page.ts)
 * with the same 120 stored highlights.
 *
 *   npx tsx bench/anchoring/isolated-ab.ts <other tree> [rounds]     # rounds default 4
 *
 * `<other tree>` is a checkout with its own bench/anchoring/in-page.ts, e.g. `git worktree add --detach
 * /tmp/base main` and a `node_modules` link. CLASSED=1 puts a class on every sentence's <span>, every
 * <code> and <strong> (32k classed elements, as real pages have; the page's one hiding rule stays
 * `.ad { display: none }`). Prints, per page and copy: wall ms after idle (index + anchoring), the
 * renderer's main-thread CPU, the longest stretch between two of the work's yields, and the highlights
 * painted. Figures only; nothing is asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
import { fmt, median } from './figures.js';

interface Painted {
  total: number;
  tIndex: number;
  tAnchor: number;
  painted: number;
}

/** Records the longest stretch of work between two `scheduler.yield()`s (the slices), from the first yield on. */
const WATCH_SLICES = `(() => {
  const original = scheduler.yield.bind(scheduler);
  let last = -1;
  globalThis.__longestSlice = 0;
  scheduler.yield = () => {
    const now = performance.now();
    if (last >= 0) globalThis.__longestSlice = Math.max(globalThis.__longestSlice, now - last);
    return original().then(() => { last = performance.now(); });
  };
})()`;

const withClasses = (html: string): string =>
  html
    .replace(/<span data-s=/g, '<span class="sentence" data-s=')
    .replace(/<code>/g, '<code class="tok">')
    .replace(/<strong>/g, '<strong class="label">');

async function main(): Promise<void> {
  const other = process.argv[2];
  if (!other || !fs.existsSync(path.join(other, 'bench/anchoring/in-page.ts'))) {
    console.error('Usage: npx tsx bench/anchoring/isolated-ab.ts <other tree with bench/anchoring/in-page.ts> [rounds]');
    process.exit(2);
  }
  const rounds = Number(process.argv[3] ?? 4);
  const here = fileURLToPath(new URL('../..', import.meta.url));
  const trees = { other: path.resolve(other), this: here };
  const scripts: Record<string, string> = {};
  for (const [name, dir] of Object.entries(trees)) scripts[name] = await bundleForPage({ file: path.join(dir, 'bench/anchoring/in-page.ts') });
  const api = buildApiScenario(1, 1_100_000);
  const dress = process.env.CLASSED ? withClasses : (html: string) => html;
  const pages = { original: dress(renderPage(api.original, 'Store API reference')), edited: dress(renderPage(api.edited, 'Store API reference')) };
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    // The stored highlights, described once on the original page by this tree's code.
    const describer = await browser.newPage();
    await describer.setContent(pages.original);
    await describer.addScriptTag({ content: scripts.this });
    const descriptors = await describer.evaluate(`window.tidemarkBench.describe(${JSON.stringify(api.highlights)})`);
    await describer.close();

    const rows: Record<string, string[]> = {};
    const cpus: Record<string, number[]> = {};
    for (let round = 0; round < rounds; round++) {
      for (const which of ['original', 'edited'] as const) {
        for (const tree of round % 2 ? ['this', 'other'] : ['other', 'this']) {
          const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
          const page = await context.newPage();
          await page.setContent(pages[which], { waitUntil: 'load' });
          const cdp = await context.newCDPSession(page);
          const { frameTree } = await cdp.send('Page.getFrameTree');
          const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'tidemark-bench' });
          const run = async <T>(expression: string): Promise<T> => {
            const answer = await cdp.send('Runtime.evaluate', { expression, contextId: executionContextId, awaitPromise: true, returnByValue: true });
            if (answer.exceptionDetails) throw new Error(`In the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
            return answer.result.value as T;
          };
          await run(scripts[tree]);
          await run('window.tidemarkLongPage.settle()');
          await run(WATCH_SLICES);
          await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
          const threadMs = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
          const cpuBefore = await threadMs();
          const painted = await run<Painted>(`window.tidemarkLongPage.paintAll(${JSON.stringify(descriptors)})`);
          const cpu = (await threadMs()) - cpuBefore;
          const slice = await run<number>('globalThis.__longestSlice');
          const key = `${which.padEnd(8)} ${tree.padEnd(5)}`;
          (cpus[key] ??= []).push(cpu);
          (rows[key] ??= []).push(`${fmt(painted.total)} (${fmt(painted.tIndex)} + ${fmt(painted.tAnchor)}) cpu ${fmt(cpu)} slice ${fmt(slice)} painted ${painted.painted}`);
          await context.close();
        }
      }
    }
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(`Long page${process.env.CLASSED ? ' (classed)' : ''} from an isolated world, ${rounds} fresh pages each; this tree against ${trees.other}; load average ${load}`);
    console.log('wall ms after idle (index + anchoring), main-thread CPU ms, longest slice ms:');
    for (const [key, values] of Object.entries(rows).sort()) console.log(`  ${key} CPU median ${fmt(median(cpus[key]))} | ${values.join(' | ')}`);
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error('isolated-ab failed:', error);
  process.exit(1);
});
