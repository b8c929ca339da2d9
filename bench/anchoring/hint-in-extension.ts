/**
 * Does V8's compile hint of `highlighter-scope-marks.js` (`//# allFunctionsCalledOnLoad`, wxt.config.ts
 * build:done) take effect where the extension runs it: injected by chrome.scripting.executeScript into
 * the page's isolated world? The built extension (the test suite's build of this tree) is loaded into
 * Chromium with a copy of that script without the hint beside it; for each, in a fresh tab of the
 * article page (served on localhost, which the extension may script), the service worker injects the
 * script (the load), then runs in the same isolated world what the painter does with the marks for
 * 1,000 ranges (mark: the use). A trace of the tab's renderer gives V8's compile events of
 * each step: with the hint in effect the marks' functions are compiled in the load, not in the use.
 *
 *   npx tsx bench/anchoring/hint-in-extension.ts [rounds]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { ExtensionBrowser } from '../../tests/e2e/helpers/extension-browser.js';
import { ensureExtensionBuilt } from '../../tests/e2e/helpers/extension-build.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildScenario } from './scenario.js';
import type { TraceEvent } from './trace-event.js';

const CATEGORIES = ['devtools.timeline', 'v8', 'disabled-by-default-v8.compile'];

/** The renderer main thread's compile events (count, CPU ms by name) while `fn` runs, traced over CDP. */
async function compileWhile(page: Page, fn: () => Promise<unknown>): Promise<Record<string, { n: number; ms: number }>> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: CATEGORIES.join(','), transferMode: 'ReportEvents' });
  await fn();
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const out: Record<string, { n: number; ms: number }> = {};
  for (const e of events) {
    if (!main || e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !/^V8\.(CompileCode|ParseFunction|CompileLazy|CompileIgnition)$/.test(e.name)) continue;
    const s = (out[e.name] ??= { n: 0, ms: 0 });
    s.n++;
    s.ms += (e.tdur ?? e.dur ?? 0) / 1000;
  }
  return out;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const built = await ensureExtensionBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-hint-'));
  fs.cpSync(built, dir, { recursive: true });
  const hinted = fs.readFileSync(path.join(dir, 'highlighter-scope-marks.js'), 'utf8');
  const HINT = '//# allFunctionsCalledOnLoad\n';
  if (!hinted.startsWith(HINT)) throw new Error('the built highlighter-scope-marks.js has no compile hint');
  fs.writeFileSync(path.join(dir, 'highlighter-scope-marks-nohint.js'), hinted.slice(HINT.length));

  const html = renderPage(buildScenario(1, 440_000).original, 'The Harbour Chronicle');
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/article`;
  const b = await ExtensionBrowser.launch(dir);
  try {
    const worker = await b.worker();
    const sums: Record<string, Record<string, number[]>> = {};
    for (let r = 0; r < rounds; r++) {
      for (const file of r % 2 ? ['highlighter-scope-marks-nohint.js', 'highlighter-scope-marks.js'] : ['highlighter-scope-marks.js', 'highlighter-scope-marks-nohint.js']) {
        const page = await b.context.newPage();
        await page.setViewportSize({ width: 1200, height: 900 });
        await page.goto(url);
        // Strings, not functions: tsx would wrap the functions in a helper that neither world has.
        const useMarks = `() => {
          const marks = globalThis['__tidemarkPart_scope-marks']();
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          const ranges = [];
          for (let n = walker.nextNode(); n && ranges.length < 1000; n = walker.nextNode()) {
            if (n.data.length < 30) continue;
            const range = document.createRange();
            range.setStart(n, 2);
            range.setEnd(n, 20);
            ranges.push(range);
          }
          marks.mark(ranges.map((range, i) => ({ key: 'h' + i, ranges: range, color: i % 2 ? 'yellow' : 'blue', hasNote: i % 10 === 0 })));
        }`;
        const inject = (what: 'load' | 'use') =>
          worker.evaluate(`(async () => {
            const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(url)} });
            await chrome.scripting.executeScript(${what === 'load' ? `{ target: { tabId: tab.id }, files: [${JSON.stringify(file)}] }` : `{ target: { tabId: tab.id }, func: ${useMarks} }`});
          })()`);
        const load = await compileWhile(page, () => inject('load'));
        const use = await compileWhile(page, () => inject('use'));
        const key = file.includes('nohint') ? 'without the hint' : 'with the hint (as built)';
        sums[key] ??= {};
        for (const [step, c] of [['load', load], ['use', use]] as const) {
          for (const [name, s] of Object.entries(c)) {
            (sums[key][`${step} ${name} count`] ??= []).push(s.n);
            (sums[key][`${step} ${name} ms`] ??= []).push(Math.round(s.ms * 100) / 100);
          }
        }
        await page.close();
      }
    }
    console.log(`Compile hint in the extension's isolated world (${rounds} tabs each, ${new Date().toISOString().slice(11, 16)} UTC, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}): V8 compile events of the renderer's main thread`);
    for (const [key, s] of Object.entries(sums)) {
      console.log(`  ${key}:`);
      for (const [k, v] of Object.entries(s).sort()) console.log(`    ${k}: ${v.join(' ')}`);
    }
  } finally {
    await b.close();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
