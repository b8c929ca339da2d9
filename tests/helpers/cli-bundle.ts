// The server's command line (server/cli.ts and every command in server/cli/commands/) bundled into
// plain JavaScript with esbuild, for tests and benches that run it as a process: `node <bundle>`
// starts in a fraction of the time `tsx server/cli.ts` takes (tsx compiles and loads each of the
// server's TypeScript modules through a loader on every start). One bundle per state of the sources
// (a stamp of paths, sizes and times, as tests/e2e/helpers/extension-build.ts does for the
// extension), kept in .tmp/cli/<stamp>/ and built under a temporary name, so runs at once share it.
// The bundle is the same code: node_modules stay outside it (loaded from the project's node_modules),
// and every server file keeps its own `import.meta.url`, so migrations, styles and worker scripts
// are read from the source tree as under tsx. `npm run server` itself (tsx) is still tested
// (tests/server/cli.test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { sourceStamp } from './source-stamp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const OUT = path.join(ROOT, '.tmp', 'cli');
const SERVER = path.join(ROOT, 'server');
/** What the bundle is built from. */
const SOURCES = ['server', 'lib', 'package.json', 'tsconfig.base.json'];

function stamp(): string {
  return sourceStamp(ROOT, SOURCES, (file) => file.endsWith('.test.ts')).slice(0, 16);
}

/**
 * Each source file keeps its own location: `import.meta.url` becomes the file's URL in the source
 * tree. Except the entry, server/cli.ts, which finds the commands next to itself: in the bundle.
 */
const sourceLocations: Plugin = {
  name: 'source-locations',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`) || args.path === path.join(SERVER, 'cli.ts')) return undefined;
      const text = fs.readFileSync(args.path, 'utf8');
      const url = pathToFileURL(args.path).href;
      return {
        contents: text
          .replaceAll('import.meta.url', JSON.stringify(url))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path)),
        loader: 'ts',
      };
    });
  },
};

/** Builds the bundle into `dir` (its entry: `dir`/cli.js). */
export async function buildCliBundle(dir: string): Promise<void> {
  const commands = fs
    .readdirSync(path.join(SERVER, 'cli', 'commands'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(SERVER, 'cli', 'commands', f));
  const temp = `${dir}.building-${process.pid}`;
  fs.rmSync(temp, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(SERVER, 'cli.ts'), ...commands],
    outbase: SERVER,
    outdir: temp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [sourceLocations],
    logLevel: 'error',
  });
  try {
    fs.renameSync(temp, dir);
  } catch {
    // Another run finished the same build first: use theirs.
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** Bundles of older sources, left alone for an hour in case a run that is still going uses one. */
function removeOldBundles(current: string): void {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(OUT)) {
    const p = path.join(OUT, name);
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (name !== current && st && st.mtimeMs < hourAgo) fs.rmSync(p, { recursive: true, force: true });
  }
}

let built: { stamp: string; entry: string } | undefined;

/**
 * The bundle's entry for the sources as they are now, built first when needed (in a child process,
 * so that callers may stay synchronous; vitest's globalSetup tests/setup/cli-bundle.ts builds it
 * before the test files start).
 */
export function cliBundle(): string {
  if (built) return built.entry;
  const current = stamp();
  const dir = path.join(OUT, current);
  const entry = path.join(dir, 'cli.js');
  if (!fs.existsSync(entry)) {
    fs.mkdirSync(OUT, { recursive: true });
    const res = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), dir], { cwd: ROOT, encoding: 'utf8' });
    if (res.status !== 0 || !fs.existsSync(entry)) throw new Error(`Bundling the command line failed:\n${res.stdout}${res.stderr}`);
    removeOldBundles(current);
  }
  built = { stamp: current, entry };
  return entry;
}

/** Prepares the bundle ahead (globalSetup): the same as cliBundle(), without a child process. */
export async function prepareCliBundle(): Promise<string> {
  const current = stamp();
  const dir = path.join(OUT, current);
  if (!fs.existsSync(path.join(dir, 'cli.js'))) {
    fs.mkdirSync(OUT, { recursive: true });
    await buildCliBundle(dir);
    removeOldBundles(current);
  }
  return path.join(dir, 'cli.js');
}

// Run as a script (by cliBundle()): build into the directory given.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCliBundle(process.argv[2]);
}
