// Gzipped size of what each extension page loads: the entry script plus the chunks it imports.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

function gz(file: string): number {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** The JS files an HTML page loads (scripts and module preloads), followed through static imports. */
function scriptsOf(dir: string, html: string): string[] {
  const text = fs.readFileSync(path.join(dir, html), 'utf8');
  const queue = [...text.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1].replace(/^\//, ''));
  const seen = new Set<string>();
  while (queue.length) {
    const rel = queue.shift()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const code = fs.readFileSync(path.join(dir, rel), 'utf8');
    for (const m of code.matchAll(/(?:import|from)\s*["']\.?\.?\/?([^"']+\.js)["']/g)) {
      const target = path.normalize(path.join(path.dirname(rel), m[1].startsWith('chunks/') ? path.relative(path.dirname(rel), m[1]) : m[1]));
      if (fs.existsSync(path.join(dir, target))) queue.push(target);
    }
  }
  return [...seen];
}

export interface BundleSizes {
  popup: { files: string[]; gzip: number };
  options: { files: string[]; gzip: number };
  background: { files: string[]; gzip: number };
}

export function bundleSizes(chromeDir: string): BundleSizes {
  const sum = (files: string[]) => files.reduce((n, f) => n + gz(path.join(chromeDir, f)), 0);
  const popup = scriptsOf(chromeDir, 'popup.html');
  const options = scriptsOf(chromeDir, 'options.html');
  const background = ['background.js'];
  return {
    popup: { files: popup, gzip: sum(popup) },
    options: { files: options, gzip: sum(options) },
    background: { files: background, gzip: sum(background) },
  };
}
