import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import type { ShareRole } from '../../../lib/api/constants.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type CollaboratorRow, type InvitationRow, type IssuedInvitation, type NewInvitations, PendingLimitError, type SharingRepository } from '../types/index.js';
import { nearestCollaborators } from '../sharing-rules.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

/**
 * Collaborators and invitations. Roles are stored per collection and inherited by descendants
 * (services/permissions.ts reads them through repositories/access.ts); this repository writes them.
 * Times are epoch milliseconds from the injected clock.
 */
export class SqliteSharingRepository implements SharingRepository {
  constructor(private db: Db, private clock: Clock) {}

  /**
   * The effective collaborators of a collection given its chain (the collection first, then its
   * ancestors): everyone with a share on any of them, each with the role of their nearest share.
   * In the order they joined.
   */
  async collaborators(chain: number[]): Promise<CollaboratorRow[]> {
    if (chain.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT s.user_id, u.email, u.full_name, s.role, s.collection_id, s.joined_at
           FROM collaborators s JOIN users u ON u.id = s.user_id
          WHERE s.collection_id IN (${marks(chain.length)})`,
      )
      .all(...chain) as CollaboratorRow[];
    return nearestCollaborators(rows, chain);
  }

  /** Gives `userId` `role` on `collectionId` (and so on its descendants), replacing a role held there. */
  async setRole(collectionId: number, userId: number, role: ShareRole, invitedBy: number | null): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO collaborators (collection_id, user_id, role, invited_by, joined_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (collection_id, user_id) DO UPDATE SET role = excluded.role`,
      )
      .run(collectionId, userId, role, invitedBy, this.clock.now());
  }

  /**
   * Takes `userId` out of the listed collections (a collection's chain and its descendants): their
   * shares there go, and so do the open invitations they sent for those collections (an invitation
   * from someone who has no access any more is not honoured). Returns how many shares were removed.
   */
  async removeUser(userId: number, collectionIds: number[]): Promise<number> {
    if (collectionIds.length === 0) return 0;
    return this.db.transaction(() => {
      const removed = this.db
        .prepare(`DELETE FROM collaborators WHERE user_id = ? AND collection_id IN (${marks(collectionIds.length)})`)
        .run(userId, ...collectionIds).changes;
      this.db
        .prepare(
          `DELETE FROM invitations WHERE invited_by = ? AND accepted_at IS NULL AND collection_id IN (${marks(collectionIds.length)})`,
        )
        .run(userId, ...collectionIds);
      return removed;
    })();
  }

  /** Unshares the listed collections: every share and every open invitation on them goes. */
  async unshare(collectionIds: number[]): Promise<{ collaborators: number; invitations: number }> {
    if (collectionIds.length === 0) return { collaborators: 0, invitations: 0 };
    return this.db.transaction(() => {
      const collaborators = this.db
        .prepare(`DELETE FROM collaborators WHERE collection_id IN (${marks(collectionIds.length)})`)
        .run(...collectionIds).changes;
      const invitations = this.db
        .prepare(`DELETE FROM invitations WHERE accepted_at IS NULL AND collection_id IN (${marks(collectionIds.length)})`)
        .run(...collectionIds).changes;
      return { collaborators, invitations };
    })();
  }

  /** Open (not accepted) invitations sent by `inviterId` that have not expired. */
  async pendingCount(inviterId: number): Promise<number> {
    return this.pendingCountSync(inviterId);
  }

  private pendingCountSync(inviterId: number): number {
    return (
      this.db
        .prepare('SELECT count(*) AS n FROM invitations WHERE invited_by = ? AND accepted_at IS NULL AND expires_at > ?')
        .get(inviterId, this.clock.now()) as { n: number }
    ).n;
  }

