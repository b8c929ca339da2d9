import type { FastifyInstance } from 'fastify';
import { ACCESS_LEVEL } from '../../../lib/api/constants.js';
import { ApiError, notFound } from '../../errors.js';
import type { CollectionRow } from '../../repositories/index.js';

const ASK_AGAIN = 'Ask the person who invited you to invite you again.';

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The checks an invitation must pass before `userId` may accept it, without using it up: answers
 * the invitation and the caller's current access, or throws the ApiError accepting would answer.
 * The join page shows its confirmation from this; acceptInvitation runs it before accepting.
 *
 * Errors (ApiError): 404 no such invitation (wrong token, cancelled, or replaced by a newer email;
 * it does not say which), 410 already used or expired, 400 the user owns the collection.
 */
export async function checkInvitation(app: FastifyInstance, userId: number, collectionId: number, token: string) {
  const invitation = await app.repos.sharing.byToken(token);
  if (!invitation || invitation.collection_id !== collectionId) {
    throw new ApiError(
      404,
      'This invitation link is not valid: the token is wrong, or the invitation was cancelled or replaced by a newer email. ' + ASK_AGAIN,
    );
  }
  if (invitation.accepted_at !== null) {
    const yours =
      invitation.accepted_by === userId
        ? ` You used it yourself on ${day(invitation.accepted_at)}, so you are in this collection unless you left it since.`
        : '';
    throw new ApiError(410, `This invitation link was already used; each link works once.${yours} ${ASK_AGAIN}`);
  }
  if (invitation.expires_at <= app.config.clock.now()) {
    throw new ApiError(410, `This invitation expired on ${day(invitation.expires_at)}. ${ASK_AGAIN}`);
  }
  const access = await app.permissions.collection(userId, collectionId);
  if (access.role === 'owner') {
    throw new ApiError(400, 'You own this collection, so you cannot join it. The invitation is for someone else: send them the link.');
  }
  return { invitation, access };
}

/**
 * Accepts the invitation whose join link carries `token` for collection `collectionId`: `userId`
 * becomes a collaborator with the invited role and the token is used up. Answers the collection's
 * row. Used by POST /collection/{id}/join and the join page. Errors: as checkInvitation.
 */
export async function acceptInvitation(app: FastifyInstance, userId: number, collectionId: number, token: string): Promise<CollectionRow> {
  const { invitation, access } = await checkInvitation(app, userId, collectionId, token);
  // Someone who already has at least the invited role keeps it (a viewer invitation never demotes a member).
  const grant = access.level < ACCESS_LEVEL[invitation.role];
  if (!(await app.repos.sharing.accept(invitation.id, userId, grant))) {
    throw new ApiError(410, `This invitation link was already used or has just expired. ${ASK_AGAIN}`);
  }
  const row = await app.repos.collections.byId(collectionId);
  if (!row) throw notFound();
  return row;
}
