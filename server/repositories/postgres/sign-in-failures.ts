import type pg from 'pg';
import type { SignInFailuresRepository } from '../types/index.js';

/** Failed password checks shared by every instance (migration 0005). */
export class PgSignInFailuresRepository implements SignInFailuresRepository {
  constructor(private readonly pool: pg.Pool) {}

  async recent(key: string, since: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ at: number }>('SELECT at FROM sign_in_failures WHERE key = $1 AND at > $2 ORDER BY at', [key, since]);
    return rows.map((r) => r.at);
  }

  async add(keys: string[], at: number, keepMs: number): Promise<void> {
    await this.pool.query(
      `WITH gone AS (DELETE FROM sign_in_failures WHERE key = ANY($1::text[]) AND at <= $2::bigint - $3::bigint)
       INSERT INTO sign_in_failures (key, at) SELECT k, $2::bigint FROM unnest($1::text[]) AS k`,
      [keys, at, keepMs],
    );
  }

  async clear(key: string): Promise<void> {
    await this.pool.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
  }
}
