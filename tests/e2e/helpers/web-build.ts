// Builds the web app for the end-to-end tests: once, and not at all when nothing it is built from
// changed since the last build (a stamp of the sources), into a folder named by that stamp (built
// under a temporary name, then renamed), so two runs at once never serve a half-written build.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../scripts/build-extension.js';
import { buildWeb } from '../../../scripts/build-web.js';
import { sourceStamp } from '../../helpers/source-stamp.js';

const OUT = path.join(ROOT, '.tmp', 'e2e-web');
const SOURCES = ['web', 'components', 'lib', 'public/_locales', 'scripts/vite', 'vite.web.config.ts', 'package.json'];

let building: Promise<string> | null = null;

/** The built web app's directory (what the server's `webAppDir` points at). */
export function ensureWebBuilt(): Promise<string> {
  building ??= build();
  return building;
}

async function build(): Promise<string> {
  const stamp = sourceStamp(ROOT, SOURCES).slice(0, 16);
  const dir = path.join(OUT, stamp);
  if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  fs.mkdirSync(OUT, { recursive: true });
  const temp = `${dir}.building-${process.pid}`;
  fs.rmSync(temp, { recursive: true, force: true });
  await buildWeb({ outDir: temp, quiet: true });
  try {
    fs.renameSync(temp, dir);
  } catch {
    fs.rmSync(temp, { recursive: true, force: true }); // another run finished the same build first
  }
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(OUT)) {
    const p = path.join(OUT, name);
    if (name !== stamp && (fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < hourAgo) fs.rmSync(p, { recursive: true, force: true });
  }
  return dir;
}
