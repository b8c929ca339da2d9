// The last step of `npm run zip`: checks the store packages it wrote to .output/ as a store would see
// them. The Chrome and Firefox packages and the Firefox sources archive exist under package.json's
// version, each package's manifest carries that version, the sources archive holds what rebuilds the
// extension (and not the server), and Mozilla's linter (`web-ext lint`, what addons.mozilla.org runs)
// finds no error, warning or notice in the Firefox package itself, unpacked. Exits 1 naming each problem.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(ROOT, '.output');

function run(command: string, args: string[]): string {
  const res = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.error) throw new Error(`${command} could not be run (${res.error.message}); on Debian: apt-get install unzip.`);
  return res.stdout;
}

/** The names of the files in a zip archive. */
function entries(zip: string): string[] {
  return run('unzip', ['-Z1', zip]).split('\n').filter(Boolean);
}

function check(): string[] {
  const problems: string[] = [];
  const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const file = (kind: string) => path.join(OUTPUT, `${name}-${version}-${kind}.zip`);
  for (const kind of ['chrome', 'firefox', 'sources']) {
    if (!fs.existsSync(file(kind))) problems.push(`${path.relative(ROOT, file(kind))} is missing.`);
  }
  if (problems.length) return problems;

  for (const kind of ['chrome', 'firefox']) {
    const manifest = JSON.parse(run('unzip', ['-p', file(kind), 'manifest.json'])) as { version?: string };
    if (manifest.version !== version) problems.push(`The ${kind} package's manifest says version ${manifest.version}, package.json ${version}.`);
  }

  const sources = entries(file('sources'));
  for (const needed of ['package.json', 'package-lock.json', 'wxt.config.ts', 'scripts/postinstall.mjs', 'entrypoints/background/index.ts']) {
    if (!sources.includes(needed)) problems.push(`The sources archive lacks ${needed}: it would not rebuild the extension.`);
  }
  // The build reads the root tsconfig.json, which references each part's: one missing stops it.
  const rootConfig = run('unzip', ['-p', file('sources'), 'tsconfig.json']).replace(/^\s*\/\/.*$/gm, '');
  for (const { path: part } of (JSON.parse(rootConfig) as { references?: { path: string }[] }).references ?? []) {
    const config = path.posix.normalize(part.endsWith('.json') ? part : `${part}/tsconfig.json`);
    if (!sources.includes(config)) problems.push(`The sources archive lacks ${config}, which tsconfig.json references: the build would stop.`);
  }
  const stray = sources.filter((f) => /^(server|tests|bench|dist|node_modules|\.output|data)\/./.test(f) && !f.endsWith('/tsconfig.json'));
  if (stray.length) problems.push(`The sources archive holds files that are not the extension's: ${stray.slice(0, 5).join(', ')}.`);

  const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-firefox-package-'));
  try {
    run('unzip', ['-q', file('firefox'), '-d', unpacked]);
    const out = run(path.join(ROOT, 'node_modules', '.bin', 'web-ext'), ['lint', '--source-dir', unpacked, '--output', 'json', '--boring', '--no-config-discovery']);
    const report = JSON.parse(out) as Record<'errors' | 'warnings' | 'notices', { code: string; file?: string; message: string }[]>;
    for (const level of ['errors', 'warnings', 'notices'] as const) {
      for (const m of report[level]) problems.push(`web-ext lint, ${level.slice(0, -1)} in the Firefox package: ${m.code} ${m.file ?? ''} ${m.message}`);
    }
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true });
  }
  return problems;
}

const problems = check();
if (problems.length) {
  process.stderr.write(`The packages are not ready:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('Packages checked: versions match package.json, sources archive complete, web-ext lint: 0 errors, 0 warnings, 0 notices.\n');
