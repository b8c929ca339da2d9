// What a live page costs while the highlighter keeps its highlights painted, in Chromium with the built
// extension against the real server on loopback:
//
//   npx tsx bench/extension/page-changes.ts [extension dir ...]
//
// Without a directory, this tree's extension is built and measured; with several, each is measured in
// turn (say, a build of another commit beside this one's). The page is the generated API reference of
// bench/anchoring (1.1M characters of text) with 100 highlights saved as another device would have;
// the reader's selection injects the highlighter, which paints them. Then the page changes the way live
// pages do, and the renderer's main-thread CPU is read from a trace (every task, the page's own and
// the frames included) over the 1.2 s after each change (the highlighter waits 400 ms after a change):
// - a clock at the top ticks, far from every highlight (10 times);
// - a highlighted paragraph's text is edited (5 times, each time another one);
// - for comparison, the clock ticking on the same page where the highlighter was never injected.
// Figures only; nothing here asserts timings.
import type { CDPSession, Page } from '@playwright/test';
import { ensureExtensionBuilt } from '../../tests/e2e/helpers/extension-build.js';
import { countPainted, longPageScenario, openLongPage, until } from './long-page-session.js';

const HIGHLIGHTS = 100;
const TICKS = 10;
const EDITS = 5;
/** After each change: the highlighter's 400 ms wait, its work, the frames after it. */
const WINDOW_MS = 1200;

type TraceEv = { name: string; ph?: string; pid?: number; tid?: number; tdur?: number; args?: { name?: string } };

/** The renderer main thread's task CPU (ms) while `fn` runs. */
async function mainThreadCpu(cdp: CDPSession, fn: () => Promise<void>): Promise<number> {
  const events: TraceEv[] = [];
  const on = cdp as unknown as { on(e: string, f: (x: { value: TraceEv[] }) => void): void; off(e: string, f: (x: { value: TraceEv[] }) => void): void; once(e: string, f: () => void): void };
  const onData = (e: { value: TraceEv[] }) => void events.push(...e.value);
  on.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { categories: 'toplevel,__metadata', transferMode: 'ReportEvents' });
  await fn();
  const done = new Promise<void>((resolve) => on.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  on.off('Tracing.dataCollected', onData);
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events
    .filter((e) => (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`) && typeof e.tdur === 'number')
    .reduce((sum, e) => sum + e.tdur! / 1000, 0);
}

/** Per change, the CPU over the window after it. */
async function changes(page: Page, cdp: CDPSession, count: number, change: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      await mainThreadCpu(cdp, async () => {
        await change(i);
        await page.waitForTimeout(WINDOW_MS);
      }),
    );
  }
  return out;
}

const tick = (page: Page, i: number) => page.evaluate((n) => void (document.getElementById('bench-clock')!.textContent = `12:00:${String(n).padStart(2, '0')}`), i);

async function measure(extensionDir: string, html: string, spans: unknown[]) {
  const session = await openLongPage(extensionDir, html, spans, HIGHLIGHTS);
  const { browser, site, page } = session;
  try {
    const plainUrl = site.add('/live-reference-unsaved', { title: 'Store API reference', body: html });
    await page.evaluate(() => document.body.prepend(Object.assign(document.createElement('div'), { id: 'bench-clock', textContent: '12:00:00' })));
    await page.waitForTimeout(1500); // the highlighter's work after that change done
    const cdp = await browser.context.newCDPSession(page);
    const ticks = await changes(page, cdp, TICKS, (i) => tick(page, i + 1));
    // Each edit appends to another highlighted paragraph's text (that highlight's text node is replaced).
    const edits = await changes(page, cdp, EDITS, (i) =>
      page.evaluate((n) => {
        const h = (CSS as unknown as { highlights: Map<string, Set<AbstractRange>> }).highlights;
        const ranges = [...h.values()].flatMap((set) => [...set]);
        const p = ranges[n * 7]?.startContainer.parentElement?.closest('p, li, dd, td');
        if (!p) throw new Error('no highlighted paragraph');
        p.textContent = `${p.textContent} (edited ${n})`;
      }, i),
    );
    await until('the highlights painted after the edits', async () => (await countPainted(page)) >= HIGHLIGHTS - EDITS);
    await cdp.detach();
    // The same page where the highlighter was never injected (not saved, nothing selected).
    const plain = await browser.context.newPage();
    await plain.goto(plainUrl);
    await plain.evaluate(() => document.body.prepend(Object.assign(document.createElement('div'), { id: 'bench-clock', textContent: '12:00:00' })));
    await plain.waitForTimeout(1000);
    const plainCdp = await browser.context.newCDPSession(plain);
    const plainTicks = await changes(plain, plainCdp, TICKS, (i) => tick(plain, i + 1));
    await plainCdp.detach();
    return { ticks, edits, plainTicks };
  } finally {
    await session.close();
  }
}

const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(1)} ms (${s[0].toFixed(1)}-${s[s.length - 1].toFixed(1)})`;
};

async function main() {
  const dirs = process.argv.slice(2);
  if (!dirs.length) dirs.push(await ensureExtensionBuilt());
  const { html, spans } = longPageScenario();
  console.log(`Live page: ${html.length.toLocaleString('en')} characters of HTML, ${HIGHLIGHTS} highlights; renderer main-thread CPU over ${WINDOW_MS} ms after each change`);
  for (const dir of dirs) {
    const f = await measure(dir, html, spans);
    console.log(`\n${dir}`);
    console.log(`  clock tick far from every highlight (${TICKS}):  ${fmt(f.ticks)}`);
    console.log(`  a highlighted paragraph edited (${EDITS}):      ${fmt(f.edits)}`);
    console.log(`  clock tick, highlighter never injected (${TICKS}): ${fmt(f.plainTicks)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
