/**
 * What adding the painter's ::highlight() sheet costs Chromium on the 1.1M-character reference page, per
 * way of writing the rules: elements restyled (UpdateLayoutTree's elementCount in a trace) and their CPU
 * time, and whether a highlight deep in the page is coloured. Run: npx tsx bench/anchoring/restyle-variants.ts
 */
import { chromium } from 'playwright';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const rules = (selector: (name: string) => string) =>
  ['yellow', 'green', 'blue'].map((c) => `${selector(`tidemark-${c}`)} { background-color: rgba(255, 214, 0, 0.45); }`).join('\n');

/** name -> [rules, how they are added, what is marked afterwards] */
const VARIANTS: Record<string, [string, 'style' | 'adopted', 'none' | 'html' | 'list' | 'parent']> = {
  'unscoped ::highlight(), <style> (the painter before)': [rules((n) => `::highlight(${n})`), 'style', 'none'],
  'unscoped ::highlight(), adoptedStyleSheets': [rules((n) => `::highlight(${n})`), 'adopted', 'none'],
  ':root::highlight()': [rules((n) => `:root::highlight(${n})`), 'style', 'none'],
  '[data-tidemark-hl]::highlight(), nothing marked yet': [rules((n) => `[data-tidemark-hl]::highlight(${n})`), 'style', 'none'],
  '[data-tidemark-hl]::highlight(), then <html> marked': [rules((n) => `[data-tidemark-hl]::highlight(${n})`), 'style', 'html'],
  '[data-tidemark-hl]::highlight(), then one list marked': [rules((n) => `[data-tidemark-hl]::highlight(${n})`), 'style', 'list'],
  '[data-tidemark-hl]::highlight(), then the text parent marked (as the painter does)': [rules((n) => `[data-tidemark-hl]::highlight(${n})`), 'style', 'parent'],
};

interface TraceEvent {
  name: string;
  ph?: string;
  tdur?: number;
  args?: { elementCount?: number; beginData?: { elementCount?: number } };
}

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
  const html = renderPage(buildApiScenario(1, 1_100_000).original, 'Store API reference');
  console.log(`Adding the painter's sheet on the 1.1M-character reference page (Chromium ${browser.version()}):`);
  try {
    for (const [name, [css, how, mark]] of Object.entries(VARIANTS)) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      await page.setContent(html, { waitUntil: 'load' });
      await page.evaluate(() => new Promise((r) => { void document.body.offsetHeight; requestAnimationFrame(() => requestAnimationFrame(r)); }));
      await browser.startTracing(page, { categories: ['devtools.timeline', '__metadata'] });
      const colour = await page.evaluate(
        async ([text, kind, marked]) => {
          if (kind === 'adopted') {
            const sheet = new CSSStyleSheet();
            sheet.replaceSync(text);
            document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
          } else document.head.append(Object.assign(document.createElement('style'), { textContent: text }));
          const deep = document.querySelectorAll('li')[500];
          if (marked !== 'none') {
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            const el = marked === 'html' ? document.documentElement : marked === 'list' ? deep.closest('ul')! : deep;
            el.setAttribute('data-tidemark-hl', '');
          }
          const range = document.createRange();
          range.selectNodeContents(deep.firstChild!);
          (CSS as unknown as { highlights: Map<string, unknown> }).highlights.set('tidemark-yellow', new Highlight(range));
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          return getComputedStyle(deep, '::highlight(tidemark-yellow)').backgroundColor;
        },
        [css, how, mark] as const,
      );
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents?: TraceEvent[] };
      const styles = (trace.traceEvents ?? []).filter((e) => e.name === 'UpdateLayoutTree' && e.ph === 'X');
      const counts = styles.map((e) => e.args?.elementCount ?? e.args?.beginData?.elementCount ?? 0);
      const cpu = styles.reduce((a, e) => a + (e.tdur ?? 0) / 1000, 0);
      console.log(`  ${name}: elements restyled ${counts.join(' + ')}, ${cpu.toFixed(1)} ms CPU; a highlight deep in the page ${colour === 'rgba(0, 0, 0, 0)' ? 'NOT coloured' : 'coloured'}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
