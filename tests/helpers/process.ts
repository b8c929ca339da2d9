// Runs the real CLI as child processes: the server's command line bundled once per state of the
// sources (tests/helpers/cli-bundle.ts) and started with plain `node`, which starts in a fraction of
// the time `npm run server -- ...` (`tsx server/cli.ts ...`) takes; runCliThroughTsx() runs that entry itself.
import { execFile, spawn, spawnSync, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import path from 'node:path';
import { cliBundle } from './cli-bundle.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI_SOURCE = path.join(ROOT, 'server', 'cli.ts');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const res = spawnSync(process.execPath, [cliBundle(), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** `npm run server -- ...` as a user runs it: tsx on the TypeScript sources (slow to start; for the test of that entry). */
export function runCliThroughTsx(args: string[]): CliResult {
  const res = spawnSync(TSX, [CLI_SOURCE, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/**
 * runCli without blocking the test's own event loop: for commands that talk to a server the test
 * itself runs (an S3 server, a page server, a mail server).
 */
export function runCliAsync(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliBundle(), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn', ...env } }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * One CLI process, for a test that drives it itself (reads its output as it comes, kills it). It is
 * the process running the command (no launcher in between), so a signal sent to it reaches the command.
 */
export function spawnCli(args: string[], options: SpawnOptionsWithoutStdio = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [cliBundle(), ...args], { cwd: ROOT, ...options, env: { ...process.env, LOG_LEVEL: 'warn', ...options.env } });
}

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  /** Base URL of the API, e.g. http://127.0.0.1:4567/rest/v1 */
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `serve` and resolves once it printed the URL it listens on. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  // The server itself is `child` (SIGKILL in the durability test must reach it).
  const child = spawnCli(['serve', ...args], { env });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in time:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+\/rest\/v1)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening:\n${out}`));
    });
  });
}
