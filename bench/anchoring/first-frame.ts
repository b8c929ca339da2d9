/**
 * New highlights on the long page, with and without the first-frame overlay: the question is whether
 * the painter's direct paint (in the command's task) is shown soon enough that the overlay's canvas,
 * kept on every page where the toolbar was shown, buys nothing a reader can feel. Both ways run on the
 * same painted page, in alternating rounds (so that load on the machine falls on both alike), each
 * command at a random moment of the frame cycle; it prints command -> painted (the end of the frame
 * that shows the highlight), median and 90th percentile, per way.
 *
 *   npx tsx bench/anchoring/first-frame.ts [rounds]     (default 3 rounds of 40 commands a way)
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../playwright.config.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
import { fmt, median } from './figures.js';

const LONG_PAGE_CHARS = 1_100_000;
const ROUNDS = Math.max(1, Number(process.argv[2] ?? 3) || 3);

/** The value below which a fraction `p` of `xs` lies (nearest rank). */
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(p * xs.length) - 1))];

async function main(): Promise<void> {
  const seed = Number(process.env.BENCH_SEED ?? 1);
  const api = buildApiScenario(seed, LONG_PAGE_CHARS);
  const html = renderPage(api.original, 'Store API reference');
  const script = await bundleForPage({ file: fileURLToPath(new URL('./in-page.ts', import.meta.url)) });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.setDefaultTimeout(600_000);
    await page.setContent(html, { waitUntil: 'load' });
    await page.addScriptTag({ content: script });
    // window.tidemarkBench and window.tidemarkLongPage are typed where run.ts declares them.
    const descriptors = await page.evaluate((spans) => window.tidemarkBench.describe(spans), api.highlights as unknown[]);
    await page.evaluate(() => window.tidemarkLongPage.settle());
    await page.evaluate((d) => window.tidemarkLongPage.paintAll(d), descriptors);
    const spans = api.highlights.map((h) => ({ startS: h.startS, startC: h.startC, endS: h.endS, endC: h.endC }));
    const half = (odd: boolean) => spans.filter((_, i) => i % 2 === (odd ? 1 : 0)).slice(0, 40);
    const results = { overlay: [] as number[], direct: [] as number[], early: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which way goes first, and which spans each way gets.
      for (const withOverlay of r % 2 === 0 ? [true, false] : [false, true]) {
        const created = await page.evaluate(
          ([s, sd, o]) => window.tidemarkLongPage.create(s, 'any', sd, o),
          [half(withOverlay === (r % 2 === 0)), seed + r * 2 + (withOverlay ? 0 : 1), withOverlay] as const,
        );
        (withOverlay ? results.overlay : results.direct).push(...created.frameMs);
        if (withOverlay) results.early += created.early;
      }
    }
    const row = (name: string, xs: number[]) => `  ${name}: ${xs.length} commands, command -> painted: median ${fmt(median(xs))}, 90th percentile ${fmt(percentile(xs, 0.9))}, max ${fmt(Math.max(...xs))} ms`;
    console.log(`First frame of a new highlight on the long page (${LONG_PAGE_CHARS.toLocaleString('en')} characters, ${descriptors.length} highlights painted), ${ROUNDS} rounds, load ${loadavg()[0].toFixed(1)}:`);
    console.log(row('with the overlay (canvas in the command, painter a frame later)', results.overlay) + ` (${results.early} drawn on the overlay)`);
    console.log(row('direct (painter in the command)', results.direct));
    console.log(`  target: direct 90th percentile at most 50 ms`);
  } finally {
    await browser.close();
  }
}

await main();
