import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type AuthorizedApp, type IssuedPair, type RefreshTokenRow, type OAuthGrantsRepository } from '../types/index.js';
import { inTransaction } from './transaction.js';

type RotateResult =
  | { ok: true; pair: IssuedPair; userId: number }
  | { ok: false; reason: 'unknown' | 'wrong_client' | 'revoked' | 'replayed' };

/**
 * Grants on PostgreSQL (one per exchanged code) with their rotating refresh tokens and the access
 * tokens issued under them. Writes that issue or revoke several tokens run in one transaction; a
 * rotation locks the refresh token's row, so two instances cannot both rotate one token.
 */
export class PgOAuthGrantsRepository implements OAuthGrantsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  private async insertPair(client: pg.PoolClient, grantId: number, userId: number, clientId: string, accessTtlMs: number): Promise<IssuedPair> {
    const now = this.clock.now();
    const accessToken = newSecret();
    const refreshToken = newSecret();
    const expiresAt = now + accessTtlMs;
    const access = await client.query<{ id: number }>(
      "INSERT INTO tokens (user_id, token_hash, kind, client_id, expires_at, created_at) VALUES ($1, $2, 'access', $3, $4, $5) RETURNING id",
      [userId, hashSecret(accessToken), clientId, expiresAt, now],
    );
    const accessTokenId = access.rows[0].id;
    await client.query('INSERT INTO oauth_refresh_tokens (grant_id, token_hash, access_token_id, created_at) VALUES ($1, $2, $3, $4)', [
      grantId,
      hashSecret(refreshToken),
      accessTokenId,
      now,
    ]);
    return { accessToken, refreshToken, accessTokenId, issuedAt: now, expiresAt, grantId };
  }

  async createFromCode(input: { clientPk: number; clientId: string; userId: number; codeId: number; accessTtlMs: number }): Promise<IssuedPair> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ id: number }>(
        'INSERT INTO oauth_grants (client_pk, user_id, code_id, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
        [input.clientPk, input.userId, input.codeId, this.clock.now()],
      );
      return this.insertPair(client, rows[0].id, input.userId, input.clientId, input.accessTtlMs);
    });
  }

  async rotate(input: { refreshToken: string; clientPk: number; clientId: string; accessTtlMs: number }): Promise<RotateResult> {
    return inTransaction(this.pool, async (client): Promise<RotateResult> => {
      const row = (
        await client.query<RefreshTokenRow & { g_client_pk: number; g_user_id: number; g_revoked_at: number | null }>(
          `SELECT r.*, g.client_pk AS g_client_pk, g.user_id AS g_user_id, g.revoked_at AS g_revoked_at
           FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id WHERE r.token_hash = $1 FOR UPDATE OF r`,
          [hashSecret(input.refreshToken)],
        )
      ).rows[0];
      if (!row) return { ok: false, reason: 'unknown' };
      if (row.g_client_pk !== input.clientPk) return { ok: false, reason: 'wrong_client' };
      if (row.g_revoked_at !== null || row.revoked_at !== null) return { ok: false, reason: 'revoked' };
      if (row.rotated_at !== null) {
        await this.revokeGrantNow(client, row.grant_id);
        return { ok: false, reason: 'replayed' };
      }
      await client.query('UPDATE oauth_refresh_tokens SET rotated_at = $1 WHERE id = $2', [this.clock.now(), row.id]);
      const pair = await this.insertPair(client, row.grant_id, row.g_user_id, input.clientId, input.accessTtlMs);
      return { ok: true, pair, userId: row.g_user_id };
    });
  }

  private async revokeGrantNow(client: pg.PoolClient, grantId: number): Promise<void> {
    const now = this.clock.now();
    await client.query('UPDATE oauth_grants SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, grantId]);
    await client.query('UPDATE oauth_refresh_tokens SET revoked_at = $1 WHERE grant_id = $2 AND revoked_at IS NULL', [now, grantId]);
    await client.query(
      `UPDATE tokens SET revoked_at = $1 WHERE revoked_at IS NULL AND id IN
       (SELECT access_token_id FROM oauth_refresh_tokens WHERE grant_id = $2 AND access_token_id IS NOT NULL)`,
      [now, grantId],
    );
  }

  /** Revokes the grants the query selects (`$1`, `$2` its parameters), each with its tokens; returns how many. */
  private async revokeGrants(sql: string, params: unknown[]): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      const grants = (await client.query<{ id: number }>(`${sql} ORDER BY id FOR UPDATE`, params)).rows;
      for (const g of grants) await this.revokeGrantNow(client, g.id);
      return grants.length;
    });
  }

  async revokeByCode(codeId: number): Promise<void> {
    await this.revokeGrants('SELECT id FROM oauth_grants WHERE code_id = $1', [codeId]);
  }

  async grantOfAccessToken(tokenId: number): Promise<number | undefined> {
    return (await this.pool.query<{ grant_id: number }>('SELECT grant_id FROM oauth_refresh_tokens WHERE access_token_id = $1', [tokenId])).rows[0]
      ?.grant_id;
  }

  async revokeAllForUser(userId: number, keepGrantId?: number): Promise<number> {
    return this.revokeGrants('SELECT id FROM oauth_grants WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $2::bigint', [
      userId,
      keepGrantId ?? null,
    ]);
  }

  async revokeForUserClient(userId: number, clientPk: number): Promise<number> {
    return this.revokeGrants('SELECT id FROM oauth_grants WHERE user_id = $1 AND client_pk = $2 AND revoked_at IS NULL', [userId, clientPk]);
  }

  async listAuthorizedApps(userId: number): Promise<AuthorizedApp[]> {
    const { rows } = await this.pool.query<AuthorizedApp>(
      `SELECT c.id AS client_pk, c.client_id, c.name, c.owner_id, min(g.created_at) AS first_authorized, count(*) AS grants
       FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_pk
       WHERE g.user_id = $1 AND g.revoked_at IS NULL
       GROUP BY c.id ORDER BY first_authorized, c.id`,
      [userId],
    );
    return rows;
  }
}
