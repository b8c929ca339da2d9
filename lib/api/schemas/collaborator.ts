import { Type } from '@sinclair/typebox';
import { SHARE_ROLES, type ShareRole } from '../constants.js';
import { Timestamp } from './common.js';

// Plain enums (not unions of literals), so a wrong value is reported with the allowed ones.
export const ShareRoleSchema = Type.Unsafe<ShareRole>({ type: 'string', enum: [...SHARE_ROLES], description: 'member or viewer' });

export const Collaborator = Type.Object({
  _id: Type.Integer({ description: 'user id' }),
  email: Type.String({ description: 'empty when the caller has read-only access' }),
  email_MD5: Type.String(),
  fullName: Type.String(),
  role: Type.Unsafe<ShareRole | 'owner'>({ type: 'string', enum: ['owner', ...SHARE_ROLES] }),
});

/** POST /collection/{id}/sharing. 1..10 emails (checked by the route, which answers the contract's texts). */
export const ShareInvite = Type.Object({
  role: ShareRoleSchema,
  emails: Type.Array(Type.String({ maxLength: 320 })),
});

/** Answer of POST /collection/{id}/sharing: the addresses invited (new or resent). */
export const ShareInviteResult = Type.Object({
  result: Type.Literal(true),
  emails: Type.Array(Type.String()),
  /** Addresses not invited, and why (the owner, or already a collaborator). */
  skipped: Type.Optional(Type.Array(Type.Object({ email: Type.String(), reason: Type.String() }))),
});

/** An invitation not accepted yet, as shown to those who may invite. */
export const PendingInvitation = Type.Object({
  email: Type.String(),
  role: ShareRoleSchema,
  /** The collection it is for (this one, or the shared ancestor it was sent from). */
  collectionId: Type.Integer(),
  created: Timestamp,
  expires: Timestamp,
  expired: Type.Boolean(),
  /** Whether the last mail reached the mail server (or the outbox). */
  sent: Type.Boolean(),
  /** Why the last mail failed; resend by inviting the address again. */
  lastError: Type.Optional(Type.String()),
});

/** Answer of GET /collection/{id}/sharing: the owner first, then the collaborators in join order. */
export const CollaboratorList = Type.Object({
  result: Type.Literal(true),
  items: Type.Array(Collaborator),
  /** Open invitations; only for the owner and members (those who may invite). */
  invitations: Type.Optional(Type.Array(PendingInvitation)),
});

export const ShareRoleChange = Type.Object({ role: ShareRoleSchema });
export const JoinRequest = Type.Object({ token: Type.String({ minLength: 1, maxLength: 500 }) });
