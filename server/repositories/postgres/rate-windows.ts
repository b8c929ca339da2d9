import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { RateWindowsRepository } from '../types.js';

/** About one hit in this many also deletes ended windows, so the table stays small without a timer. */
const PRUNE_ONE_IN = 500;

/** Rate-limit windows shared by every instance: one atomic upsert per counted request. */
export class PgRateWindowsRepository implements RateWindowsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async hit(key: string, windowMs: number): Promise<{ start: number; count: number }> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<{ start: number; count: number }>(
      `INSERT INTO rate_windows (key, start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key) DO UPDATE SET
         start = CASE WHEN $2 - rate_windows.start >= $3 THEN $2 ELSE rate_windows.start END,
         count = CASE WHEN $2 - rate_windows.start >= $3 THEN 1 ELSE rate_windows.count + 1 END
       RETURNING start, count`,
      [key, now, windowMs],
    );
    if (Math.random() * PRUNE_ONE_IN < 1) await this.pool.query('DELETE FROM rate_windows WHERE start <= $1', [now - windowMs]);
    return rows[0];
  }
}
