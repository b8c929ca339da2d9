import { chromium } from 'playwright-core';
import fs from 'node:fs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
async function main() {
  const api = buildApiScenario(1, 1_100_000);
  const orig = renderPage(api.original, 'x');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage();
  const src = fs.readFileSync('/work/notes/scratch/s32/walks-page.js', 'utf8');
  const res: Record<string, string[]> = { full: [], seg: [] };
  for (let i = 0; i < Number(process.argv[2] ?? 6); i++) {
    for (const v of (i % 2 ? ['seg', 'full'] : ['full', 'seg'])) {
      await page.setContent(orig, { waitUntil: 'load' });
      const cdp = await page.context().newCDPSession(page);
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const executionContextId = process.env.WORLD === 'main' ? undefined : (await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'tm' + i + v })).executionContextId;
      const run = async (expression: string) => (await cdp.send('Runtime.evaluate', { expression, contextId: executionContextId, awaitPromise: true, returnByValue: true })).result.value;
      await run(src);
      await new Promise((r) => setTimeout(r, 300));
      const r = await run(`__walks.${v}()`);
      res[v].push(`${r.ms.toFixed(1)}/${r.max.toFixed(1)}`);
      if (i === 0) console.log(v, JSON.stringify(r));
      await cdp.detach();
    }
  }
  console.log('total/max-gap ms', JSON.stringify(res));
  await browser.close();
}
main();
