// The web app's speed with a 100k-bookmark account, in headless Chromium against the real server on
// loopback (SQLite), printed next to the targets (never asserted):
// - open -> first list visible: from the navigation's start to the first frame showing rows, with the
//   service worker installed and controlling the page (the installed app opened again);
// - last keystroke -> results: from the last `input` event of a typed search to the frame showing
//   the API's answer for it (the box waits for a pause in typing, then asks once);
// - the initial JavaScript: what the page loads before its first list, gzipped (-9).
// The account is seeded by the `import` command from a generated Netscape file: the server's own
// bulk write path (bookmarks, tags, the search index), in one process, without HTTP per item.
//   npm run bench:web [-- --bookmarks 100000 --runs 7 --app <a built dist/web>]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { TidemarkServer } from '../../tests/e2e/helpers/tidemark-server.js';
import { ensureWebBuilt } from '../../tests/e2e/helpers/web-build.js';
import { runCli } from '../../tests/helpers/process.js';
import { generateNetscape } from '../import/generate.js';

const { values } = parseArgs({ options: { bookmarks: { type: 'string' }, runs: { type: 'string' }, app: { type: 'string' } } });
const TOTAL = Number(values.bookmarks ?? 100_000);
const RUNS = Number(values.runs ?? 7);
const EMAIL = 'web-bench@example.test';
const PASSWORD = 'correct horse battery';
const QUERIES = ['article 4242', '#topic7', 'friends -number', 'domain:site42.example.com', '#area3 created:>2020-09', 'Article number 99'];

