import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { cacheSignalOf } from '../../db/change-tracker.js';
import { ReadCache } from '../../db/read-cache.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type TokenKind, type TokenRow, type TokensRepository } from '../types/index.js';

/** Bearer tokens for the API. Only hashes are stored; the secret is returned once, at creation. */
export class SqliteTokensRepository implements TokensRepository {
  /**
   * Every API call looks its token up: rows by the secret the caller sent, so a repeat skips the
   * hashing too. Dropped on any write, so a secret stays in memory only while nothing changes.
   */
  private readonly bySecret: ReadCache<string, TokenRow | undefined>;

  constructor(private db: Db, private clock: Clock) {
    this.bySecret = new ReadCache(cacheSignalOf(db), 10_000);
  }

  async create(input: { userId: number; kind: TokenKind; clientId?: string | null; expiresAt?: number | null }): Promise<{ token: string; row: TokenRow }> {
    const token = newSecret();
    const info = this.db
      .prepare('INSERT INTO tokens (user_id, token_hash, kind, client_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(input.userId, hashSecret(token), input.kind, input.clientId ?? null, input.expiresAt ?? null, this.clock.now());
    const row = this.db.prepare('SELECT * FROM tokens WHERE id = ?').get(info.lastInsertRowid) as TokenRow;
    return { token, row };
  }

  /** The live token row for a secret, or undefined when unknown, revoked or expired. */
  findValid(token: string): TokenRow | undefined {
    const row = this.bySecret.get(
      token,
      () => this.db.prepare('SELECT * FROM tokens WHERE token_hash = ?').get(hashSecret(token)) as TokenRow | undefined,
    );
    if (!row || row.revoked_at !== null) return undefined;
    if (row.expires_at !== null && row.expires_at <= this.clock.now()) return undefined;
    return row;
  }

  async revoke(id: number): Promise<void> {
    this.db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.clock.now(), id);
  }

  async listForUser(userId: number): Promise<TokenRow[]> {
    return this.db.prepare('SELECT * FROM tokens WHERE user_id = ? AND revoked_at IS NULL ORDER BY id').all(userId) as TokenRow[];
  }
}
