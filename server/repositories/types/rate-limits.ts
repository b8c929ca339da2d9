// Counters shared by every instance: rate-limit windows and failed sign-ins.

/**
 * Fixed-window request counters for rate limits. On PostgreSQL they live in the database, so every
 * instance counts into the same window; the embedded SQLite backend (one server process per data
 * directory) keeps them in the process.
 */
export interface RateWindowsRepository {
  /**
   * Counts one request for `key` in its current window of `windowMs`: the window's start (epoch ms)
   * and this request's number in it (over `limit` means refused). `limit` lets a backend shared by
   * several instances count ahead in blocks while the limit is far (see PgRateWindowsRepository).
   */
  hit(key: string, windowMs: number, limit: number): RateWindowCount | Promise<RateWindowCount>;
}

/**
 * A request's place in its rate-limit window. Answered at once (not a promise) when it is known
 * without asking the database, as for most requests: every API call counts.
 */
export interface RateWindowCount {
  start: number;
  count: number;
}

/**
 * Failed password checks per key (an account or an address), for the sign-in throttle. On
 * PostgreSQL they live in the database, so the limit holds across instances; the embedded SQLite
 * backend keeps them in the process.
 */
export interface SignInFailuresRepository {
  /** Times (epoch ms) of the failures recorded for `key` after `since`, oldest first. */
  recent(key: string, since: number): Promise<number[]>;
  /** Records one failure at `at` for each key; failures older than `keepMs` before it may be forgotten. */
  add(keys: string[], at: number, keepMs: number): Promise<void>;
  /** Forgets the key's failures (a correct password for that account). */
  clear(key: string): Promise<void>;
}
