import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type OAuthCodeRow, type OAuthCodesRepository } from '../types/index.js';

/** Authorization codes on PostgreSQL: single use, short-lived, bound to the client and redirect URI. */
export class PgOAuthCodesRepository implements OAuthCodesRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async create(input: { clientPk: number; userId: number; redirectUri: string; codeChallenge: string | null; ttlMs: number }): Promise<{
    code: string;
    row: OAuthCodeRow;
  }> {
    const code = newSecret();
    const now = this.clock.now();
    const { rows } = await this.pool.query<OAuthCodeRow>(
      `INSERT INTO oauth_codes (code_hash, client_pk, user_id, redirect_uri, code_challenge, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [hashSecret(code), input.clientPk, input.userId, input.redirectUri, input.codeChallenge, now + input.ttlMs, now],
    );
    return { code, row: rows[0] };
  }

  /**
   * Marks the code used and returns its row as it was before. One statement that locks the row:
   * of two concurrent exchanges of one code (on any instances), the second waits for the first and
   * then sees it used.
   */
  async consume(code: string): Promise<OAuthCodeRow | undefined> {
    const { rows } = await this.pool.query<OAuthCodeRow>(
      `WITH before AS (SELECT * FROM oauth_codes WHERE code_hash = $1 FOR UPDATE),
            used AS (UPDATE oauth_codes c SET used_at = $2 FROM before WHERE c.id = before.id AND before.used_at IS NULL)
       SELECT * FROM before`,
      [hashSecret(code), this.clock.now()],
    );
    return rows[0];
  }

  async find(code: string): Promise<OAuthCodeRow | undefined> {
    return (await this.pool.query<OAuthCodeRow>('SELECT * FROM oauth_codes WHERE code_hash = $1', [hashSecret(code)])).rows[0];
  }

  async purgeExpired(): Promise<number> {
    const res = await this.pool.query(
      'DELETE FROM oauth_codes WHERE expires_at < $1 AND id NOT IN (SELECT code_id FROM oauth_grants WHERE code_id IS NOT NULL)',
      [this.clock.now() - 24 * 3600_000],
    );
    return res.rowCount ?? 0;
  }
}
