import type Database from 'better-sqlite3';
import type { CacheSignal } from './read-cache.js';

/**
 * Tells in-memory read caches when the database may have changed, so they can be dropped.
 *
 * `generation` moves on:
 * - after every statement that can write, run through this connection (see `trackWrites`), and
 *   after `exec`;
 * - when another connection (the CLI, a second server process) has committed: SQLite's
 *   `PRAGMA data_version` changes then. Reading it costs a few microseconds, so it is read at most
 *   once per event-loop turn; a commit by another process becomes visible from the next turn on,
 *   as if this turn's work had run just before that commit.
 */
class ChangeTracker {
  private current = 0;
  private external: unknown;
  private checkedThisTurn = false;
  private readonly dataVersion: Database.Statement;
  private readonly endTurn = () => {
    this.checkedThisTurn = false;
  };

  constructor(db: Database.Database) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.external = this.dataVersion.get();
  }

  /** The generation now; a cache filled under another generation is stale. */
  generation(): number {
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      setImmediate(this.endTurn);
      const version = this.dataVersion.get();
      if (version !== this.external) {
        this.external = version;
        this.current++;
      }
    }
    return this.current;
  }

  /** Called after this connection wrote (or may have written). */
  wrote(): void {
    this.current++;
  }
}

const trackers = new WeakMap<Database.Database, ChangeTracker>();

/** The tracker of a connection opened by `openDatabase`. */
function changesOf(db: Database.Database): ChangeTracker {
  const tracker = trackers.get(db);
  if (!tracker) throw new Error('This database connection has no change tracker: open it with openDatabase().');
  return tracker;
}

/** What a ReadCache on this connection listens to: its tracker, and no caching inside a transaction. */
export function cacheSignalOf(db: Database.Database): CacheSignal {
  const tracker = changesOf(db);
  return { generation: () => tracker.generation(), usable: () => !db.inTransaction };
}

/** Starts tracking writes on `db`; `wrapStatement` must be applied to every statement it prepares. */
export function trackChanges(db: Database.Database): { wrapStatement: (stmt: Database.Statement) => Database.Statement } {
  const tracker = new ChangeTracker(db);
  trackers.set(db, tracker);
  const exec = db.exec.bind(db);
  db.exec = ((sql: string) => {
    try {
      return exec(sql);
    } finally {
      tracker.wrote();
    }
  }) as typeof db.exec;
  const wrapStatement = (stmt: Database.Statement): Database.Statement => {
    // `readonly` is SQLite's own verdict (sqlite3_stmt_readonly); INSERT ... RETURNING is not readonly.
    if (stmt.readonly) return stmt;
    const writing = stmt as unknown as Record<'run' | 'get' | 'all' | 'iterate', (...args: unknown[]) => unknown>;
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = writing[method];
      writing[method] = function (this: unknown, ...args: unknown[]) {
        try {
          return original.apply(stmt, args);
        } finally {
          tracker.wrote();
        }
      };
    }
    return stmt;
  };
  return { wrapStatement };
}
