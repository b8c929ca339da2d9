// Runs the real CLI (`npm run server -- ...` is `tsx server/cli.ts ...`) as child processes.
import { execFile, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'server', 'cli.ts');

export function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const res = spawnSync(TSX, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/**
 * runCli without blocking the test's own event loop: for commands that talk to a server the test
 * itself runs (an S3 server, a page server).
 */
export function runCliAsync(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn', ...env } }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ status, stdout, stderr });
    });
  });
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
  // One node process with tsx as a loader, not the tsx launcher: a signal sent to `child` (SIGKILL
  // in the durability test) must reach the server itself, not a launcher whose worker outlives it.
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
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
