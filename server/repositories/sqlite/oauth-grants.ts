import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type AuthorizedApp, type IssuedPair, type RefreshTokenRow, type OAuthGrantsRepository } from '../types/index.js';

/**
 * Grants (what a user authorized an app to do, one per exchanged code) with their rotating refresh
 * tokens and the access tokens issued under them. Writes that issue or revoke several tokens run in
 * one transaction.
 */
export class SqliteOAuthGrantsRepository implements OAuthGrantsRepository {
  constructor(private db: Db, private clock: Clock) {}

  private insertPair(grantId: number, userId: number, clientId: string, accessTtlMs: number): IssuedPair {
    const now = this.clock.now();
    const accessToken = newSecret();
    const refreshToken = newSecret();
    const expiresAt = now + accessTtlMs;
    const access = this.db
      .prepare("INSERT INTO tokens (user_id, token_hash, kind, client_id, expires_at, created_at) VALUES (?, ?, 'access', ?, ?, ?)")
      .run(userId, hashSecret(accessToken), clientId, expiresAt, now);
    const accessTokenId = Number(access.lastInsertRowid);
    this.db
      .prepare('INSERT INTO oauth_refresh_tokens (grant_id, token_hash, access_token_id, created_at) VALUES (?, ?, ?, ?)')
      .run(grantId, hashSecret(refreshToken), accessTokenId, now);
    return { accessToken, refreshToken, accessTokenId, issuedAt: now, expiresAt, grantId };
  }

  /** Starts a grant from an exchanged code and issues its first access and refresh tokens. */
  async createFromCode(input: { clientPk: number; clientId: string; userId: number; codeId: number; accessTtlMs: number }): Promise<IssuedPair> {
    const tx = this.db.transaction(() => {
      const info = this.db
        .prepare('INSERT INTO oauth_grants (client_pk, user_id, code_id, created_at) VALUES (?, ?, ?, ?)')
        .run(input.clientPk, input.userId, input.codeId, this.clock.now());
      return this.insertPair(Number(info.lastInsertRowid), input.userId, input.clientId, input.accessTtlMs);
    });
    return tx.immediate();
  }

  /**
   * Exchanges a refresh token for a new pair. The presented token stops working. Presenting a
   * token that was already rotated means it leaked or was replayed: the whole grant is revoked.
   */
  async rotate(input: { refreshToken: string; clientPk: number; clientId: string; accessTtlMs: number }): Promise<
    { ok: true; pair: IssuedPair; userId: number } | { ok: false; reason: 'unknown' | 'wrong_client' | 'revoked' | 'replayed' }
  > {
    const tx = this.db.transaction(() => {
      const row = this.db
        .prepare(
          `SELECT r.*, g.client_pk AS g_client_pk, g.user_id AS g_user_id, g.revoked_at AS g_revoked_at
           FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id WHERE r.token_hash = ?`,
        )
        .get(hashSecret(input.refreshToken)) as
        | (RefreshTokenRow & { g_client_pk: number; g_user_id: number; g_revoked_at: number | null })
        | undefined;
      if (!row) return { ok: false as const, reason: 'unknown' as const };
      if (row.g_client_pk !== input.clientPk) return { ok: false as const, reason: 'wrong_client' as const };
      if (row.g_revoked_at !== null || row.revoked_at !== null) return { ok: false as const, reason: 'revoked' as const };
      if (row.rotated_at !== null) {
        this.revokeGrantNow(row.grant_id);
        return { ok: false as const, reason: 'replayed' as const };
      }
      this.db.prepare('UPDATE oauth_refresh_tokens SET rotated_at = ? WHERE id = ?').run(this.clock.now(), row.id);
      const pair = this.insertPair(row.grant_id, row.g_user_id, input.clientId, input.accessTtlMs);
      return { ok: true as const, pair, userId: row.g_user_id };
    });
    return tx.immediate();
  }

  private revokeGrantNow(grantId: number): void {
    const now = this.clock.now();
    this.db.prepare('UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, grantId);
    this.db.prepare('UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL').run(now, grantId);
    this.db
      .prepare(
        `UPDATE tokens SET revoked_at = ? WHERE revoked_at IS NULL AND id IN
         (SELECT access_token_id FROM oauth_refresh_tokens WHERE grant_id = ? AND access_token_id IS NOT NULL)`,
      )
      .run(now, grantId);
  }

  /** Revokes every token issued from a code (called when the code is presented a second time). */
  async revokeByCode(codeId: number): Promise<void> {
    const tx = this.db.transaction(() => {
      const grants = this.db.prepare('SELECT id FROM oauth_grants WHERE code_id = ?').all(codeId) as { id: number }[];
      for (const g of grants) this.revokeGrantNow(g.id);
    });
    tx.immediate();
  }

  /** The grant an access token was issued under, if it came from OAuth. */
  async grantOfAccessToken(tokenId: number): Promise<number | undefined> {
    const row = this.db.prepare('SELECT grant_id FROM oauth_refresh_tokens WHERE access_token_id = ?').get(tokenId) as
      | { grant_id: number }
      | undefined;
    return row?.grant_id;
  }

  /** Revokes all of the user's grants (and their tokens) except `keepGrantId`. Returns how many. */
  async revokeAllForUser(userId: number, keepGrantId?: number): Promise<number> {
    const tx = this.db.transaction(() => {
      const grants = this.db
        .prepare('SELECT id FROM oauth_grants WHERE user_id = ? AND revoked_at IS NULL AND id IS NOT ?')
        .all(userId, keepGrantId ?? null) as { id: number }[];
      for (const g of grants) this.revokeGrantNow(g.id);
      return grants.length;
    });
    return tx.immediate();
  }

  /** "Revoke access" for one app: every grant of the user to that client, and its access tokens. */
  async revokeForUserClient(userId: number, clientPk: number): Promise<number> {
    const tx = this.db.transaction(() => {
      const grants = this.db
        .prepare('SELECT id FROM oauth_grants WHERE user_id = ? AND client_pk = ? AND revoked_at IS NULL')
        .all(userId, clientPk) as { id: number }[];
      for (const g of grants) this.revokeGrantNow(g.id);
      return grants.length;
    });
    return tx.immediate();
  }

  /** Apps the user has authorized and not revoked. */
  async listAuthorizedApps(userId: number): Promise<AuthorizedApp[]> {
    return this.db
      .prepare(
        `SELECT c.id AS client_pk, c.client_id, c.name, c.owner_id, min(g.created_at) AS first_authorized, count(*) AS grants
         FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_pk
         WHERE g.user_id = ? AND g.revoked_at IS NULL
         GROUP BY c.id ORDER BY first_authorized`,
      )
      .all(userId) as AuthorizedApp[];
  }
}
