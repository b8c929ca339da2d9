/**
 * In-page half of index-build.ts: builds the text index of the page the ways the highlighter does,
 * each step a task of its own named for it (the driver reads their CPU time from a trace).
 * Bundled once per implementation (this file is copied next to the compared `lib/anchoring`).
 */
import { TextIndex } from '../../lib/anchoring/text-index.js';
import { TextSearch } from '../../lib/anchoring/search-text.js';

/** Runs `fn` in a task of its own between user-timing marks `name`-start and `name`-end (the driver sums the CPU of the main thread's tasks between them). */
const task = <T>(name: string, fn: () => T): Promise<T> =>
  new Promise((resolve) =>
    setTimeout(() => {
      performance.mark(`${name}-start`);
      const v = fn();
      performance.mark(`${name}-end`);
      resolve(v);
    }, 0),
  );
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** FNV-1a over the text and every node's raw range: equal for two builds that agree. */
function digest(index: TextIndex): string {
  let h = 0x811c9dc5;
  const mix = (x: number) => (h = Math.imul(h ^ x, 0x01000193));
  for (let i = 0; i < index.text.length; i++) mix(index.text.charCodeAt(i));
  for (let k = 0; k < index.nodes.length; k++) {
    mix(index.nodeStart[k]);
    mix(index.nodeEnd[k]);
  }
  for (let i = 0; i < index.text.length; i += 997) mix(index.rawOf(i));
  return `${index.text.length}/${index.nodes.length}/${(h >>> 0).toString(16)}`;
}

const bench = {
  /**
   * The first build in this page is the sliced one, as the highlighter makes it (cold code); then the
   * word index of its text (built during the edited page's anchoring); then `warm` builds in one task each.
   */
  /** One build in one task: its wall ms (for alternating two implementations in one page). */
  once(): Promise<number> {
    return task('once', () => {
      const t = performance.now();
      new TextIndex(document);
      return performance.now() - t;
    });
  },

  async run(warm: number) {
    void document.body.offsetHeight;
    await nextFrame();
    await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 }));
    performance.mark('sliced-start');
    const t0 = performance.now();
    const index = await TextIndex.build(document);
    const slicedWall = performance.now() - t0;
    performance.mark('sliced-end');
    const words = await task('words', () => {
      const t = performance.now();
      new TextSearch(index.text).prepare();
      return performance.now() - t;
    });
    const warmWall: number[] = [];
    for (let i = 0; i < warm; i++) {
      warmWall.push(
        await task(`warm${i}`, () => {
          const t = performance.now();
          new TextIndex(document);
          return performance.now() - t;
        }),
      );
    }
    return { slicedWall, words, warmWall, digest: digest(index) };
  },
};

(window as unknown as { tidemarkIndexBench: typeof bench }).tidemarkIndexBench = bench;
