import type pg from 'pg';
import type { Clock } from '../clock.js';
import { createPostgresRepositories } from '../repositories/postgres/index.js';
import { PgChangeFeed } from './postgres/change-feed.js';
import { migratePostgres, pendingMigrationPostgres } from './postgres/migrate.js';
import { connectPool, isConnectionError } from './postgres/pool.js';
import type { Store } from './store.js';

/** How long GET /ready waits for the database. */
const READY_TIMEOUT_MS = 3000;

/** The scaled-out backend: a PostgreSQL database shared by every server instance. */
export interface PostgresStore extends Store {
  readonly backend: 'postgres';
  readonly pool: pg.Pool;
  /** Tells the read caches of this instance about changes by any instance. */
  readonly changes: PgChangeFeed;
}

interface PostgresStoreOptions {
  /** Connections this process keeps at most (default 10). */
  maxConnections?: number;
}

/**
 * Connects to `url` (one round trip, so an unreachable server fails here with
 * DatabaseUnreachableError naming it and what to check) and applies pending migrations, under an
 * advisory lock so instances starting together migrate once. A connection lost later is replaced
 * by the pool on the next query: the store recovers by itself when the server is back.
 */
export async function openPostgresStore(url: string, clock: Clock, opts: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const pool = await connectPool(url, { max: opts.maxConnections ?? 10 });
  try {
    await migratePostgres(pool);
  } catch (err) {
    // The migration's failure is the one to report; the pool is closed on the way out.
    await pool.end().catch(() => undefined);
    throw err;
  }
  // Read caches hear of every instance's commits through LISTEN/NOTIFY (see PgChangeFeed); until
  // its connection listens they are off, so a failure here only costs speed.
  const changes = new PgChangeFeed(pool, { connectionString: url, connectionTimeoutMillis: 5000 });
  await changes.start();
  let warn: ((message: string) => void) | undefined;
  let closed = false;
  // Idle connections cut by a server restart: the pool drops them; said once per outage in the log.
  let lostReported = false;
  pool.on('error', (err) => {
    if (lostReported) return;
    lostReported = true;
    warn?.(`PostgreSQL connection lost (${err.message}); requests answer 503 until the server is back, then reconnect by themselves`);
  });
  pool.on('connect', () => {
    lostReported = false;
  });
  return {
    backend: 'postgres',
    pool,
    changes,
    repos: createPostgresRepositories(pool, clock, (tables) => changes.signal(tables)),
    start(onWarn) {
      warn = onWarn;
      changes.reportTo(onWarn);
    },
    isUnavailable: isConnectionError,
    async checkReady() {
      if (closed) return 'the database is closed (the server is shutting down)';
      // A database that hangs instead of refusing must not hang the health check: load balancers
      // give up after a few seconds, and then the reason would be lost.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('the database does not answer within 3 s'), READY_TIMEOUT_MS);
      });
      try {
        return await Promise.race([
          pendingMigrationPostgres(pool).catch((err: unknown) => {
            // A lost connection is logged once by the pool's error handler; anything else here.
            if (isConnectionError(err)) return 'the database does not answer';
            warn?.(`readiness check failed: ${(err as Error).message}`);
            return 'the database answered with an error';
          }),
          timeout,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await changes.close();
      await pool.end();
    },
  };
}
