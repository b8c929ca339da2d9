// Sharing: collaborators, invitations and their repository.
import type { ShareRole } from '../../../lib/api/constants.js';

/** A user with a role on a collection, as stored (with the user's public details). */
export interface CollaboratorRow {
  user_id: number;
  email: string;
  full_name: string;
  role: ShareRole;
  /** The collection whose share gives the role (the collection itself or an ancestor). */
  collection_id: number;
  joined_at: number;
}

export interface InvitationRow {
  id: number;
  collection_id: number;
  email: string;
  role: ShareRole;
  invited_by: number;
  token_hash: string;
  created_at: number;
  expires_at: number;
  sent_at: number | null;
  send_attempts: number;
  last_error: string | null;
  accepted_at: number | null;
  accepted_by: number | null;
}

/** An invitation together with the secret of its join link (known only right after it is made). */
export interface IssuedInvitation {
  invitation: InvitationRow;
  token: string;
  /** False when an open invitation for the address existed and was renewed (a resend). */
  created: boolean;
}

/** Invitations to issue in one call (SharingRepository.invite). */
export interface NewInvitations {
  collectionId: number;
  inviterId: number;
  role: ShareRole;
  emails: string[];
  ttlMs: number;
  maxPending: number;
}

/** Thrown inside the invite transaction: the inviter would hold more open invitations than allowed. */
export class PendingLimitError extends Error {
  constructor(readonly pending: number) {
    super(`${pending} pending invitations`);
  }
}

/**
 * Collaborators and invitations. Roles are stored per collection and inherited by descendants
 * (services/permissions.ts reads them through repositories/access.ts); this repository writes them.
 * Times are epoch milliseconds from the injected clock.
 */
export interface SharingRepository {
  /**
   * The effective collaborators of a collection given its chain (the collection first, then its
   * ancestors): everyone with a share on any of them, each with the role of their nearest share.
   * In the order they joined.
   */
  collaborators(chain: number[]): Promise<CollaboratorRow[]>;
  /** Gives `userId` `role` on `collectionId` (and so on its descendants), replacing a role held there. */
  setRole(collectionId: number, userId: number, role: ShareRole, invitedBy: number | null): Promise<void>;
  /**
   * Takes `userId` out of the listed collections (a collection's chain and its descendants): their
   * shares there go, and so do the open invitations they sent for those collections (an invitation
   * from someone who has no access any more is not honoured). Returns how many shares were removed.
   */
  removeUser(userId: number, collectionIds: number[]): Promise<number>;
  /** Unshares the listed collections: every share and every open invitation on them goes. */
  unshare(collectionIds: number[]): Promise<{
    collaborators: number;
    invitations: number;
  }>;
  /** Open (not accepted) invitations sent by `inviterId` that have not expired. */
  pendingCount(inviterId: number): Promise<number>;
  /**
   * Issues invitations to `emails` for a collection, in one transaction. An address with an open
   * invitation for the collection gets that invitation renewed (new secret, role and expiry, the
   * caller as inviter) instead of a second one. If the inviter would then hold more than
   * `maxPending` pending invitations, nothing is written and PendingLimitError is thrown.
   */
  invite(input: NewInvitations): Promise<IssuedInvitation[]>;
  /** Gives an open invitation a new secret and expiry (for a resend). Returns the new secret. */
  renew(invitationId: number, ttlMs: number): Promise<{
    invitation: InvitationRow;
    token: string;
  } | undefined>;
  markSent(invitationId: number): Promise<void>;
  markFailed(invitationId: number, error: string): Promise<void>;
  /** The invitation a join link's secret belongs to (whatever its state), or undefined. */
  byToken(token: string): Promise<InvitationRow | undefined>;
  /**
   * Accepts an invitation: `userId` gets its role on its collection and the secret is used up, in
   * one transaction. False when it was accepted (or expired) in the meantime: nothing changes then.
   * With `grant` false the secret is used up but no role is written (the user already has as much).
   */
  accept(invitationId: number, userId: number, grant?: boolean): Promise<boolean>;
  /** Open invitations (pending or expired, not accepted) on the listed collections, newest first. */
  openInvitations(collectionIds: number[]): Promise<InvitationRow[]>;
  /**
   * Open invitations for a resend: all, or those of one collection and/or address; only those whose
   * last mail failed (or was never sent) when `unsentOnly`.
   */
  findOpen(filter: {
    collectionId?: number;
    email?: string;
    unsentOnly?: boolean;
  }): Promise<InvitationRow[]>;
}
