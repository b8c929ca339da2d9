import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import type { OAuthHandoffsRepository } from '../types/index.js';

/** OAuth consent hand-offs on PostgreSQL, shared by every instance (migration 0003). */
export class PgOAuthHandoffsRepository implements OAuthHandoffsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async create(input: { userId: number; location: string; ttlMs: number }): Promise<string> {
    const id = newSecret(18);
    const now = this.clock.now();
    await this.pool.query(
      `WITH gone AS (DELETE FROM oauth_handoffs WHERE expires_at <= $4)
       INSERT INTO oauth_handoffs (id_hash, user_id, location, expires_at) VALUES ($1, $2, $3, $5)`,
      [hashSecret(id), input.userId, input.location, now, now + input.ttlMs],
    );
    return id;
  }

  async take(id: string, userId: number): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ location: string }>(
      'DELETE FROM oauth_handoffs WHERE id_hash = $1 AND user_id = $2 AND expires_at > $3 RETURNING location',
      [hashSecret(id), userId, this.clock.now()],
    );
    return rows[0]?.location;
  }
}
