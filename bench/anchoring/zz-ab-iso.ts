import { chromium } from 'playwright-core';
import fs from 'node:fs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
// A/B of paintAll in an isolated world: A = /work/wt-base, B = this tree. Fresh context per run.
async function main() {
  const trees = { A: '/tmp/base', B: process.cwd() };
  const scripts: Record<string, string> = {};
  for (const [k, dir] of Object.entries(trees)) scripts[k] = await bundleForPage({ file: `${dir}/bench/anchoring/in-page.ts` });
  const api = buildApiScenario(1, 1_100_000);
  const pages = { original: renderPage(api.original, 'x'), edited: renderPage(api.edited, 'x') };
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  let d: unknown;
  { const page = await browser.newPage(); await page.setContent(pages.original); await page.addScriptTag({ content: scripts.B }); d = await page.evaluate((s) => (window as any).tidemarkBench.describe(s), api.highlights as any); await page.close(); }
  const res: Record<string, string[]> = {};
  const cpuRes: Record<string, number[]> = {};
  const world = process.env.WORLD ?? 'isolated';
  for (let r = 0; r < Number(process.argv[2] ?? 4); r++) for (const which of ['original', 'edited'] as const) for (const k of (r % 2 ? ['B', 'A'] : ['A', 'B'])) {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } }); const page = await ctx.newPage();
    await page.setContent(pages[which], { waitUntil: 'load' });
    const cdp = await ctx.newCDPSession(page);
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const contextId = world === 'main' ? undefined : (await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'tm' })).executionContextId;
    const run = async (expression: string) => { const v = await cdp.send('Runtime.evaluate', { expression, contextId, awaitPromise: true, returnByValue: true }); if (v.exceptionDetails) throw new Error(JSON.stringify(v.exceptionDetails)); return v.result.value; };
    await run(scripts[k]); await run('window.tidemarkLongPage.settle()');
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const tt = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m: any) => m.name === 'ThreadTime')!.value * 1000;
    await run(`(() => { const orig = scheduler.yield.bind(scheduler); let last = -1; globalThis.__max = 0; scheduler.yield = () => { const now = performance.now(); if (last >= 0 && now - last > __max) __max = now - last; return orig().then(() => { last = performance.now(); }); }; })()`);
    const cpu0 = await tt();
    const v = await run(`window.tidemarkLongPage.paintAll(${JSON.stringify(d)})`);
    const cpu = (await tt()) - cpu0;
    const maxSlice = await run('globalThis.__max');
    (cpuRes[`${which} ${k}`] ??= []).push(cpu);
    (res[`${which} ${k}`] ??= []).push(`${v.total.toFixed(0)}(${v.tIndex.toFixed(0)}+${v.tAnchor.toFixed(0)})c${cpu.toFixed(0)}s${maxSlice.toFixed(0)}p${v.painted}${v.longTasks.length ? 'L' + v.longTasks.map((x: number) => Math.round(x)).join('/') : ''}`);
    await ctx.close();
  }
  console.log(`load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  for (const [k, v] of Object.entries(res).sort()) { const c = [...cpuRes[k]].sort((a, b) => a - b); console.log(k.padEnd(12), 'cpu min', c[0].toFixed(1), 'med', c[c.length >> 1].toFixed(1), '|', v.join(' ')); }
  await browser.close();
}
main();
