import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { trackChanges } from './change-tracker.js';
import { migrate } from './migrate.js';
import { rekeyLinks } from './rekey-links.js';

export type Db = Database.Database;

export const DB_FILE = 'tidemark.sqlite';

/**
 * Opens (creating when needed) the SQLite database under `dataDir`, in WAL mode so the CLI and a
 * running server can use the same file at once, and brings its schema (and its stored URL keys) up to date.
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
  rekeyLinks(db);
  cacheStatements(db);
  beginTransactionsImmediate(db);
  return db;
}

/**
 * Every transaction of ours writes, and most read before they write. Begun DEFERRED (SQLite's and
 * better-sqlite3's default), such a transaction that reads and then finds another connection (an
 * `import` command beside `serve`) has written in between fails at once with SQLITE_BUSY: the busy
 * timeout cannot help a snapshot that is already stale. Begun IMMEDIATE, it takes the write lock
 * first, waiting for it up to the busy timeout, and then cannot be overtaken.
 */
function beginTransactionsImmediate(db: Database.Database): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: never[]) => unknown) => transaction(fn).immediate) as Database.Database['transaction'];
}

/**
 * Repositories call `db.prepare(sql)` where they need it; compiling the same SQL on every request
 * costs more than running it. This keeps the most recently used statements (by SQL text) and hands
 * them out again. A caller that switches a statement's mode (`.raw()`, `.pluck()`) must use SQL no
 * other caller uses. Statements that write are wrapped so read caches learn of every write.
 */
function cacheStatements(db: Database.Database, max = 1000): void {
  const { wrapStatement } = trackChanges(db);
  const compile = db.prepare.bind(db);
  const prepare = (sql: string) => wrapStatement(compile(sql) as Database.Statement);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) {
      cache.delete(sql);
    } else {
      stmt = prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, stmt);
    return stmt;
  }) as typeof db.prepare;
}
