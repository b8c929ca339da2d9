import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type SessionRow, type SessionsRepository } from '../types/index.js';

/** Web sign-in sessions on PostgreSQL. The cookie carries a random secret; only its hash is stored. */
export class PgSessionsRepository implements SessionsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async create(input: { userId: number; ttlMs: number; userAgent?: string }): Promise<{ token: string; row: SessionRow }> {
    const token = newSecret();
    const now = this.clock.now();
    const { rows } = await this.pool.query<SessionRow>(
      'INSERT INTO sessions (token_hash, user_id, user_agent, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [hashSecret(token), input.userId, (input.userAgent ?? '').slice(0, 300), now, now + input.ttlMs],
    );
    return { token, row: rows[0] };
  }

  async findValid(token: string): Promise<SessionRow | undefined> {
    const row = (await this.pool.query<SessionRow>('SELECT * FROM sessions WHERE token_hash = $1', [hashSecret(token)])).rows[0];
    if (!row || row.revoked_at !== null || row.expires_at <= this.clock.now()) return undefined;
    return row;
  }

  async revoke(id: number): Promise<void> {
    await this.pool.query('UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [this.clock.now(), id]);
  }

  async revokeAllForUser(userId: number, keepId?: number): Promise<number> {
    const res = await this.pool.query(
      'UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL AND id IS DISTINCT FROM $3::bigint',
      [this.clock.now(), userId, keepId ?? null],
    );
    return res.rowCount ?? 0;
  }

  /** The first instance to ask makes the key; every other instance reads the same one. */
  async serverKey(name: string): Promise<string> {
    await this.pool.query('INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, newSecret(32)]);
    return (await this.pool.query<{ value: string }>('SELECT value FROM server_keys WHERE name = $1', [name])).rows[0].value;
  }
}
