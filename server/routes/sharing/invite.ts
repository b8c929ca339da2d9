import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS } from '../../../lib/api/constants.js';
import { ShareInvite, ShareInviteResult } from '../../../lib/api/schemas/collaborator.js';
import { IdParam } from '../../../lib/api/schemas/common.js';
import { ApiError, badRequest } from '../../errors.js';
import { PendingLimitError } from '../../repositories/index.js';
import { deliverInvitations, linkOrigin } from '../../services/sharing/invitations.js';
import { readEmails } from './emails.js';
import { treeOf } from './context.js';

/** The contract's errorMessage texts (Errors table), word for word. */
const NO_EMAILS = 'no emails';
const TOO_MANY_EMAILS = 'you cant send more than 10 invites at once';
const TOO_MANY_PENDING = 'you have too many pending invitations, you will be banned if you continue send more';

/** POST /collection/{id}/sharing: invite people by email. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/collection/:id/sharing',
    {
      config: { bucket: 'small' },
      schema: {
        tags: ['Sharing'],
        summary: 'Invite people to a collection by email (owners and members)',
        description:
          `Creates a pending invitation per address (1 to ${LIMITS.shareEmailsMax}) with a single-use join link, valid ` +
          'for the configured number of days (default 14), and mails it. Inviting an address that already has an open ' +
          'invitation to the collection resends it with a new link (the old link stops working) instead of adding one. ' +
          'The owner and current collaborators are skipped. Errors: 400 `no emails`, 400 `you cant send more than 10 ' +
          `invites at once\`, 429 when the caller would hold more than ${LIMITS.pendingInvitationsMax} pending invitations, ` +
          '403 `you dont have permissions to invite more people` (viewers and non-collaborators). When a mail cannot be ' +
          'sent the answer is 502 naming the addresses (`unsent`); those invitations stay pending: send the request again.',
        params: IdParam,
        body: ShareInvite,
        response: { 200: ShareInviteResult },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { id } = request.params;
      const access = await app.permissions.requireSharing(userId, id, 'invite');
      const { emails: raw, role } = request.body;
      if (raw.length === 0) throw badRequest(NO_EMAILS);
      if (raw.length > LIMITS.shareEmailsMax) throw badRequest(TOO_MANY_EMAILS);
      const emails = readEmails(raw);

      // The owner and people who already have a role here need no invitation.
      const { chain } = await treeOf(app, id);
      const owner = await app.repos.users.byId(access.ownerId);
      const members = new Set((await app.repos.sharing.collaborators(chain)).map((c) => c.email.toLowerCase()));
      const skipped: { email: string; reason: string }[] = [];
      const invite: string[] = [];
      for (const email of emails) {
        const key = email.toLowerCase();
        if (owner && owner.email.toLowerCase() === key) skipped.push({ email, reason: 'the owner of the collection' });
        else if (members.has(key)) skipped.push({ email, reason: 'already a collaborator' });
        else invite.push(email);
      }

      let issued;
      try {
        issued = await app.repos.sharing.invite({
          collectionId: id,
          inviterId: userId,
          role,
          emails: invite,
          ttlMs: app.config.invitationTtlDays * 24 * 3600_000,
          maxPending: LIMITS.pendingInvitationsMax,
        });
      } catch (err) {
        if (err instanceof PendingLimitError) throw new ApiError(429, TOO_MANY_PENDING);
        throw err;
      }

      const address = app.server.address();
      const port = address && typeof address === 'object' ? address.port : undefined;
      const outcome = await deliverInvitations(
        { repos: app.repos, mailer: app.services.mailer, origin: linkOrigin(app.config, port), log: request.log },
        issued,
      );
      const invited = issued.map((i) => i.invitation.email);
      if (outcome.failed.length > 0) {
        const list = outcome.failed.map((f) => f.email).join(', ');
        throw new ApiError(
          502,
          `The invitation${outcome.failed.length > 1 ? 's' : ''} to ${list} could not be emailed (${outcome.failed[0].error}). ` +
            'They are saved and stay pending: send the same request again later to resend them.',
          { emails: invited, unsent: outcome.failed.map((f) => f.email) },
        );
      }
      return { result: true as const, emails: invited, ...(skipped.length ? { skipped } : {}) };
    },
  );
};
export default routes;