/** Installed before the page's own scripts: the first frame with rows, and the last input and list change. */
const OBSERVE = () => {
  const w = window as unknown as { __bench: { firstRows: number | null; lastInput: number; lastChange: number } };
  w.__bench = { firstRows: null, lastInput: 0, lastChange: 0 };
  // Epoch milliseconds, to line up with the server's clock on the same machine. (No named helper
  // here: this source runs in the page, without the bundler's helpers.)
  const t0 = performance.timeOrigin;
  document.addEventListener('input', () => (w.__bench.lastInput = t0 + performance.now()), true);
  new MutationObserver(() => {
    const now = t0 + performance.now();
    requestAnimationFrame(() => {
      const painted = Math.max(now, t0 + performance.now());
      if (w.__bench.firstRows === null && document.querySelector('.bookmark')) w.__bench.firstRows = painted;
      w.__bench.lastChange = painted;
    });
  }).observe(document, { childList: true, subtree: true, characterData: true });
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const titlesOf = (page: Page) => page.locator('.bookmark .title').allTextContents();

async function main() {
  // --app <dir>: a build made elsewhere (another checkout's dist/web), to compare two builds.
  const webAppDir = values.app ? path.resolve(values.app) : await ensureWebBuilt();
  const server = await TidemarkServer.start({ webAppDir });
  try {
    const { token } = await server.createUser(EMAIL, PASSWORD, 'Bench');
    const file = path.join(server.dataDir, 'seed.html');
    fs.writeFileSync(file, generateNetscape(TOTAL));
    const t0 = performance.now();
    const imported = runCli(['import', '--email', EMAIL, '--file', file, '--data', server.dataDir]);
    if (imported.status !== 0) throw new Error(`seeding failed: ${imported.stderr}`);
    const seedSeconds = (performance.now() - t0) / 1000;
    const count = (await server.api('GET', '/bookmarks/0?perpage=1', token)).body.count as number;

    // The server's share: the app's requests straight over HTTP (median of 5).
    const api: [string, number][] = [];
    for (const [what, p] of [
      ['GET /bookmarks/0, first page of 50', '/bookmarks/0?perpage=50&page=0&sort=-created'],
      ['GET /collections', '/collections'],
      ['GET /tags', '/tags'],
      ...QUERIES.map((q) => [`search "${q}"`, `/bookmarks/0?perpage=50&sort=score&search=${encodeURIComponent(q)}`] as const),
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const res = await server.api('GET', p, token);
        if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
        times.push(performance.now() - t);
      }
      api.push([what, median(times)]);
    }

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(OBSERVE);
      const page = await context.newPage();
      await page.goto(`${server.origin}/signin`);
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await page.locator('.bookmark').first().waitFor({ timeout: 60_000 });
      // The JavaScript the first (cold) load fetched before showing its list: the initial bundle.
      const scripts = await page.evaluate(() => [
        ...new Set(performance.getEntriesByType('resource').filter((e) => /\.m?js(\?|$)/.test(e.name) && !e.name.endsWith('/sw.js')).map((e) => new URL(e.name).pathname)),
      ]);
      const initialJs = scripts.map((p) => ({ path: p, raw: fs.statSync(path.join(webAppDir, p)).size, gzip: gzipSize(path.join(webAppDir, p)) }));
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
      });
      await page.close();

      const firstList: number[] = [];
      const parts: { html: number; script: number; asks: number; atServer: number; served: number; answer: number; rows: number; fromWorker: boolean }[] = [];
      let lastOpen = '';
      for (let i = 0; i < RUNS; i++) {
        const before = server.timings.length;
        const p = await context.newPage();
        await p.goto(`${server.origin}/`);
        await p.waitForFunction(() => (window as unknown as { __bench: { firstRows: number | null } }).__bench.firstRows !== null, null, { timeout: 30_000 });
        const seen = await p.evaluate(() => {
          const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const js = performance.getEntriesByType('resource').find((e) => e.name.includes('/assets/') && e.name.endsWith('.js')) as PerformanceResourceTiming | undefined;
          // The shared list code's marks (lib/library/timing.ts): the page asks, the page has the answer.
          // (No named helper: this source runs in the page, without the bundler's helpers.)
          const [asks, answer] = ['tidemark:list-request', 'tidemark:list-answer'].map((name) => performance.getEntriesByName(name).at(-1)?.startTime ?? NaN);
          return {
            firstRows: (window as unknown as { __bench: { firstRows: number } }).__bench.firstRows,
            origin: performance.timeOrigin,
            html: n.responseEnd,
            fromWorker: n.workerStart > 0,
            script: js?.responseEnd ?? NaN,
            asks,
            answer,
          };
        });
        const list = server.timings.slice(before).find((r) => r.route === 'GET /rest/v1/bookmarks/0');
        lastOpen = server.timings.slice(before).map((r) => `${r.route.replace('GET /rest/v1', '')} ${(r.startedAt - seen.origin).toFixed(0)}-${(r.finishedAt - seen.origin).toFixed(0)}`).join(', ');
        firstList.push(seen.firstRows - seen.origin);
        parts.push({
          html: seen.html,
          script: seen.script,
          asks: seen.asks,
          atServer: list ? list.startedAt - seen.origin : NaN,
          served: list ? list.finishedAt - seen.origin : NaN,
          answer: seen.answer,
          rows: seen.firstRows - seen.origin,
          fromWorker: seen.fromWorker,
        });
        // The rest of the open (user, collections, tags) finishes before the next one starts: its
        // work at the server would otherwise fall on the next open's list request.
        await p.waitForLoadState('networkidle');
        await p.close();
      }

      const searches: { query: string; ms: number; server: number; requests: number }[] = [];
      const sp = await context.newPage();
      await sp.goto(`${server.origin}/`);
      await sp.locator('.bookmark').first().waitFor();
      const box = sp.getByRole('combobox', { name: 'Search the library' });
      for (const query of QUERIES) {
        const expected = (await server.api('GET', `/bookmarks/0?perpage=50&sort=score&search=${encodeURIComponent(query)}`, token)).body.items.map((x: { title: string }) => x.title);
        await box.fill('');
        await sp.waitForTimeout(400); // the cleared box's own search goes first
        const before = server.timings.length;
        await box.pressSequentially(query, { delay: 40 });
        await sp.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('.bookmark .title')].map((e) => e.textContent)) === JSON.stringify(want), expected, { timeout: 30_000 }).catch(async (err: Error) => {
          throw new Error(`the list never showed the API's answer for "${query}": ${err.message}; shown ${JSON.stringify((await titlesOf(sp)).slice(0, 3))}`);
        });
        await sp.waitForTimeout(100); // a later change to the list would still count
        const l = await sp.evaluate(() => (window as unknown as { __bench: { lastInput: number; lastChange: number } }).__bench);
        const lists = server.timings.slice(before).filter((r) => r.route === 'GET /rest/v1/bookmarks/0');
        const last = lists.at(-1);
        searches.push({ query, ms: l.lastChange - l.lastInput, server: last ? last.finishedAt - last.startedAt : NaN, requests: lists.length });
      }

      const jsGzip = initialJs.reduce((a, f) => a + f.gzip, 0);
      const rows: [string, string, string][] = [
        ['bookmarks in the account', `${count} (imported in ${seedSeconds.toFixed(1)} s)`, ''],
        ...api.map(([what, t]): [string, string, string] => [`  server: ${what}`, ms(t), '']),
        ['initial JavaScript, gzipped', `${(jsGzip / 1024).toFixed(1)} KB (${initialJs.map((f) => `${f.path} ${f.raw} B raw, ${f.gzip} B gzip`).join('; ')})`, '<= 80 KB'],
        ['open -> first list visible (warm worker)', `median ${ms(median(firstList))}, runs ${firstList.map((x) => x.toFixed(0)).join(' ')}`, '<= 300 ms'],
        ['  HTML from the service worker', parts.every((x) => x.fromWorker) ? 'yes, every open' : `${parts.filter((x) => x.fromWorker).length} of ${parts.length}`, ''],
        ['  medians, from the start: HTML in / script in / list asked / at server / answered / at page / rows shown', (['html', 'script', 'asks', 'atServer', 'served', 'answer', 'rows'] as const).map((k) => ms(median(parts.map((x) => x[k])))).join(' / '), ''],
        ['  the API during the last open (ms from its start)', lastOpen, ''],
        ['last keystroke -> results', `median ${ms(median(searches.map((x) => x.ms)))}, worst ${ms(Math.max(...searches.map((x) => x.ms)))}`, '<= 150 ms'],
        ...searches.map((x): [string, string, string] => [`  "${x.query}"`, `${ms(x.ms)} (server ${ms(x.server)}, ${x.requests} request${x.requests === 1 ? '' : 's'})`, '']),
      ];
      const w0 = Math.max(...rows.map((r) => r[0].length));
      const w1 = Math.max(...rows.map((r) => r[1].length));
      console.log(`\nWeb app, ${TOTAL} bookmarks, SQLite, headless Chromium\n`);
      for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
