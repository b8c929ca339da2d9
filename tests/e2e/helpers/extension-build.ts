// Builds the extension for the end-to-end tests: once per test run (per worker process), and not at
// all when nothing it is built from changed since the last build (a stamp of paths, sizes and times).
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
    const chromeDir = path.join(OUT, 'chrome-mv3');
    const stampFile = path.join(OUT, 'stamp');
    const want = stamp();
    if (fs.existsSync(path.join(chromeDir, 'manifest.json')) && fs.readFileSync(stampFile, 'utf8').trim() === want) return chromeDir;
    fs.rmSync(OUT, { recursive: true, force: true });
    await buildExtension({ outDir: OUT, quiet: true, browsers: ['chrome'] });
    fs.writeFileSync(stampFile, want);
    return chromeDir;
  })();
  return building;
}
