// `npx tsx --expose-gc bench/extension/run.ts` (or `node --expose-gc --import tsx ...`): prints the
// extension's figures against their targets. Figures only; nothing here asserts timings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildExtension, ROOT } from '../../scripts/build-extension.js';
import { bundleSizes } from './bundles.js';
import { benchIndex } from './index-sync.js';
import { benchPopup } from './popup.js';
import { benchLibrary, type Parts } from './library.js';
import { benchBookmarkSync, printBookmarkSync } from './bookmark-sync.js';
import { benchWorkerWake, printWorkerWake } from './worker-wake.js';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const line = (label: string, value: string, target?: string) => console.log(`  ${label.padEnd(50)} ${value.padStart(22)}${target ? `   (target ${target})` : ''}`);

async function main() {
  const only = process.argv.slice(2);
  const want = (name: string) => only.length === 0 || only.includes(name);
  if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc for exact memory figures)');

  console.log('Building the extension (production)...');
  const { chromeDir } = await buildExtension({ outDir: path.join(ROOT, '.tmp', 'bench-extension'), quiet: true, browsers: ['chrome'] });

  if (want('bundles')) {
    const sizes = bundleSizes(chromeDir);
    console.log('\nBundle sizes (gzip -9, every script the page loads):');
    line('popup JS', kb(sizes.popup.gzip), '<= 45 KB');
    line('background JS', kb(sizes.background.gzip), '<= 38 KB');
    line('options JS', kb(sizes.options.gzip));
    // Content scripts: the loader runs on every page it is registered for; the highlighter is injected on demand.
    const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(chromeDir, file)), { level: 9 }).length;
    line('content script, eager (highlighter-loader.js)', kb(gz('highlighter-loader.js')), '<= 15 KB');
    line('content script, on demand (highlighter.js)', kb(gz('highlighter.js')), '<= 15 KB where CSS highlights exist');
    line('  its editor, on the first selection (highlighter-editor.js)', kb(gz('highlighter-editor.js')));
    line('  approximate anchoring, when a highlight is not found verbatim (highlighter-approximate.js)', kb(gz('highlighter-approximate.js')));
    line('  highlight style sheet, with the loader (highlight-styles.css)', kb(gz('highlight-styles.css')));
  }

  if (want('popup')) {
    console.log('\nPopup in Chromium (headless) against the real server on loopback, 60 collections:');
    console.log(`  load average at the start: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const f = await benchPopup(chromeDir, path.join(ROOT, 'bench/extension/baseline-popup'));
    console.log(`  (medians of ${f.runs} runs; p95 in brackets; "open" = chrome.action.openPopup(), "document" = the popup page starts loading)`);
    const both = (xs: number[]) => `${ms(median(xs))} [${ms(p95(xs))}]`;
    line('browser: open -> document', both(f.windowMs));
    line('new page: open -> interactive with collections', both(f.newPage.interactiveMs), '<= 100 ms');
    line('new page: document -> interactive', both(f.newPage.interactiveFromDocument));
    if (f.newPage.firstRequestsFromDocument.length) line('new page: document -> first requests leave', both(f.newPage.firstRequestsFromDocument));
    line('new page: open -> bookmark stored on the server', both(f.newPage.storedMs), '<= 150 ms');
    line('new page: document -> bookmark stored', both(f.newPage.storedFromDocument));
    line('saved page: open -> interactive (editing)', both(f.savedPage.interactiveMs), '<= 100 ms');
    line('saved page: document -> interactive', both(f.savedPage.interactiveFromDocument));
    line('empty baseline popup: open -> first frame', both(f.baseline.interactiveMs));
    line('empty baseline popup: document -> first frame', both(f.baseline.interactiveFromDocument));
    console.log(`  load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  }

  if (want('library')) await library(chromeDir);

  if (want('bookmarks')) {
    console.log('\nBrowser-bookmarks sync in Chromium (headless) against the real server on loopback:');
    printBookmarkSync(await benchBookmarkSync(chromeDir), line);
  }

  if (want('wake')) {
    console.log("\nService worker wake-up in Chromium (headless): the stopped worker woken by an extension page's getQueue:");
    printWorkerWake(await benchWorkerWake([chromeDir]));
  }

  if (want('index')) {
    console.log('\nSaved-link index, 100k links on the real server (another process); SavedIndexService in Node:');
    {
      const f = await benchIndex();
      line(`full sync of ${f.links / 1000}k links (${f.requests} requests)`, ms(f.fullSyncMs));
      line('memory kept by the index (typed arrays)', `${f.retainedMb.toFixed(2)} MB`, '<= 10 MB');
      line('peak extra memory during the sync', `${f.peakMb.toFixed(1)} MB`);
      line('lookup (normalised key)', `${f.lookupUs.toFixed(3)} µs`, '<= 100 µs');
      line('normalise URL + lookup', `${f.normalizeAndLookupUs.toFixed(3)} µs`);
      line('incremental sync after 100 changes', ms(f.incrementalSyncMs));
    }
  }
}

