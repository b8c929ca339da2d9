import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type OAuthCodeRow, type OAuthCodesRepository } from '../types/index.js';

/** Authorization codes: single use, short-lived, bound to the client and redirect URI. */
export class SqliteOAuthCodesRepository implements OAuthCodesRepository {
  constructor(private db: Db, private clock: Clock) {}

  async create(input: {
    clientPk: number;
    userId: number;
    redirectUri: string;
    codeChallenge: string | null;
    ttlMs: number;
  }): Promise<{ code: string; row: OAuthCodeRow }> {
    const code = newSecret();
    const now = this.clock.now();
    const info = this.db
      .prepare(
        `INSERT INTO oauth_codes (code_hash, client_pk, user_id, redirect_uri, code_challenge, expires_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(hashSecret(code), input.clientPk, input.userId, input.redirectUri, input.codeChallenge, now + input.ttlMs, now);
    const row = this.db.prepare('SELECT * FROM oauth_codes WHERE id = ?').get(info.lastInsertRowid) as OAuthCodeRow;
    return { code, row };
  }

  /**
   * Marks the code used and returns its row as it was before (so `used_at` tells whether it had
   * already been used). Atomic: of two concurrent exchanges of one code, only one sees it unused.
   */
  async consume(code: string): Promise<OAuthCodeRow | undefined> {
    const tx = this.db.transaction(() => {
      const row = this.db.prepare('SELECT * FROM oauth_codes WHERE code_hash = ?').get(hashSecret(code)) as OAuthCodeRow | undefined;
      if (row && row.used_at === null) {
        this.db.prepare('UPDATE oauth_codes SET used_at = ? WHERE id = ?').run(this.clock.now(), row.id);
      }
      return row;
    });
    return tx.immediate();
  }

  async find(code: string): Promise<OAuthCodeRow | undefined> {
    return this.db.prepare('SELECT * FROM oauth_codes WHERE code_hash = ?').get(hashSecret(code)) as OAuthCodeRow | undefined;
  }

  /** Forgets codes that expired more than a day ago (they can no longer be reused anyway). */
  async purgeExpired(): Promise<number> {
    return this.db
      .prepare('DELETE FROM oauth_codes WHERE expires_at < ? AND id NOT IN (SELECT code_id FROM oauth_grants WHERE code_id IS NOT NULL)')
      .run(this.clock.now() - 24 * 3600_000).changes;
  }
}
