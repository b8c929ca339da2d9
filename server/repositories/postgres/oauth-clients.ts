import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type ClientKind, type ClientStatus, DuplicateClientIdError, type OAuthClient, type OAuthClientRow, type OAuthClientsRepository } from '../types/index.js';
import { isUniqueViolation } from './pg-errors.js';
import { inTransaction } from './transaction.js';

type Queryable = pg.Pool | pg.PoolClient;

/** Registered OAuth applications on PostgreSQL. Client secrets are returned once, at creation or regeneration. */
export class PgOAuthClientsRepository implements OAuthClientsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  private async withUris(rows: OAuthClientRow[]): Promise<OAuthClient[]> {
    if (rows.length === 0) return [];
    const uris = await this.pool.query<{ client_pk: number; uri: string }>(
      'SELECT client_pk, uri FROM oauth_redirect_uris WHERE client_pk = ANY($1::bigint[]) ORDER BY position, uri',
      [rows.map((r) => r.id)],
    );
    return rows.map((row) => ({ ...row, redirect_uris: uris.rows.filter((u) => u.client_pk === row.id).map((u) => u.uri) }));
  }

  private async one(sql: string, value: unknown): Promise<OAuthClient | undefined> {
    const { rows } = await this.pool.query<OAuthClientRow>(sql, [value]);
    return (await this.withUris(rows))[0];
  }

  /** Inserts the URIs after position `from - 1`; a URI the client already has is skipped. */
  private async insertUris(db: Queryable, clientPk: number, uris: string[], from: number): Promise<void> {
    if (uris.length === 0) return;
    await db.query(
      `INSERT INTO oauth_redirect_uris (client_pk, uri, position)
       SELECT $1, u.uri, $3 + u.n - 1 FROM unnest($2::text[]) WITH ORDINALITY AS u(uri, n)
       ON CONFLICT (client_pk, uri) DO NOTHING`,
      [clientPk, uris, from],
    );
  }

  async create(input: { ownerId: number | null; name: string; kind: ClientKind; redirectUris: string[]; clientId?: string }): Promise<{
    client: OAuthClient;
    secret: string | null;
  }> {
    const clientId = input.clientId ?? randomBytes(12).toString('hex');
    const secret = input.kind === 'confidential' ? newSecret() : null;
    const now = this.clock.now();
    let pk: number;
    try {
      pk = await inTransaction(this.pool, async (client) => {
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO oauth_clients (client_id, owner_id, name, kind, secret_hash, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [clientId, input.ownerId, input.name, input.kind, secret ? hashSecret(secret) : null, now, now],
        );
        await this.insertUris(client, rows[0].id, input.redirectUris, 0);
        return rows[0].id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateClientIdError(clientId);
      throw err;
    }
    return { client: (await this.byPk(pk))!, secret };
  }

  async byPk(id: number): Promise<OAuthClient | undefined> {
    return this.one('SELECT * FROM oauth_clients WHERE id = $1', id);
  }

  async byClientId(clientId: string): Promise<OAuthClient | undefined> {
    return this.one('SELECT * FROM oauth_clients WHERE client_id = $1', clientId);
  }

  async listForOwner(ownerId: number): Promise<OAuthClient[]> {
    const { rows } = await this.pool.query<OAuthClientRow>('SELECT * FROM oauth_clients WHERE owner_id = $1 ORDER BY id', [ownerId]);
    return this.withUris(rows);
  }

  async update(id: number, changes: { name?: string; redirectUris?: string[]; status?: ClientStatus; maxTokens?: number | null }): Promise<OAuthClient> {
    await inTransaction(this.pool, async (client) => {
      const row = (await client.query<OAuthClientRow>('SELECT * FROM oauth_clients WHERE id = $1 FOR UPDATE', [id])).rows[0];
      await client.query('UPDATE oauth_clients SET name = $1, status = $2, max_tokens = $3, updated_at = $4 WHERE id = $5', [
        changes.name ?? row.name,
        changes.status ?? row.status,
        changes.maxTokens === undefined ? row.max_tokens : changes.maxTokens,
        this.clock.now(),
        id,
      ]);
      if (changes.redirectUris) {
        await client.query('DELETE FROM oauth_redirect_uris WHERE client_pk = $1', [id]);
        await this.insertUris(client, id, changes.redirectUris, 0);
      }
    });
    return (await this.byPk(id))!;
  }

  async addRedirectUris(id: number, uris: string[]): Promise<OAuthClient> {
    await inTransaction(this.pool, async (client) => {
      // The client's row lock keeps two instances adding at once from taking the same positions.
      await client.query('SELECT 1 FROM oauth_clients WHERE id = $1 FOR UPDATE', [id]);
      const max = (await client.query<{ p: number }>('SELECT coalesce(max(position), -1) AS p FROM oauth_redirect_uris WHERE client_pk = $1', [id])).rows[0].p;
      await this.insertUris(client, id, uris, max + 1);
    });
    return (await this.byPk(id))!;
  }

  async regenerateSecret(id: number): Promise<string> {
    const secret = newSecret();
    await this.pool.query("UPDATE oauth_clients SET secret_hash = $1, updated_at = $2 WHERE id = $3 AND kind = 'confidential'", [
      hashSecret(secret),
      this.clock.now(),
      id,
    ]);
    return secret;
  }

  async delete(id: number): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const row = (await client.query<{ client_id: string }>('SELECT client_id FROM oauth_clients WHERE id = $1 FOR UPDATE', [id])).rows[0];
      if (!row) return;
      await client.query('UPDATE tokens SET revoked_at = $1 WHERE client_id = $2 AND revoked_at IS NULL', [this.clock.now(), row.client_id]);
      await client.query('DELETE FROM oauth_clients WHERE id = $1', [id]);
    });
  }

  async countLiveAccessTokens(clientId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*) AS n FROM tokens WHERE client_id = $1 AND kind = 'access' AND revoked_at IS NULL
       AND (expires_at IS NULL OR expires_at > $2)`,
      [clientId, this.clock.now()],
    );
    return rows[0].n;
  }
}