  /**
   * Issues invitations to `emails` for a collection, in one transaction. An address with an open
   * invitation for the collection gets that invitation renewed (new secret, role and expiry, the
   * caller as inviter) instead of a second one. If the inviter would then hold more than
   * `maxPending` pending invitations, nothing is written and PendingLimitError is thrown.
   */
  async invite(input: NewInvitations): Promise<IssuedInvitation[]> {
    const now = this.clock.now();
    return this.db.transaction(() => {
      const open = this.db.prepare('SELECT id FROM invitations WHERE collection_id = ? AND email = ? AND accepted_at IS NULL');
      const renew = this.db.prepare(
        `UPDATE invitations SET role = ?, invited_by = ?, token_hash = ?, expires_at = ?, last_error = NULL WHERE id = ?`,
      );
      const insert = this.db.prepare(
        `INSERT INTO invitations (collection_id, email, role, invited_by, token_hash, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      const byId = this.db.prepare('SELECT * FROM invitations WHERE id = ?');
      const issued: IssuedInvitation[] = [];
      for (const email of input.emails) {
        const token = newSecret();
        const existing = open.get(input.collectionId, email) as { id: number } | undefined;
        let id: number;
        if (existing) {
          renew.run(input.role, input.inviterId, hashSecret(token), now + input.ttlMs, existing.id);
          id = existing.id;
        } else {
          id = Number(
            insert.run(input.collectionId, email, input.role, input.inviterId, hashSecret(token), now, now + input.ttlMs).lastInsertRowid,
          );
        }
        issued.push({ invitation: byId.get(id) as InvitationRow, token, created: !existing });
      }
      const pending = this.pendingCountSync(input.inviterId);
      if (pending > input.maxPending) throw new PendingLimitError(pending);
      return issued;
    })();
  }

  /** Gives an open invitation a new secret and expiry (for a resend). Returns the new secret. */
  async renew(invitationId: number, ttlMs: number): Promise<{ invitation: InvitationRow; token: string } | undefined> {
    const token = newSecret();
    const changes = this.db
      .prepare('UPDATE invitations SET token_hash = ?, expires_at = ? WHERE id = ? AND accepted_at IS NULL')
      .run(hashSecret(token), this.clock.now() + ttlMs, invitationId).changes;
    if (changes === 0) return undefined;
    return { invitation: this.db.prepare('SELECT * FROM invitations WHERE id = ?').get(invitationId) as InvitationRow, token };
  }

  async markSent(invitationId: number): Promise<void> {
    this.db
      .prepare('UPDATE invitations SET sent_at = ?, send_attempts = send_attempts + 1, last_error = NULL WHERE id = ?')
      .run(this.clock.now(), invitationId);
  }

  async markFailed(invitationId: number, error: string): Promise<void> {
    this.db
      .prepare('UPDATE invitations SET send_attempts = send_attempts + 1, last_error = ? WHERE id = ?')
      .run(error.slice(0, 500), invitationId);
  }

  /** The invitation a join link's secret belongs to (whatever its state), or undefined. */
  async byToken(token: string): Promise<InvitationRow | undefined> {
    return this.db.prepare('SELECT * FROM invitations WHERE token_hash = ?').get(hashSecret(token)) as InvitationRow | undefined;
  }

  /**
   * Accepts an invitation: `userId` gets its role on its collection and the secret is used up, in
   * one transaction. False when it was accepted (or expired) in the meantime: nothing changes then.
   * With `grant` false the secret is used up but no role is written (the user already has as much).
   */
  async accept(invitationId: number, userId: number, grant = true): Promise<boolean> {
    const now = this.clock.now();
    return this.db.transaction(() => {
      const inv = this.db.prepare('SELECT * FROM invitations WHERE id = ?').get(invitationId) as InvitationRow | undefined;
      if (!inv) return false;
      const taken = this.db
        .prepare('UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND accepted_at IS NULL AND expires_at > ?')
        .run(now, userId, invitationId, now).changes;
      if (taken === 0) return false;
      if (!grant) return true;
      this.db
        .prepare(
          `INSERT INTO collaborators (collection_id, user_id, role, invited_by, joined_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (collection_id, user_id) DO UPDATE SET role = excluded.role`,
        )
        .run(inv.collection_id, userId, inv.role, inv.invited_by, now);
      return true;
    })();
  }

  /** Open invitations (pending or expired, not accepted) on the listed collections, newest first. */
  async openInvitations(collectionIds: number[]): Promise<InvitationRow[]> {
    if (collectionIds.length === 0) return [];
    return this.db
      .prepare(
        `SELECT * FROM invitations WHERE accepted_at IS NULL AND collection_id IN (${marks(collectionIds.length)})
          ORDER BY created_at DESC, id DESC`,
      )
      .all(...collectionIds) as InvitationRow[];
  }

  /**
   * Open invitations for a resend: all, or those of one collection and/or address; only those whose
   * last mail failed (or was never sent) when `unsentOnly`.
   */
  async findOpen(filter: { collectionId?: number; email?: string; unsentOnly?: boolean }): Promise<InvitationRow[]> {
    const where = ['accepted_at IS NULL'];
    const args: unknown[] = [];
    if (filter.collectionId !== undefined) { where.push('collection_id = ?'); args.push(filter.collectionId); }
    if (filter.email !== undefined) { where.push('email = ?'); args.push(filter.email); }
    if (filter.unsentOnly) where.push('(sent_at IS NULL OR last_error IS NOT NULL)');
    return this.db.prepare(`SELECT * FROM invitations WHERE ${where.join(' AND ')} ORDER BY id`).all(...args) as InvitationRow[];
  }
}
