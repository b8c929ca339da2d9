// The web app's initial download: builds it (vite.web.config.ts) into a temporary directory and
// prints, gzipped at level 9, what its index.html loads before anything shows (the module script,
// the modules it preloads, the style sheet) against the target: initial JavaScript at most
// 80 KB gzipped. Run: npx tsx bench/web/size.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildWeb } from '../../scripts/build-web.js';

const TARGET_JS_GZIP = 80 * 1024;

const dir = await buildWeb({ outDir: fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-web-size-')), quiet: true });
try {
  const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = [...index.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const rows = files.map((file) => {
    const bytes = fs.readFileSync(path.join(dir, file));
    return { file, raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
  });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  for (const r of rows) console.log(`${r.file.padEnd(40)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gzip`);
  const js = rows.filter((r) => r.file.endsWith('.js')).reduce((sum, r) => sum + r.gzip, 0);
  const sw = zlib.gzipSync(fs.readFileSync(path.join(dir, 'sw.js')), { level: 9 }).length;
  console.log(`initial JavaScript: ${kb(js)} gzip (target ≤ ${kb(TARGET_JS_GZIP)}: ${js <= TARGET_JS_GZIP ? 'met' : 'MISSED'}); service worker: ${kb(sw)} gzip`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
