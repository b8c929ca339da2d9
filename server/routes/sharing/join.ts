import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCESS_LEVEL } from '../../../lib/api/constants.js';
import { JoinRequest } from '../../../lib/api/schemas/collaborator.js';
import { Collection } from '../../../lib/api/schemas/collection.js';
import { IdParam, ItemEnvelope } from '../../../lib/api/schemas/common.js';
import { ApiError, notFound } from '../../errors.js';
import { collectionRecords } from '../collections/records.js';

const ASK_AGAIN = 'Ask the person who invited you to invite you again.';

/** POST /collection/{id}/join: accept an invitation with the token from its email. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/collection/:id/join',
    {
      config: { bucket: 'small' },
      schema: {
        tags: ['Sharing'],
        summary: 'Accept an invitation: the signed-in user becomes a collaborator with the invited role',
        description:
          'Send the `token` from the join link. The token works once, for any signed-in account, until it expires. ' +
          '404: no such invitation (wrong token, cancelled, or replaced by a newer email); 410: already used or expired; ' +
          '400: the caller owns the collection. Answers the collection as the caller now sees it.',
        params: IdParam,
        body: JoinRequest,
        response: { 200: ItemEnvelope(Collection) },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { id } = request.params;
      const invitation = await app.repos.sharing.byToken(request.body.token);
      if (!invitation || invitation.collection_id !== id) {
        throw new ApiError(
          404,
          'This invitation link is not valid: the token is wrong, or the invitation was cancelled or replaced by a newer email. ' + ASK_AGAIN,
        );
      }
      if (invitation.accepted_at !== null) throw new ApiError(410, `This invitation link was already used; each link works once. ${ASK_AGAIN}`);
      if (invitation.expires_at <= app.config.clock.now()) {
        throw new ApiError(410, `This invitation expired on ${new Date(invitation.expires_at).toISOString().slice(0, 10)}. ${ASK_AGAIN}`);
      }
      const access = await app.permissions.collection(userId, id);
      if (access.role === 'owner') {
        throw new ApiError(400, 'You own this collection, so you cannot join it. The invitation is for someone else: send them the link.');
      }
      // Someone who already has at least the invited role keeps it (a viewer invitation never demotes a member).
      const grant = access.level < ACCESS_LEVEL[invitation.role];
      if (!(await app.repos.sharing.accept(invitation.id, userId, grant))) {
        throw new ApiError(410, `This invitation link was already used or has just expired. ${ASK_AGAIN}`);
      }
      const row = await app.repos.collections.byId(id);
      if (!row) throw notFound();
      const [item] = await collectionRecords(app, userId, [row]);
      return { result: true as const, item };
    },
  );
};
export default routes;
