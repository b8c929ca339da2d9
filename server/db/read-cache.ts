import type Database from 'better-sqlite3';
import { changesOf, type ChangeTracker } from './change-tracker.js';

/**
 * A bounded in-memory cache for hot reads (a token's row, a bookmark), kept only while the database
 * is unchanged: any write through this connection, or a commit by another process, empties it (see
 * ChangeTracker). Reads inside a transaction neither fill nor use it, since they may see
 * uncommitted rows. Values are frozen, so a caller that tried to change a shared value would fail
 * loudly instead of corrupting what the next request reads.
 */
export class ReadCache<K, V> {
  private readonly tracker: ChangeTracker;
  private readonly entries = new Map<K, V>();
  private generation = -1;

  constructor(
    private readonly db: Database.Database,
    private readonly maxEntries: number,
  ) {
    this.tracker = changesOf(db);
  }

  get(key: K, load: () => V): V {
    if (this.db.inTransaction) return load();
    const generation = this.tracker.generation();
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    } else if (this.entries.has(key)) {
      return this.entries.get(key) as V;
    }
    const value = deepFreeze(load());
    // Loading may itself have written (it should not); only keep values read under this generation.
    if (this.tracker.generation() === generation) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
      this.entries.set(key, value);
    }
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
