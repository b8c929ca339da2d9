// Builds the server to plain JavaScript in dist/: every TypeScript file of server/ and lib/api/
// (tests left out) compiled one to one by esbuild, in the same layout, next to the files the server
// reads at run time (SQL migrations, the web app's style sheet, the worker scripts). Each module keeps
// its own location, so `import.meta.url` finds its migrations and workers as it does in the sources.
// `npm run build` runs it; `node dist/server/cli.js serve` runs the result with production
// dependencies only (docs/operations.md says why a tree and not one bundle).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The parts of the repository the server is made of. */
const PARTS = ['server', path.join('lib', 'api')];

function isTest(file: string): boolean {
  return /\.test\.ts$/.test(file);
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** Builds into `outDir` (default dist/); returns the command line's entry. */
export async function buildServer(outDir = path.join(ROOT, 'dist')): Promise<string> {
  const temp = `${outDir}.building-${process.pid}`;
  fs.rmSync(temp, { recursive: true, force: true });
  const sources: string[] = [];
  for (const part of PARTS) {
    for (const file of walk(path.join(ROOT, part))) {
      if (isTest(file) || path.basename(file) === 'tsconfig.json') continue;
      if (file.endsWith('.ts')) sources.push(file);
      else {
        // Files read at run time: migrations, static assets, worker scripts written as JavaScript.
        const dest = path.join(temp, path.relative(ROOT, file));
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        fs.copyFileSync(file, dest);
      }
    }
  }
  await build({
    entryPoints: sources,
    outbase: ROOT,
    outdir: temp,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(temp, outDir);
  return path.join(outDir, 'server', 'cli.js');
}

// `tsx scripts/build-server.ts [outDir]`
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined).then(
    (entry) => process.stdout.write(`Server: ${path.relative(process.cwd(), entry)}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
