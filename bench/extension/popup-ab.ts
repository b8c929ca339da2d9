// Interleaved comparison of popup builds: `npx tsx --expose-gc bench/extension/popup-ab.ts NAME=DIR NAME=DIR...`
// (DIR: a built Chrome extension, e.g. from scripts/build-extension.ts `buildExtension({outDir, browsers:
// ['chrome']})` of another checkout; `NAME=.` builds this tree). Each round runs bench/extension/popup.ts
// on every build, in alternating order (A B, B A...), and prints its medians with the load averages;
// then the medians over all rounds. ROUNDS (default 4) and RUNS (popup openings per round, default 5).
import os from 'node:os';
import path from 'node:path';
import { buildExtension, ROOT } from '../../scripts/build-extension.js';
import { benchPopup, type PopupFigures } from './popup.js';
import { bundleSizes } from './bundles.js';

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1) : 'n/a');
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

async function main() {
  const variants: { name: string; dir: string }[] = [];
  for (const arg of process.argv.slice(2)) {
    const [name, dir] = arg.split('=');
    const built = dir === '.' ? (await buildExtension({ outDir: path.join(ROOT, '.tmp', 'popup-ab'), quiet: true, browsers: ['chrome'] })).chromeDir : path.resolve(dir);
    variants.push({ name, dir: built });
  }
  if (variants.length < 2) throw new Error('Give at least two builds: NAME=DIR NAME=DIR');
  for (const v of variants) {
    const popup = bundleSizes(v.dir).popup;
    console.log(`${v.name}: ${v.dir}; popup JS ${(popup.gzip / 1024).toFixed(1)} KB gzipped in ${popup.files.length} files`);
  }
  const all = new Map<string, PopupFigures[]>(variants.map((v) => [v.name, []]));
  const rounds = Number(process.env.ROUNDS ?? 4);
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 ? [...variants].reverse() : variants) {
      const before = load();
      const f = await benchPopup(v.dir, path.join(ROOT, 'bench/extension/baseline-popup'), Number(process.env.RUNS ?? 5));
      all.get(v.name)!.push(f);
      console.log(
        `round ${r} ${v.name}: load ${before} -> ${load()}; document -> interactive: new page ${median(f.newPage.interactiveFromDocument)}, saved page ${median(f.savedPage.interactiveFromDocument)}; document -> stored ${median(f.newPage.storedFromDocument)}; empty popup ${median(f.baseline.interactiveFromDocument)} ms`,
      );
    }
  }
  console.log('\nMedians over all rounds (ms):');
  for (const v of variants) {
    const fs = all.get(v.name)!;
    const m = (pick: (f: PopupFigures) => number[]) => median(fs.flatMap(pick));
    console.log(
      `  ${v.name}: ${fs.flatMap((f) => f.newPage.interactiveMs).length} openings each; open -> document ${m((f) => f.windowMs)}; new page: open -> interactive ${m((f) => f.newPage.interactiveMs)}, document -> interactive ${m((f) => f.newPage.interactiveFromDocument)}, document -> stored ${m((f) => f.newPage.storedFromDocument)}, document -> first requests ${m((f) => f.newPage.firstRequestsFromDocument)}; saved page: open -> interactive ${m((f) => f.savedPage.interactiveMs)}, document -> interactive ${m((f) => f.savedPage.interactiveFromDocument)}; empty popup: document -> first frame ${m((f) => f.baseline.interactiveFromDocument)}`,
    );
  }
  console.log(`load average at the end: ${load()}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
