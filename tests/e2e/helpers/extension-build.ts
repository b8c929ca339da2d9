// Builds the extension for the end-to-end tests: once per test run (per worker process), and not at
// all when nothing it is built from changed since the last build (a stamp of paths, sizes and times).
// Each build lands in a folder named by its stamp, built under a temporary name and renamed into
// place, so two test runs at once never load a half-written or deleted build.
import fs from 'node:fs';
import path from 'node:path';
import { buildExtension, ROOT } from '../../../scripts/build-extension.js';
import { sourceStamp } from '../../helpers/source-stamp.js';

const OUT = path.join(ROOT, '.tmp', 'e2e-extension');
const SOURCES = ['entrypoints', 'components', 'lib', 'public', 'scripts/vite', 'wxt.config.ts', 'package.json'];

function stamp(): string {
  return sourceStamp(ROOT, SOURCES);
}

const building = new Map<'chrome' | 'firefox', Promise<string>>();

/** The unpacked build's directory for `browser` (Chrome unless told otherwise; the Firefox lane asks for Firefox). */
export function ensureExtensionBuilt(browser: 'chrome' | 'firefox' = 'chrome'): Promise<string> {
  let pending = building.get(browser);
  if (!pending) {
    pending = buildFor(browser);
    building.set(browser, pending);
  }
  return pending;
}

async function buildFor(browser: 'chrome' | 'firefox'): Promise<string> {
  const want = stamp();
  const dir = path.join(OUT, want.slice(0, 16) + (browser === 'chrome' ? '' : `-${browser}`));
  const builtDir = path.join(dir, `${browser}-mv3`);
  if (fs.existsSync(path.join(builtDir, 'manifest.json'))) return builtDir;
  fs.mkdirSync(OUT, { recursive: true });
  const temp = `${dir}.building-${process.pid}`;
  fs.rmSync(temp, { recursive: true, force: true });
  await buildExtension({ outDir: temp, quiet: true, browsers: [browser] });
  try {
    fs.renameSync(temp, dir);
  } catch {
    // Another run finished the same build first: use theirs.
    fs.rmSync(temp, { recursive: true, force: true });
  }
  removeOldBuilds(want.slice(0, 16));
  return builtDir;
}

/** Builds of older sources (any browser), left alone for an hour in case a run that is still going uses one. */
function removeOldBuilds(currentStamp: string): void {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(OUT)) {
    const p = path.join(OUT, name);
    if (name === currentStamp || name.startsWith(`${currentStamp}-`)) continue;
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (st && st.mtimeMs < hourAgo) fs.rmSync(p, { recursive: true, force: true });
  }
}
