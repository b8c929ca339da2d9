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
  await page.setContent(orig);
  console.log(JSON.stringify(await page.evaluate(fs.readFileSync(process.argv[2] ?? '/work/notes/scratch/s32/count-page.js', 'utf8'))));
  await browser.close();
}
main();
