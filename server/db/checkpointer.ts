import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './open.js';

export interface Checkpointer {
  /** Resolves after the next checkpoint has run (tests use it). */
  checkpointNow(): Promise<{ log: number; checkpointed: number }>;
  /** Runs a last checkpoint and ends the worker. */
  stop(): Promise<void>;
}

interface Options {
  intervalMs?: number;
  onError?: (message: string) => void;
}

/**
 * Moves WAL checkpoints off the request path. By default SQLite copies the write-ahead log into
 * the database file inside whichever commit pushes the log past 1000 pages, fsync included, so one
 * write in a few would pay for all of them. Here the
 * server's connection never checkpoints; a worker thread with its own connection does, every
 * `intervalMs`, in PASSIVE mode (it never blocks readers or the writer).
 * If the worker fails to start or dies, the connection checkpoints by itself again.
 */
export function startCheckpointer(db: Db, opts: Options = {}): Checkpointer {
  const require = createRequire(import.meta.url);
  const worker = new Worker(new URL('./checkpoint-worker.cjs', import.meta.url), {
    workerData: { file: db.name, driver: require.resolve('better-sqlite3'), intervalMs: opts.intervalMs ?? 1000 },
  });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');

  let alive = true;
  const fallBack = () => {
    if (!alive) return;
    alive = false;
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  };
  const waiting: ((r: { log: number; checkpointed: number }) => void)[] = [];
  let stopped: (() => void) | null = null;

  worker.on('message', (m: { kind: string; log?: number; checkpointed?: number; message?: string }) => {
    if (m.kind === 'checkpointed') for (const resolve of waiting.splice(0)) resolve({ log: m.log!, checkpointed: m.checkpointed! });
    else if (m.kind === 'error') opts.onError?.(m.message!);
    else if (m.kind === 'stopped') stopped?.();
  });
  worker.on('error', (err) => {
    opts.onError?.(err.message);
    fallBack();
  });
  worker.on('exit', () => {
    fallBack();
    stopped?.();
  });

  return {
    checkpointNow() {
      if (!alive) return Promise.reject(new Error('The checkpoint worker is not running.'));
      return new Promise((resolve) => {
        waiting.push(resolve);
        worker.postMessage('now');
      });
    },
    async stop() {
      if (!alive) return;
      await new Promise<void>((resolve) => {
        stopped = resolve;
        worker.postMessage('stop');
      });
      alive = false;
      await worker.terminate();
    },
  };
}
