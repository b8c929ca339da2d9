import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.js';

export type Db = Database.Database;

export const DB_FILE = 'tidemark.sqlite';

/**
 * Opens (creating when needed) the SQLite database under `dataDir`, in WAL mode so the CLI and a
 * running server can use the same file at once, and brings its schema up to date.
 */
export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, DB_FILE));
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a killed process (only an OS crash can lose the last commits).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  migrate(db);
  return db;
}
