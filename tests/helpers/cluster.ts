// Several `serve` processes behind one loopback round-robin balancer, as a deployment with N
// stateless instances behind a load balancer runs them. On SQLite they share one data directory
// (one database file); with `database` (postgres://...) each has its own data directory and they
// share the database. They share one files directory (serve --files), or one S3 bucket when `env`
// holds TIDEMARK_S3_* settings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliAsync, startServe, type ServeProcess } from './process.js';
import { startRoundRobin, type RoundRobin } from './round-robin.js';

export interface ClusterOptions {
  /** A postgres:// URL; unset for SQLite in a shared data directory. */
  database?: string;
  instances?: number;
  /** Requests per minute per user (serve --rate-limit); the default is the service's, 120. */
  rateLimit?: number;
  /** More environment for every instance and CLI command, e.g. TIDEMARK_S3_* for object storage. */
  env?: Record<string, string>;
}

export interface Cluster {
  /** The balancer's origin, e.g. http://127.0.0.1:40123: web pages and /oauth live here. */
  origin: string;
  /** `${origin}/rest/v1` */
  url: string;
  balancer: RoundRobin;
  /** The running instances (null while one is down). */
  instances: (ServeProcess | null)[];
  filesDir: string;
  /** Each instance's data directory (one shared directory on SQLite). Mails go to `<dir>/outbox`. */
  dataDirs: string[];
  /** Runs a CLI command against the cluster's database (--data or --database added). */
  cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }>;
  /** A user made with user:create and a never-expiring API token from token:create. */
  createUser(email: string, password?: string): Promise<{ email: string; token: string }>;
  /** Kills instance `i` with SIGKILL (no clean shutdown) and waits until the process is gone. */
  kill(i: number): Promise<void>;
  /** Starts instance `i` again (after kill) and points the balancer at it. */
  restart(i: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.instances ?? 2;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-cluster-'));
  const filesDir = path.join(base, 'files');
  const dataDirs = Array.from({ length: count }, (_, i) => (options.database ? path.join(base, `data-${i}`) : path.join(base, 'data')));
  for (const dir of dataDirs) fs.mkdirSync(dir, { recursive: true });
  const where = (i: number) => (options.database ? ['--data', dataDirs[i], '--database', options.database] : ['--data', dataDirs[i]]);

  const balancer = await startRoundRobin([]);
  // Links the instances write (join links in mails, OAuth redirects, file URLs) point at the balancer.
  const env = { ...options.env, TIDEMARK_PUBLIC_URL: balancer.origin };
  const files = options.env?.TIDEMARK_S3_BUCKET ? [] : ['--files', filesDir];
  const args = (i: number) => ['--port', '0', ...where(i), ...files, '--rate-limit', String(options.rateLimit ?? 120)];
  const instances: (ServeProcess | null)[] = [];
  const cli: Cluster['cli'] = (command) => runCliAsync([...command, ...where(0)], env);

  // The first start migrates the database; the others start once it is done.
  instances[0] = await startServe(args(0), env);
  instances.push(...(await Promise.all(Array.from({ length: count - 1 }, (_, k) => startServe(args(k + 1), env)))));
  const originOf = (serve: ServeProcess) => new URL(serve.url).origin;
  balancer.targets.push(...instances.map((serve) => originOf(serve!)));
  balancer.served.push(...instances.map(() => 0));

  const stop = async (i: number, signal: NodeJS.Signals) => {
    const serve = instances[i];
    if (!serve) return;
    instances[i] = null;
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill(signal);
    await serve.exited;
  };

  return {
    origin: balancer.origin,
    url: `${balancer.origin}/rest/v1`,
    balancer,
    instances,
    filesDir,
    dataDirs: [...new Set(dataDirs)],
    cli,
    async createUser(email, password = 'a-long-password') {
      const made = await cli(['user:create', '--email', email, '--password', password]);
      if (made.status !== 0) throw new Error(`user:create failed: ${made.stderr}`);
      const token = await cli(['token:create', '--email', email]);
      if (token.status !== 0) throw new Error(`token:create failed: ${token.stderr}`);
      return { email, token: (JSON.parse(token.stdout) as { access_token: string }).access_token };
    },
    kill: (i) => stop(i, 'SIGKILL'),
    async restart(i) {
      const serve = await startServe(args(i), env);
      instances[i] = serve;
      balancer.targets[i] = originOf(serve);
    },
    async close() {
      await Promise.all(instances.map((_, i) => stop(i, 'SIGTERM')));
      await balancer.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
