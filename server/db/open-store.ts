import type { Clock } from '../clock.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export interface StoreOptions {
  /** Where the SQLite file lives (and, on every backend, uploaded files). */
  dataDir: string;
  clock: Clock;
}

/** Opens the configured database, migrated, with its repositories: the one place a backend is picked. */
export async function openStore(opts: StoreOptions): Promise<Store> {
  return openSqliteStore(opts.dataDir, opts.clock);
}
