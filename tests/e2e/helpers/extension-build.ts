// Builds the extension for the end-to-end tests: once per test run (per worker process), and not at
// all when nothing it is built from changed since the last build (a stamp of paths, sizes and times).
// Each build lands in a folder named by its stamp, built under a temporary name and renamed into
// place, so two test runs at once never load a half-written or deleted build.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildExtension, ROOT } from '../../../scripts/build-extension.js';

const OUT = path.join(ROOT, '.tmp', 'e2e-extension');
const SOURCES = ['entrypoints', 'components', 'lib', 'public', 'wxt.config.ts', 'package.json'];

function stamp(): string {
  const hash = crypto.createHash('sha256');
  const walk = (p: string) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
    } else {
      hash.update(`${path.relative(ROOT, p)}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  for (const s of SOURCES) walk(path.join(ROOT, s));
  return hash.digest('hex');
}

let building: Promise<string> | null = null;

/** The unpacked Chrome build's directory. */
export function ensureExtensionBuilt(): Promise<string> {
  building ??= (async () => {
    const want = stamp();
    const dir = path.join(OUT, want.slice(0, 16));
    const chromeDir = path.join(dir, 'chrome-mv3');
    if (fs.existsSync(path.join(chromeDir, 'manifest.json'))) return chromeDir;
    fs.mkdirSync(OUT, { recursive: true });
    const temp = `${dir}.building-${process.pid}`;
    fs.rmSync(temp, { recursive: true, force: true });
    await buildExtension({ outDir: temp, quiet: true, browsers: ['chrome'] });
    try {
      fs.renameSync(temp, dir);
    } catch {
      // Another run finished the same build first: use theirs.
      fs.rmSync(temp, { recursive: true, force: true });
    }
    removeOldBuilds(dir);
    return chromeDir;
  })();
  return building;
}

/** Builds of older sources, left alone for an hour in case a run that is still going uses one. */
function removeOldBuilds(keep: string): void {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(OUT)) {
    const p = path.join(OUT, name);
    if (p === keep) continue;
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (st && st.mtimeMs < hourAgo) fs.rmSync(p, { recursive: true, force: true });
  }
}
