// Library page timings in Chromium with the built extension and the real server on loopback, for
// an account of 100k bookmarks (imported with the `import` command from a generated file):
// - open -> first list visible: from the page's navigation start to the first frame showing rows;
// - last keystroke -> results: from the last `input` event of a typed search to the frame that
//   shows the API's answer for it (the box waits for a pause in typing, then asks once).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ExtensionBrowser } from '../../tests/e2e/helpers/extension-browser.js';
import { TidemarkServer } from '../../tests/e2e/helpers/tidemark-server.js';
import { runCli } from '../../tests/helpers/process.js';
import { generateNetscape } from '../import/generate.js';

export interface LibraryFigures {
  bookmarks: number;
  /** The same requests straight to the server (no extension): the server's share. */
  apiMs: { what: string; ms: number }[];
  seedSeconds: number;
  firstListMs: number[];
  /**
   * Where each search's time went: last keystroke -> the request reaching the server (the typing
   * pause and the trip through the background), the server's own time, and the answer's arrival ->
   * the frame showing it (the trip back and rendering). Requests for the same query typed earlier
   * (stale ones) are counted too.
   */
  searchMs: { query: string; ms: number; toServer: number; server: number; toScreen: number; requests: number }[];
}

/** Installed before the page's own scripts: the time of the first frame with rows, and of each change to the list. */
const OBSERVE = () => {
  const w = window as unknown as { __lib: { firstRows: number | null; lastInput: number; lastChange: number } };
  w.__lib = { firstRows: null, lastInput: 0, lastChange: 0 };
  // Epoch milliseconds (timeOrigin + now), to line up with the server's clock on the same machine.
  // (No named helper here: this function's source runs in the page, without the bundler's helpers.)
  const t0 = performance.timeOrigin;
  document.addEventListener('input', () => (w.__lib.lastInput = t0 + performance.now()), true);
  new MutationObserver(() => {
    const now = t0 + performance.now();
    requestAnimationFrame(() => {
      const painted = Math.max(now, t0 + performance.now());
      if (w.__lib.firstRows === null && document.querySelector('.bookmark')) w.__lib.firstRows = painted;
      w.__lib.lastChange = painted;
    });
  }).observe(document, { childList: true, subtree: true, characterData: true });
};

async function titlesOf(page: Page): Promise<string[]> {
  return page.locator('.bookmark .title').allTextContents();
}

export async function benchLibrary(extensionDir: string, total = 100_000, runs = 7): Promise<LibraryFigures> {
  const server = await TidemarkServer.start();
  const email = 'library-bench@example.test';
  const { token } = await server.createUser(email, 'correct horse battery', 'Bench');
  const file = path.join(server.dataDir, 'seed.html');
  fs.writeFileSync(file, generateNetscape(total));
  const t0 = performance.now();
  const imported = runCli(['import', '--email', email, '--file', file, '--data', server.dataDir]);
  if (imported.status !== 0) throw new Error(`seeding failed: ${imported.stderr}`);
  const seedSeconds = (performance.now() - t0) / 1000;
  const count = (await server.api('GET', '/bookmarks/0?perpage=1', token)).body.count as number;
  const apiMs: { what: string; ms: number }[] = [];
  for (const [what, p] of [
    ['GET /bookmarks/0 (first page of 50)', '/bookmarks/0?perpage=50&page=0&sort=-created'],
    ['GET /collections + /collections/childrens', '/collections'],
    ['GET /tags', '/tags'],
    ['search "article 4242" (sort score)', `/bookmarks/0?perpage=50&sort=score&search=${encodeURIComponent('article 4242')}`],
    ['search "#topic7" (sort score)', `/bookmarks/0?perpage=50&sort=score&search=${encodeURIComponent('#topic7')}`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await server.api('GET', p, token);
      if (p === '/collections') await server.api('GET', '/collections/childrens', token);
      times.push(performance.now() - t);
    }
    apiMs.push({ what, ms: times.sort((a, b) => a - b)[2]! });
  }

  const b = await ExtensionBrowser.launch(extensionDir);
  try {
    await b.signInWithTestToken(server.origin, token);
    await b.context.addInitScript(OBSERVE);
    const firstListMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await b.context.newPage();
      await page.goto(b.url('library.html'));
      await page
        .waitForFunction(() => (window as unknown as { __lib: { firstRows: number | null } }).__lib.firstRows !== null, null, { timeout: 30_000 })
        .catch((err: Error) => {
          throw new Error(`the library never showed rows: ${err.message}`);
        });
      firstListMs.push(await page.evaluate(() => (window as unknown as { __lib: { firstRows: number } }).__lib.firstRows - performance.timeOrigin));
      await page.close();
    }

    const searchMs: LibraryFigures['searchMs'] = [];
    const page = await b.context.newPage();
    await page.goto(b.url('library.html'));
    await page.locator('.bookmark').first().waitFor();
    for (const query of ['article 4242', '#topic7', 'friends -number', 'domain:site42.example.com', '#area3 created:>2020-09', 'Article number 99']) {
      const expected = (await server.api('GET', `/bookmarks/0?perpage=50&sort=score&search=${encodeURIComponent(query)}`, token)).body.items.map((x: { title: string }) => x.title);
      const box = page.getByRole('combobox', { name: 'Search the library' });
      await box.fill('');
      await page.waitForTimeout(400);
      const before = server.timings.length;
      await box.pressSequentially(query, { delay: 40 });
      await page
        .waitForFunction((want) => JSON.stringify([...document.querySelectorAll('.bookmark .title')].map((e) => e.textContent)) === JSON.stringify(want), expected, { timeout: 30_000 })
        .catch(async (err: Error) => {
          throw new Error(`the list never showed the API's answer for "${query}": ${err.message}\nwanted ${JSON.stringify(expected.slice(0, 3))}..., shown ${JSON.stringify((await titlesOf(page)).slice(0, 3))}..., box "${await box.inputValue()}", address ${page.url()}`);
        });
      await page.waitForTimeout(100);
      const l = await page.evaluate(() => (window as unknown as { __lib: { lastInput: number; lastChange: number } }).__lib);
      if ((await titlesOf(page)).length !== expected.length) throw new Error(`unexpected list for ${query}`);
      const lists = server.timings.slice(before).filter((r) => r.route === 'GET /rest/v1/bookmarks/0');
      const last = lists[lists.length - 1];
      if (!last) throw new Error(`no list request reached the server for "${query}"`);
      searchMs.push({
        query,
        ms: l.lastChange - l.lastInput,
        toServer: last.startedAt - l.lastInput,
        server: last.finishedAt - last.startedAt,
        toScreen: l.lastChange - last.finishedAt,
        requests: lists.length,
      });
    }
    return { bookmarks: count, apiMs, seedSeconds, firstListMs, searchMs };
  } finally {
    await b.close();
    await server.close();
  }
}
