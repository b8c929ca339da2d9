// Creating a highlight through the built extension, from the keyboard command to the frame that shows
// it, on the long page of bench/anchoring (1.1M characters of text) with 100 saved highlights painted,
// against the real server on loopback:
//
//   npx tsx bench/extension/highlight-command.ts [extension dir]
//
// bench/anchoring's "creating a highlight" drives lib/ in the page; this goes the user's way: the text
// is selected (the selection ended with Shift+ArrowRight, so the highlighter offers its toolbar, as
// after a reader's selection), the background's command handler runs (the function
// `commands.onCommand` calls; a native shortcut cannot be pressed from here), its message reaches the
// highlighter in the page, which paints the selection through the Highlight API. From the background's
// call (its clock) to the end of the frame that shows the new highlight (the page's clock; both count
// from the same system clock): a loop of animation frames in the page, started just before the command,
// looks at each frame's start for one more range in CSS.highlights, and the frame is done at the task
// after it (as bench/anchoring counts "painted"; the loop keeps frames coming meanwhile, which
// bench/anchoring's frame-costs.ts finds costs a frame a few ms more than one frame on its own):
// - warm: 20 commands, each at a random moment of the frame cycle, the editor already loaded by an
//   earlier selection;
// - first command on a page the highlighter was never injected into (5 fresh tabs of an unsaved copy,
//   on a site the extension may read, so its loader and style sheet are there; checked), through the
//   injection of the highlighter and its editor.
// Figures only; nothing here asserts timings.
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { ensureExtensionBuilt } from '../../tests/e2e/helpers/extension-build.js';
import type { ExtensionBrowser } from '../../tests/e2e/helpers/extension-browser.js';
import { bundleForPage } from '../../tests/e2e/helpers/page-bundle.js';
import { longPageScenario, openLongPage } from './long-page-session.js';

const SAVED = 100;
const WARM = Number(process.env.WARM ?? 20);
const COLD = 5;
const FRAME_MS = 1000 / 60;

/** Puts on the page `selectSpan(i)`, which selects spans[i] (fixture spans, see describe-spans.ts), and `watchPainted()`. */
async function installHelpers(page: Page, spans: readonly unknown[]): Promise<void> {
  const source = `import { TextIndex, offsetAt } from './lib/anchoring/index.js';
    const index = new TextIndex(document);
    const starts = new Map<string, number>();
    for (const el of document.querySelectorAll('[data-s]')) starts.set(el.getAttribute('data-s')!, offsetAt(index, el, 0));
    const spans = ${JSON.stringify(spans)};
    const ranges = spans.map((s: any) => index.rangeFor(starts.get(s.startS)! + s.startC, starts.get(s.endS)! + s.endC));
    // 'short': all but its last character (the keyboard's Shift+ArrowRight then ends the selection as a reader's would).
    (window as any).selectSpan = (i: number, short = false) => {
      const r = ranges[i].cloneRange();
      if (short && r.endOffset > 0) r.setEnd(r.endContainer, r.endOffset - 1);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(r);
    };
    const count = () => { let n = 0; for (const h of (CSS as any).highlights.values()) n += h.size; return n; };
    // Resolves, in ms since the epoch, when the first frame with one more range in CSS.highlights is done.
    (window as any).watchPainted = () => {
      const before = count();
      const now = () => performance.timeOrigin + performance.now();
      (window as any).painted = new Promise<number>((resolve) => {
        const look = () => {
          if (count() > before) setTimeout(() => resolve(now()), 0);
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
    };`;
  await page.addScriptTag({ content: await bundleForPage({ source, resolveDir: fileURLToPath(new URL('../..', import.meta.url)) }) });
}

/** The keyboard command in the background; when it was called, in ms since the epoch. */
async function command(browser: ExtensionBrowser, url: string): Promise<number> {
  return browser.inWorker(
    async ({ u }) => {
      const g = globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ url?: string }[]> } }; tidemark: { onCommand(c: string, tab: unknown): Promise<void> } };
      const tab = (await g.chrome.tabs.query({})).find((t) => t.url === u);
      const at = performance.timeOrigin + performance.now();
      void g.tidemark.onCommand('highlight-selection', tab);
      return at;
    },
    { u: url },
  );
}

