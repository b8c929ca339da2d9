// Saving a generated page's highlights as another device would have: the spans the fixtures name
// (tests/anchoring/fixtures: a data-s element and a character offset at each end) described in the
// page itself, as the highlighter describes a selection. Used by the long-page e2e test and
// bench/extension/page-changes.ts.
import { fileURLToPath } from 'node:url';
import type { HighlightDescriptor } from '../../../lib/anchoring/index.js';
import { bundleForPage } from './page-bundle.js';

/** Something that runs a function in the page with one argument (Playwright's page.evaluate). */
interface Evaluating {
  addScriptTag(options: { content: string }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
}

let script: Promise<string> | null = null;

/** The descriptors of `spans` in the page as it is now (loads the describing code into the page first). */
export async function describeSpansInPage(page: Evaluating, spans: readonly unknown[]): Promise<HighlightDescriptor[]> {
  script ??= bundleForPage({
    source: `import { TextIndex, describeOffsets, offsetAt } from './lib/anchoring/index.js';
      (window as any).describeSpans = (spans: any[]) => {
        const index = new TextIndex(document);
        const starts = new Map<string, number>();
        for (const el of document.querySelectorAll('[data-s]')) starts.set(el.getAttribute('data-s')!, offsetAt(index, el, 0));
        return spans.map((s) => describeOffsets(index, starts.get(s.startS)! + s.startC, starts.get(s.endS)! + s.endC));
      };`,
    resolveDir: fileURLToPath(new URL('../../..', import.meta.url)),
  });
  await page.addScriptTag({ content: await script });
  return page.evaluate((s: readonly unknown[]) => (window as unknown as { describeSpans(s: readonly unknown[]): HighlightDescriptor[] }).describeSpans(s), spans);
}
