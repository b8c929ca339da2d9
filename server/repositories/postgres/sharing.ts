import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { ShareRole } from '../../../lib/api/constants.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type CollaboratorRow, type InvitationRow, type IssuedInvitation, type NewInvitations, PendingLimitError, type SharingRepository } from '../types/index.js';
import { inTransaction } from './transaction.js';
import { nearestCollaborators } from '../sharing-rules.js';

type Queryable = pg.Pool | pg.PoolClient;

/**
 * Collaborators and invitations on PostgreSQL. Roles are stored per collection and inherited by
 * descendants. Addresses are compared without regard to case (lower(email)), as on SQLite.
 * Times are epoch milliseconds from the injected clock.
 */
export class PgSharingRepository implements SharingRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async collaborators(chain: number[]): Promise<CollaboratorRow[]> {
    if (chain.length === 0) return [];
    const { rows } = await this.pool.query<CollaboratorRow>(
      `SELECT s.user_id, u.email, u.full_name, s.role, s.collection_id, s.joined_at
         FROM collaborators s JOIN users u ON u.id = s.user_id
        WHERE s.collection_id = ANY($1::bigint[])`,
      [chain],
    );
    return nearestCollaborators(rows, chain);
  }

  async setRole(collectionId: number, userId: number, role: ShareRole, invitedBy: number | null): Promise<void> {
    await this.pool.query(
      `INSERT INTO collaborators (collection_id, user_id, role, invited_by, joined_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (collection_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
      [collectionId, userId, role, invitedBy, this.clock.now()],
    );
  }

  async removeUser(userId: number, collectionIds: number[]): Promise<number> {
    if (collectionIds.length === 0) return 0;
    return inTransaction(this.pool, async (client) => {
      const removed = await client.query('DELETE FROM collaborators WHERE user_id = $1 AND collection_id = ANY($2::bigint[])', [userId, collectionIds]);
      await client.query('DELETE FROM invitations WHERE invited_by = $1 AND accepted_at IS NULL AND collection_id = ANY($2::bigint[])', [
        userId,
        collectionIds,
      ]);
      return removed.rowCount ?? 0;
    });
  }

  async unshare(collectionIds: number[]): Promise<{ collaborators: number; invitations: number }> {
    if (collectionIds.length === 0) return { collaborators: 0, invitations: 0 };
    return inTransaction(this.pool, async (client) => {
      const collaborators = await client.query('DELETE FROM collaborators WHERE collection_id = ANY($1::bigint[])', [collectionIds]);
      const invitations = await client.query('DELETE FROM invitations WHERE accepted_at IS NULL AND collection_id = ANY($1::bigint[])', [collectionIds]);
      return { collaborators: collaborators.rowCount ?? 0, invitations: invitations.rowCount ?? 0 };
    });
  }

  async pendingCount(inviterId: number): Promise<number> {
    return this.countPending(this.pool, inviterId);
  }

  private async countPending(db: Queryable, inviterId: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*) AS n FROM invitations WHERE invited_by = $1 AND accepted_at IS NULL AND expires_at > $2',
      [inviterId, this.clock.now()],
    );
    return rows[0].n;
  }

  /**
   * Issues invitations in one transaction. The inviter's row and the collection's row are locked
   * first, so invitations by one inviter (the pending limit) and to one collection (one open
   * invitation per address) are made one batch at a time, whichever instance makes them.
   */
  async invite(input: NewInvitations): Promise<IssuedInvitation[]> {
    const now = this.clock.now();
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE', [input.inviterId]);
      await client.query('SELECT 1 FROM collections WHERE id = $1 FOR NO KEY UPDATE', [input.collectionId]);
      const issued: IssuedInvitation[] = [];
      for (const email of input.emails) {
        const token = newSecret();
        const existing = (
          await client.query<{ id: number }>('SELECT id FROM invitations WHERE collection_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL', [
            input.collectionId,
            email,
          ])
        ).rows[0];
        let row: InvitationRow;
        if (existing) {
          row = (
            await client.query<InvitationRow>(
              'UPDATE invitations SET role = $1, invited_by = $2, token_hash = $3, expires_at = $4, last_error = NULL WHERE id = $5 RETURNING *',
              [input.role, input.inviterId, hashSecret(token), now + input.ttlMs, existing.id],
            )
          ).rows[0];
        } else {
          row = (
            await client.query<InvitationRow>(
              `INSERT INTO invitations (collection_id, email, role, invited_by, token_hash, created_at, expires_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
              [input.collectionId, email, input.role, input.inviterId, hashSecret(token), now, now + input.ttlMs],
            )
          ).rows[0];
        }
        issued.push({ invitation: row, token, created: !existing });
      }
      const pending = await this.countPending(client, input.inviterId);
      if (pending > input.maxPending) throw new PendingLimitError(pending);
      return issued;
    });
  }

  async renew(invitationId: number, ttlMs: number): Promise<{ invitation: InvitationRow; token: string } | undefined> {
    const token = newSecret();
    const { rows } = await this.pool.query<InvitationRow>(
      'UPDATE invitations SET token_hash = $1, expires_at = $2 WHERE id = $3 AND accepted_at IS NULL RETURNING *',
      [hashSecret(token), this.clock.now() + ttlMs, invitationId],
    );
    return rows[0] ? { invitation: rows[0], token } : undefined;
  }

  async markSent(invitationId: number): Promise<void> {
    await this.pool.query('UPDATE invitations SET sent_at = $1, send_attempts = send_attempts + 1, last_error = NULL WHERE id = $2', [
      this.clock.now(),
      invitationId,
    ]);
  }

  async markFailed(invitationId: number, error: string): Promise<void> {
    await this.pool.query('UPDATE invitations SET send_attempts = send_attempts + 1, last_error = $1 WHERE id = $2', [error.slice(0, 500), invitationId]);
  }

  async byToken(token: string): Promise<InvitationRow | undefined> {
    return (await this.pool.query<InvitationRow>('SELECT * FROM invitations WHERE token_hash = $1', [hashSecret(token)])).rows[0];
  }

  async accept(invitationId: number, userId: number, grant = true): Promise<boolean> {
    const now = this.clock.now();
    return inTransaction(this.pool, async (client) => {
      const taken = (
        await client.query<InvitationRow>(
          'UPDATE invitations SET accepted_at = $1, accepted_by = $2 WHERE id = $3 AND accepted_at IS NULL AND expires_at > $1 RETURNING *',
          [now, userId, invitationId],
        )
      ).rows[0];
      if (!taken) return false;
      if (!grant) return true;
      await client.query(
        `INSERT INTO collaborators (collection_id, user_id, role, invited_by, joined_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (collection_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
        [taken.collection_id, userId, taken.role, taken.invited_by, now],
      );
      return true;
    });
  }

  async openInvitations(collectionIds: number[]): Promise<InvitationRow[]> {
    if (collectionIds.length === 0) return [];
    const { rows } = await this.pool.query<InvitationRow>(
      'SELECT * FROM invitations WHERE accepted_at IS NULL AND collection_id = ANY($1::bigint[]) ORDER BY created_at DESC, id DESC',
      [collectionIds],
    );
    return rows;
  }

  async findOpen(filter: { collectionId?: number; email?: string; unsentOnly?: boolean }): Promise<InvitationRow[]> {
    const where = ['accepted_at IS NULL'];
    const args: unknown[] = [];
    if (filter.collectionId !== undefined) {
      args.push(filter.collectionId);
      where.push(`collection_id = $${args.length}`);
    }
    if (filter.email !== undefined) {
      args.push(filter.email);
      where.push(`lower(email) = lower($${args.length})`);
    }
    if (filter.unsentOnly) where.push('(sent_at IS NULL OR last_error IS NOT NULL)');
    return (await this.pool.query<InvitationRow>(`SELECT * FROM invitations WHERE ${where.join(' AND ')} ORDER BY id`, args)).rows;
  }
}