async function library(chromeDir: string) {
  console.log('\nLibrary page in Chromium (headless) against the real server on loopback, a 100k-bookmark account (LIBRARY_BENCH_BOOKMARKS changes the size):');
  console.log(`  load average at the start: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const f = await benchLibrary(chromeDir, Number(process.env.LIBRARY_BENCH_BOOKMARKS ?? 100_000));
  console.log(`  (${f.bookmarks} bookmarks imported in ${f.seedSeconds.toFixed(0)} s; the saved-link index synced ${f.indexSyncSeconds.toFixed(1)} s after signing in, before measuring; medians of ${f.firstListMs.length} opens, p95 in brackets)`);
  line('open -> first list visible', `${ms(median(f.firstListMs))} [${ms(p95(f.firstListMs))}]`, '<= 300 ms');
  console.log(`    each open: ${f.firstListMs.map((x) => x.toFixed(0)).join(', ')} ms`);
  console.log(`    parts (medians): ${partsLine(f.openParts, 'page loads and asks')}`);
  const html = median(f.openLoad.map((x) => x.html))!;
  const parsed = median(f.openLoad.map((x) => x.parsed))!;
  const asks = median(f.openParts.map((x) => x.pageAsks).filter((x): x is number => x !== null));
  console.log(`    of which (medians): navigation -> HTML received ${html.toFixed(1)}, -> parsed ${parsed.toFixed(1)}, -> the page's script asks for the list ${asks === undefined ? 'n/a' : asks.toFixed(1)} ms from the start`);
  const all = f.searchMs.map((s) => s.ms);
  line('last keystroke -> search results shown', `${ms(median(all))} [max ${ms(Math.max(...all))}]`, '<= 150 ms');
  for (const s of f.searchMs) {
    line(`  "${s.query}"`, ms(s.ms));
    console.log(`      keystroke -> server ${ms(s.toServer)}, server ${ms(s.server)}, answer -> shown ${ms(s.toScreen)}; ${s.requests} list request(s) while typing it`);
    console.log(`      ${partsLine([s.parts], 'typing pause')}`);
  }
  const part = (k: 'toServer' | 'server' | 'toScreen') => ms(median(f.searchMs.map((s) => s[k])));
  line('  medians: keystroke -> server / server / answer -> shown', `${part('toServer')} / ${part('server')} / ${part('toScreen')}`);
  console.log(`    parts (medians): ${partsLine(f.searchMs.map((s) => s.parts), 'typing pause')}`);
  const others = new Map<string, number>();
  for (const r of f.otherRequests) others.set(r, (others.get(r) ?? 0) + 1);
  console.log(`  other requests meanwhile: ${others.size ? [...others].map(([r, n]) => `${r} x${n}`).join(', ') : 'none'}`);
  console.log(`  load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log('  the server alone (median of 5, over HTTP on loopback):');
  for (const a of f.apiMs) line(`  ${a.what}`, ms(a.ms));
}

/** One list request's parts (medians over `xs`), in the order the request passes them. */
function partsLine(xs: Parts[], first: string): string {
  const m = (k: keyof Parts) => {
    const v = xs.map((x) => x[k]).filter((x): x is number => x !== null);
    return v.length ? `${median(v)!.toFixed(1)}` : 'n/a';
  };
  return `${first} ${m('pageAsks')} | page -> background ${m('toBackground')} | background -> server ${m('toServer')} | server ${m('server')} | server -> background ${m('toBackgroundBack')} | background -> page ${m('toPage')} | render ${m('render')} ms`;
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
