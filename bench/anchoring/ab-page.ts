/**
 * In-page part of ab.ts (bundled with in-page.ts, whose window.tidemarkBench it also sets up): the
 * article's cold anchoring one highlight at a time, timed per highlight, in one task (tidemarkAnchor).
 */
import './in-page.js';
import { TextIndex, type HighlightDescriptor } from '../../lib/anchoring/index.js';
import { anchor, type ApproximateSearch } from '../../lib/anchoring/anchor.js';

/**
 * The approximate search comes from a script of its own (ab.ts injects it, as the background injects
 * highlighter-approximate.js), so that it can be given V8's compile hint alone (MAGIC=approx).
 */
const approximate = () => {
  const a = (window as unknown as { tidemarkApproximate?: ApproximateSearch }).tidemarkApproximate;
  if (!a) throw new Error('the approximate search script was not injected');
  return a;
};

const ab = {
  /** Indexes the page (task tidemarkIndex), then anchors each descriptor (task tidemarkAnchor): per highlight its result and wall ms. */
  async anchorEach(descriptors: HighlightDescriptor[]) {
    let index: TextIndex | null = null;
    await new Promise<void>((resolve) =>
      setTimeout(function tidemarkIndex() {
        index = new TextIndex(document);
        resolve();
      }, 0),
    );
    const out: Array<{ method: string; ms: number; start: number; end: number }> = [];
    const approx = approximate();
    await new Promise<void>((resolve) =>
      setTimeout(function tidemarkAnchor() {
        for (const d of descriptors) {
          const t0 = performance.now();
          const r = anchor(index!, d, { approximate: approx });
          const ms = performance.now() - t0;
          out.push(r.status === 'anchored' ? { method: r.method, ms, start: r.start, end: r.end } : { method: r.status, ms, start: -1, end: -1 });
        }
        resolve();
      }, 0),
    );
    return out;
  },
};

(window as unknown as { tidemarkAB: typeof ab }).tidemarkAB = ab;
