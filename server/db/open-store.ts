import type { Clock } from '../clock.js';
import { openPostgresStore } from './postgres-store.js';
import { isPostgresUrl } from './postgres/pool.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export interface StoreOptions {
  /** Where the SQLite file lives (and, unless files are kept elsewhere, uploaded files). */
  dataDir: string;
  /** A `postgres://` URL: PostgreSQL there instead of SQLite under `dataDir`. */
  databaseUrl?: string;
  clock: Clock;
}

/** Thrown for a `--database` value that is not a PostgreSQL URL. */
export class UnsupportedDatabaseError extends Error {}

/** Opens the configured database, migrated, with its repositories: the one place a backend is picked. */
export async function openStore(opts: StoreOptions): Promise<Store> {
  if (opts.databaseUrl) {
    if (!isPostgresUrl(opts.databaseUrl)) {
      throw new UnsupportedDatabaseError(
        `--database (or TIDEMARK_DATABASE_URL) must be a PostgreSQL URL such as postgres://user:password@host:5432/tidemark; got "${opts.databaseUrl}". Leave it out to use SQLite under --data.`,
      );
    }
    return openPostgresStore(opts.databaseUrl, opts.clock);
  }
  return openSqliteStore(opts.dataDir, opts.clock);
}
