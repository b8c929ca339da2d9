// A throwaway PostgreSQL cluster for tests: Debian's PostgreSQL binaries, `initdb` run as the
// `postgres` user when we are root (initdb refuses root), a free loopback port, a private socket
// directory, fsync off. Nothing is downloaded. Used once per test run (tests/setup/postgres.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stablePort } from './ports.js';

export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database?: string): string;
  port: number;
  dir: string;
  /** Stops the server (fast shutdown: open connections are cut), keeping its data, as an outage would. */
  pause(): void;
  /** Starts it again on the same port with the same data. */
  resume(): void;
  stop(): void;
}

/** Where Debian installs the server binaries (PG_BIN overrides). */
export function pgBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb'))) return bin;
  }
  throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: install them with `apt-get install -y postgresql` (or set PG_BIN).');
}

/** Runs a PostgreSQL binary as the `postgres` user when we are root, else as ourselves. */
function runPg(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-pg-'));
  const data = path.join(dir, 'data');
  const sockets = path.join(dir, 'sock');
  fs.mkdirSync(sockets);
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  runPg(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
  // Below the ephemeral range: free until PostgreSQL takes it, and again after a pause (tests/helpers/ports.ts).
  const port = await stablePort();
  const opts = [
    `-p ${port}`,
    `-k ${sockets}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
    '-c shared_buffers=32MB',
  ].join(' ');
  const start = () => runPg(path.join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  start();
  let stopped = false;
  return {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    pause() {
      runPg(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume: start,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runPg(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
