import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { noCaches, ReadCache, type CacheSignals } from '../../db/read-cache.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type TokenKind, type TokenRow, type TokensRepository } from '../types/index.js';

/**
 * Bearer tokens on PostgreSQL. Only hashes are stored; the secret is returned once, at creation.
 * Lookups are cached by the secret sent (every API call asks); the cache is emptied on any change
 * to `tokens` by any instance (change notifications, see PgChangeFeed), so a token revoked through
 * one instance is refused by every instance within the feed's bound (under 1 s).
 */
export class PgTokensRepository implements TokensRepository {
  private readonly bySecret: ReadCache<string, TokenRow | undefined>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    signals: CacheSignals = noCaches,
  ) {
    this.bySecret = new ReadCache(signals(['tokens']), 10_000);
  }

  async create(input: { userId: number; kind: TokenKind; clientId?: string | null; expiresAt?: number | null }): Promise<{ token: string; row: TokenRow }> {
    const token = newSecret();
    const { rows } = await this.pool.query<TokenRow>(
      'INSERT INTO tokens (user_id, token_hash, kind, client_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [input.userId, hashSecret(token), input.kind, input.clientId ?? null, input.expiresAt ?? null, this.clock.now()],
    );
    return { token, row: rows[0] };
  }

  /** The live token row for a secret, or undefined when unknown, revoked or expired. */
  findValid(token: string): TokenRow | undefined | Promise<TokenRow | undefined> {
    const cached = this.bySecret.peek(token);
    if (cached) return this.live(cached.value);
    return this.bySecret
      .getAsync(token, async () => (await this.pool.query<TokenRow>('SELECT * FROM tokens WHERE token_hash = $1', [hashSecret(token)])).rows[0])
      .then((row) => this.live(row));
  }

  private live(row: TokenRow | undefined): TokenRow | undefined {
    if (!row || row.revoked_at !== null) return undefined;
    if (row.expires_at !== null && row.expires_at <= this.clock.now()) return undefined;
    return row;
  }

  async revoke(id: number): Promise<void> {
    await this.pool.query('UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [this.clock.now(), id]);
  }

  async listForUser(userId: number): Promise<TokenRow[]> {
    return (await this.pool.query<TokenRow>('SELECT * FROM tokens WHERE user_id = $1 AND revoked_at IS NULL ORDER BY id', [userId])).rows;
  }
}
