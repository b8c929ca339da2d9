import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JoinRequest } from '../../../lib/api/schemas/collaborator.js';
import { Collection } from '../../../lib/api/schemas/collection.js';
import { IdParam, ItemEnvelope } from '../../../lib/api/schemas/common.js';
import { acceptInvitation } from '../../services/sharing/join.js';
import { collectionRecords } from '../collections/records.js';

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
      const row = await acceptInvitation(app, request.userId!, request.params.id, request.body.token);
      const [item] = await collectionRecords(app, request, [row]);
      return { result: true as const, item };
    },
  );
};
export default routes;
