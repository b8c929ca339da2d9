import type { Clock } from '../clock.js';
import { createSqliteRepositories } from '../repositories/sqlite/index.js';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { pendingMigration } from './migrate.js';
import { openDatabase, type Db } from './open.js';
import type { Store } from './store.js';

/** The embedded backend: one SQLite file under the data directory. */
export interface SqliteStore extends Store {
  readonly backend: 'sqlite';
  readonly db: Db;
  /** WAL checkpoints in a worker thread, once `start` ran (tests drive them). */
  readonly checkpoints: Checkpointer | undefined;
}

/** Opens (creating and migrating when needed) `<dataDir>/tidemark.sqlite`. */
export function openSqliteStore(dataDir: string, clock: Clock): SqliteStore {
  const db = openDatabase(dataDir);
  const repos = createSqliteRepositories(db, clock);
  let checkpoints: Checkpointer | undefined;
  return {
    backend: 'sqlite',
    db,
    repos,
    get checkpoints() {
      return checkpoints;
    },
    start(warn) {
      checkpoints ??= startCheckpointer(db, { onError: (message) => warn(`WAL checkpoint failed: ${message}`) });
    },
    // The file is local: there is no connection to lose.
    isUnavailable: () => false,
    async checkReady() {
      if (!db.open) return 'the database is closed (the server is shutting down)';
      try {
        return pendingMigration(db);
      } catch {
        return 'the database file cannot be read';
      }
    },
    async close() {
      await checkpoints?.stop();
      checkpoints = undefined;
      if (db.open) db.close();
    },
  };
}
