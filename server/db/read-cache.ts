/**
 * What a read cache asks its backend before it uses or stores a value:
 * - `generation()` moves on whenever the data the cache holds may have changed (a write through
 *   this process, a commit by another process or instance); a value read under an older
 *   generation is never stored, and entries of an older generation are dropped;
 * - `usable()` is false while the backend cannot promise to hear of changes (SQLite: inside a
 *   transaction, whose reads may see uncommitted rows; PostgreSQL: while its LISTEN connection is
 *   down or unproven): reads then go to the database and nothing is stored.
 */
export interface CacheSignal {
  generation(): number;
  usable(): boolean;
}

/** A signal for backends without change notifications: caches built on it never hold anything. */
const NO_CACHE: CacheSignal = { generation: () => 0, usable: () => false };

/** Gives the signal for a cache whose values are read from `tables` (PostgreSQL: a PgChangeFeed's). */
export type CacheSignals = (tables: string[]) => CacheSignal;

/** Signals for running without read caches (repository tests that are about the database alone). */
export const noCaches: CacheSignals = () => NO_CACHE;

/**
 * A bounded in-memory cache for hot reads (a token's row, a bookmark), kept only while the database
 * is unchanged (see CacheSignal). Values are frozen, so a caller that tried to change a shared value
 * would fail loudly instead of corrupting what the next request reads. At most `maxEntries` are
 * kept; the oldest stored goes first.
 *
 * Used by both backends: SQLite's signal is its ChangeTracker, PostgreSQL's its PgChangeFeed.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, V>();
  /** Loads under way, so that requests missing the same key at once wait for one query, not one each. */
  private readonly loading = new Map<K, { generation: number; value: Promise<V> }>();
  private generation = -1;

  constructor(
    private readonly signal: CacheSignal,
    private readonly maxEntries: number,
  ) {}

  /** The cached value of `key`, or the value `load` reads (stored when nothing changed meanwhile). */
  get(key: K, load: () => V): V {
    const generation = this.current();
    if (generation === null) return load();
    if (this.entries.has(key)) return this.entries.get(key) as V;
    const value = deepFreeze(load());
    // Loading may itself have written (it should not); only keep values read under this generation.
    this.store(key, value, generation);
    return value;
  }

  /**
   * The same for a load that waits (a query over the network). The generation is taken before the
   * query is sent: when a change arrives while it runs, its answer may predate that change and is
   * returned to this caller but not stored. Callers that miss the same key under the same
   * generation while it runs share its answer (or its error).
   */
  async getAsync(key: K, load: () => Promise<V>): Promise<V> {
    const generation = this.current();
    if (generation === null) return load();
    if (this.entries.has(key)) return this.entries.get(key) as V;
    const running = this.loading.get(key);
    if (running && running.generation === generation) return running.value;
    const value = load().then((v) => {
      const frozen = deepFreeze(v);
      this.store(key, frozen, generation);
      return frozen;
    });
    const entry = { generation, value };
    this.loading.set(key, entry);
    const forget = () => {
      if (this.loading.get(key) === entry) this.loading.delete(key);
    };
    value.then(forget, forget);
    return value;
  }

  /**
   * The cached value of `key` without loading it: `{ value }` when held (and still valid), else
   * undefined. For hot paths that answer at once when they can and wait for a load only when they must.
   */
  peek(key: K): { value: V } | undefined {
    const generation = this.current();
    if (generation === null || !this.entries.has(key)) return undefined;
    return { value: this.entries.get(key) as V };
  }

  /** Entries held now (for tests and figures). */
  get size(): number {
    return this.entries.size;
  }

  /** The generation the entries belong to, after dropping stale ones; null when the cache is off. */
  private current(): number | null {
    if (!this.signal.usable()) {
      this.entries.clear();
      return null;
    }
    const generation = this.signal.generation();
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    return generation;
  }

  private store(key: K, value: V, generation: number): void {
    if (!this.signal.usable() || this.signal.generation() !== generation || this.generation !== generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
