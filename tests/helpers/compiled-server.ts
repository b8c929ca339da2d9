// The compiled server as an operator runs it: `npm run build`'s server part (scripts/build-server.ts)
// in a directory of its own that has only the production dependencies, installed by
// `npm ci --omit=dev` from the project's package.json and package-lock.json. No tsx, TypeScript or
// WXT there, so a run-time import of any of them fails the tests that use it.
//
// The install is kept in .tmp/production/<hash of the lock file>/ and redone only when the lock
// file changes; the server is compiled afresh into it on every run (about a second). npm runs with
// --ignore-scripts and the native SQLite driver is copied from the project's own install: its build
// script compiles SQLite from source when no prebuilt binary can be downloaded (minutes here), and
// the binary is the same file for the same driver version and Node.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const NATIVE = path.join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

function run(command: string, args: string[], cwd: string): void {
  const res = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${res.stdout}\n${res.stderr}`);
}

/** Installs (when needed) and compiles; answers the directory, whose dist/server/cli.js is the entry. */
export function prepareCompiledServer(): string {
  const lock = fs.readFileSync(path.join(ROOT, 'package-lock.json'));
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  // What the install depends on: the lock file and the dependency lists (not the scripts).
  const hash = crypto
    .createHash('sha256')
    .update(lock)
    .update(JSON.stringify([pkg.dependencies, pkg.devDependencies, pkg.overrides]))
    .digest('hex')
    .slice(0, 16);
  const base = path.join(ROOT, '.tmp', 'production');
  const dir = path.join(base, hash);
  if (!fs.existsSync(path.join(dir, NATIVE))) {
    const temp = `${dir}.installing-${process.pid}`;
    fs.rmSync(temp, { recursive: true, force: true });
    fs.mkdirSync(path.join(temp, 'scripts'), { recursive: true });
    for (const file of ['package.json', 'package-lock.json', path.join('scripts', 'postinstall.mjs')]) fs.copyFileSync(path.join(ROOT, file), path.join(temp, file));
    run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], temp);
    // What npm's postinstall would run: it must pass without WXT.
    run(process.execPath, [path.join('scripts', 'postinstall.mjs')], temp);
    fs.mkdirSync(path.dirname(path.join(temp, NATIVE)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, NATIVE), path.join(temp, NATIVE));
    for (const old of fs.existsSync(base) ? fs.readdirSync(base) : []) {
      if (!old.includes('.installing-')) fs.rmSync(path.join(base, old), { recursive: true, force: true });
    }
    fs.renameSync(temp, dir);
  }
  run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build-server.ts'), path.join(dir, 'dist')], ROOT);
  return dir;
}
