// The Tidemark server the isolation benches run in a child process, on its own data directory:
// accounts and tokens made with the CLI, `serve` started and stopped, and the bystander's
// GET /user timed. Each bench keeps only what it measures.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');

export interface ChildServer {
  process: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `${origin}/rest/v1` */
  api: string;
  stop(): Promise<void>;
}

export class BenchData {
  readonly dir: string;

  constructor(name: string) {
    this.dir = mkdtempSync(join(tmpdir(), `tidemark-${name}-`));
  }

  /** Runs a CLI command on this data directory and returns its JSON answer. */
  cli(...cmd: string[]): Record<string, string> {
    const out = spawnSync(tsx, ['server/cli.ts', ...cmd, '--data', this.dir], { cwd: root, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${cmd[0]} failed: ${out.stderr}`);
    return JSON.parse(out.stdout) as Record<string, string>;
  }

  /** Creates the account (extra `user:create` flags such as `--pro`) and returns a token for it. */
  tokenFor(email: string, ...flags: string[]): string {
    this.cli('user:create', '--email', email, '--password', 'bench-password-1', ...flags);
    return this.cli('token:create', '--email', email).access_token!;
  }

  /** Starts `serve` on a free port with rate limits out of the way; answers once it listens. */
  async serve(...flags: string[]): Promise<ChildServer> {
    const child = spawn(tsx, ['server/cli.ts', 'serve', '--port', '0', '--data', this.dir, '--rate-limit', '1000000', ...flags], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for await (const chunk of child.stdout) {
      const m = /listening on (http:\/\/[^/\s]+)/.exec(String(chunk));
      if (m) {
        const origin = m[1]!;
        return {
          process: child,
          origin,
          api: `${origin}/rest/v1`,
          async stop() {
            child.kill('SIGTERM');
            await once(child, 'exit');
          },
        };
      }
    }
    throw new Error('serve stopped before listening');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** How long the bystander's GET /user took, in ms; throws on anything but 200. */
export async function timedGetUser(api: string, token: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${api}/user`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET /user answered ${res.status}`);
  return performance.now() - t;
}