/** What installHelpers puts on the page. */
type HelperWindow = Window & { selectSpan(i: number, short?: boolean): void; watchPainted(): void; painted: Promise<number> };
const painted = (page: Page) => page.evaluate(() => (window as unknown as HelperWindow).painted);

async function measure(extensionDir: string) {
  const { html, spans } = longPageScenario();
  const session = await openLongPage(extensionDir, html, spans, SAVED, { path: '/command-reference' });
  const { browser, page, url, site } = session;
  try {
    await installHelpers(page, spans.slice(SAVED, SAVED + WARM));
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const warm: number[] = [];
    for (let i = 0; i < WARM; i++) {
      // The selection ended with the keyboard, as a reader's (Shift+ArrowRight): the highlighter offers
      // its toolbar for it.
      await page.evaluate((n) => (window as unknown as HelperWindow).selectSpan(n, true), i);
      await page.keyboard.press('Shift+ArrowRight');
      // Idle (two frames, then an idle period), then a moment drawn over two frame intervals.
      await page.evaluate(
        async (delay) => {
          const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          await frame();
          await frame();
          await new Promise<void>((r) => requestIdleCallback(() => r(), { timeout: 1000 }));
          await new Promise((r) => setTimeout(r, delay));
          (window as unknown as HelperWindow).watchPainted();
        },
        random() * 2 * FRAME_MS,
      );
      const at = await command(browser, url);
      warm.push((await painted(page)) - at);
      await page.waitForTimeout(700); // the server's answer, the toast
    }
    // First commands: fresh tabs of an unsaved copy, where nothing of the highlighter is injected yet.
    const cold: number[] = [];
    for (let i = 0; i < COLD; i++) {
      const coldUrl = site.add(`/command-cold-${i}`, { title: 'Store API reference', body: html });
      const tab = await browser.context.newPage();
      await tab.goto(coldUrl);
      await installHelpers(tab, spans.slice(0, 1));
      await tab.evaluate(() => (window as unknown as HelperWindow).selectSpan(0));
      await tab.waitForTimeout(1000);
      const injected = await browser.inWorker(async ({ u }) => {
        const c = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id: number; url?: string }[]> }; scripting: { executeScript(o: object): Promise<{ result: unknown }[]> } } }).chrome;
        const tab = (await c.tabs.query({})).find((t) => t.url === u)!;
        const [r] = await c.scripting.executeScript({ target: { tabId: tab.id }, func: [() => Object.keys(globalThis).filter((k) => k.startsWith('__tidemark'))][0] }); // not a named property: tsx would wrap it in its __name helper, which the page lacks
        return r.result as string[];
      }, { u: coldUrl });
      // The test site is on localhost, which the extension may read: its loader is there, not the highlighter.
      if (injected.some((k) => k !== '__tidemarkLoader' && k !== '__tidemarkStylesRegistered')) throw new Error(`the fresh tab has the highlighter already: ${injected.join(', ')}`);
      await tab.evaluate(() => (window as unknown as HelperWindow).watchPainted());
      const at = await command(browser, coldUrl);
      cold.push((await painted(tab)) - at);
      await tab.close();
    }
    return { warm, cold };
  } finally {
    await session.close();
  }
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)];
  return `median ${q(0.5).toFixed(1)}, 90th percentile ${q(0.9).toFixed(1)}, max ${s[s.length - 1].toFixed(1)} ms`;
};

async function main() {
  const dir = process.argv[2] ?? (await ensureExtensionBuilt());
  const f = await measure(dir);
  console.log(`Creating a highlight through the extension (${dir}), the long page with ${SAVED} highlights painted:`);
  console.log(`  ${WARM} keyboard commands at random moments, the background's call -> painted: ${stats(f.warm)}`);
  console.log(`  first command on a page without the highlighter (${COLD} fresh tabs): ${stats(f.cold)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
