import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type ClientKind, type ClientStatus, DuplicateClientIdError, type OAuthClient, type OAuthClientRow, type OAuthClientsRepository } from '../types/index.js';

/** Registered OAuth applications. Client secrets are returned once, at creation or regeneration. */
export class SqliteOAuthClientsRepository implements OAuthClientsRepository {
  constructor(private db: Db, private clock: Clock) {}

  private withUris(row: OAuthClientRow | undefined): OAuthClient | undefined {
    if (!row) return undefined;
    const uris = this.db
      .prepare('SELECT uri FROM oauth_redirect_uris WHERE client_pk = ? ORDER BY position, uri')
      .all(row.id) as { uri: string }[];
    return { ...row, redirect_uris: uris.map((u) => u.uri) };
  }

  private writeUris(clientPk: number, uris: string[]): void {
    this.db.prepare('DELETE FROM oauth_redirect_uris WHERE client_pk = ?').run(clientPk);
    const insert = this.db.prepare('INSERT OR IGNORE INTO oauth_redirect_uris (client_pk, uri, position) VALUES (?, ?, ?)');
    uris.forEach((uri, i) => insert.run(clientPk, uri, i));
  }

  /**
   * Registers an application. Confidential clients get a secret (returned here only); public ones
   * (browser extensions, apps that cannot keep a secret) get none. `clientId` fixes the id (the
   * bundled extension's well-known id); otherwise a random one is made.
   */
  async create(input: {
    ownerId: number | null;
    name: string;
    kind: ClientKind;
    redirectUris: string[];
    clientId?: string;
  }): Promise<{ client: OAuthClient; secret: string | null }> {
    const clientId = input.clientId ?? randomBytes(12).toString('hex');
    const secret = input.kind === 'confidential' ? newSecret() : null;
    const now = this.clock.now();
    const tx = this.db.transaction(() => {
      const info = this.db
        .prepare(
          `INSERT INTO oauth_clients (client_id, owner_id, name, kind, secret_hash, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(clientId, input.ownerId, input.name, input.kind, secret ? hashSecret(secret) : null, now, now);
      this.writeUris(Number(info.lastInsertRowid), input.redirectUris);
      return Number(info.lastInsertRowid);
    });
    let pk: number;
    try {
      pk = tx();
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateClientIdError(clientId);
      throw err;
    }
    return { client: (await this.byPk(pk))!, secret };
  }

  async byPk(id: number): Promise<OAuthClient | undefined> {
    return this.withUris(this.db.prepare('SELECT * FROM oauth_clients WHERE id = ?').get(id) as OAuthClientRow | undefined);
  }

  async byClientId(clientId: string): Promise<OAuthClient | undefined> {
    return this.withUris(
      this.db.prepare('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId) as OAuthClientRow | undefined,
    );
  }

  async listForOwner(ownerId: number): Promise<OAuthClient[]> {
    const rows = this.db.prepare('SELECT * FROM oauth_clients WHERE owner_id = ? ORDER BY id').all(ownerId) as OAuthClientRow[];
    return rows.map((r) => this.withUris(r)!);
  }

  async update(id: number, changes: { name?: string; redirectUris?: string[]; status?: ClientStatus; maxTokens?: number | null }): Promise<OAuthClient> {
    const tx = this.db.transaction(() => {
      const row = this.db.prepare('SELECT * FROM oauth_clients WHERE id = ?').get(id) as OAuthClientRow;
      this.db
        .prepare('UPDATE oauth_clients SET name = ?, status = ?, max_tokens = ?, updated_at = ? WHERE id = ?')
        .run(
          changes.name ?? row.name,
          changes.status ?? row.status,
          changes.maxTokens === undefined ? row.max_tokens : changes.maxTokens,
          this.clock.now(),
          id,
        );
      if (changes.redirectUris) this.writeUris(id, changes.redirectUris);
    });
    tx();
    return (await this.byPk(id))!;
  }

  /** Adds redirect URIs the client does not have yet, keeping the ones it has. */
  async addRedirectUris(id: number, uris: string[]): Promise<OAuthClient> {
    const tx = this.db.transaction(() => {
      const max = (this.db.prepare('SELECT coalesce(max(position), -1) AS p FROM oauth_redirect_uris WHERE client_pk = ?').get(id) as { p: number }).p;
      const insert = this.db.prepare('INSERT OR IGNORE INTO oauth_redirect_uris (client_pk, uri, position) VALUES (?, ?, ?)');
      uris.forEach((uri, i) => insert.run(id, uri, max + 1 + i));
    });
    tx();
    return (await this.byPk(id))!;
  }

  /** Replaces a confidential client's secret; the old one stops working at once. */
  async regenerateSecret(id: number): Promise<string> {
    const secret = newSecret();
    this.db
      .prepare("UPDATE oauth_clients SET secret_hash = ?, updated_at = ? WHERE id = ? AND kind = 'confidential'")
      .run(hashSecret(secret), this.clock.now(), id);
    return secret;
  }

  /** Deletes the application and revokes every token issued to it. */
  async delete(id: number): Promise<void> {
    const tx = this.db.transaction(() => {
      const row = this.db.prepare('SELECT client_id FROM oauth_clients WHERE id = ?').get(id) as { client_id: string } | undefined;
      if (!row) return;
      this.db
        .prepare('UPDATE tokens SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL')
        .run(this.clock.now(), row.client_id);
      this.db.prepare('DELETE FROM oauth_clients WHERE id = ?').run(id);
    });
    tx();
  }

  /** Access tokens issued through OAuth to this client that still work (for the per-app limit). */
  async countLiveAccessTokens(clientId: string): Promise<number> {
    return (
      this.db
        .prepare(
          `SELECT count(*) AS n FROM tokens WHERE client_id = ? AND kind = 'access' AND revoked_at IS NULL
           AND (expires_at IS NULL OR expires_at > ?)`,
        )
        .get(clientId, this.clock.now()) as { n: number }
    ).n;
  }
}
