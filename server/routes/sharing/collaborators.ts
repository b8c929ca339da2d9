import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Collaborator, CollaboratorList, ShareRoleChange } from '../../../lib/api/schemas/collaborator.js';
import { IdParam, ItemEnvelope, OkEnvelope, PathId } from '../../../lib/api/schemas/common.js';
import type { Collaborator as CollaboratorRecord } from '../../../lib/api/types.js';
import { ApiError, badRequest, notFound } from '../../errors.js';
import { toCollaborator, treeOf } from './context.js';

const tags = ['Sharing'];
const config = { bucket: 'small' as const };
const UserParams = Type.Object({ id: PathId(), userId: PathId() });

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Collaborators of a collection: list, change a role, remove one, leave, unshare.
 *
 * Shares are inherited by descendants. These routes act on the shares of the collection named and
 * of its descendants; a share held on an ancestor is managed there (the answer says which one).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { permissions, repos } = app;

  /** The collaborator `targetId` of the collection, or 404. */
  const collaboratorOf = async (chain: number[], collectionId: number, targetId: number) => {
    const row = (await repos.sharing.collaborators(chain)).find((c) => c.user_id === targetId);
    if (!row) throw notFound(`User ${targetId} is not a collaborator of collection ${collectionId}.`);
    return row;
  };

  /** Refuses to act here on a share that is held on an ancestor: it has to be changed where it is. */
  const inheritedFrom = async (chain: number[], userId: number): Promise<number | null> => {
    const grants = await repos.access.sharedGrants(userId, chain.slice(1));
    return grants.length ? grants[0].collection_id : null;
  };

  /** Takes `targetId` out of the collection and its descendants. */
  const removeFrom = async (collectionId: number, targetId: number, who: 'you' | 'them') => {
    const { chain, descendants } = await treeOf(app, collectionId);
    const ancestor = await inheritedFrom(chain, targetId);
    if (ancestor !== null) {
      throw badRequest(
        who === 'you'
          ? `You have access to collection ${collectionId} through the shared collection ${ancestor}: leave that one instead.`
          : `User ${targetId} has access to collection ${collectionId} through the shared collection ${ancestor}: remove them there.`,
      );
    }
    await repos.sharing.removeUser(targetId, [collectionId, ...descendants]);
  };

  app.get(
    '/collection/:id/sharing',
    {
      config,
      schema: {
        tags,
        summary: 'Collaborators of a collection: the owner first, then everyone with a role, in join order',
        description:
          'For the owner and every collaborator. `email` is empty when the caller is a viewer. Owners and members also get ' +
          '`invitations`, the open ones (pending or expired) for this collection and the shared collections above it.',
        params: IdParam,
        response: { 200: CollaboratorList },
      },
    },
    async (request) => {
      const { id } = request.params;
      const access = await permissions.requireSharing(request.userId, id, 'list');
      const showEmail = permissions.seesCollaboratorEmails(access);
      const { chain } = await treeOf(app, id);
      const owner = await repos.users.byId(access.ownerId);
      const items: CollaboratorRecord[] = [];
      if (owner) items.push(toCollaborator({ user_id: owner.id, email: owner.email, full_name: owner.full_name, role: 'owner' }, showEmail));
      for (const row of await repos.sharing.collaborators(chain)) items.push(toCollaborator(row, showEmail));
      if (access.role !== 'owner' && access.role !== 'member') return { result: true as const, items };
      const now = app.config.clock.now();
      // A member sees the invitations of the collections they can see: up to the highest one shared with them.
      let visible = chain;
      if (access.role === 'member') {
        const grants = await repos.access.sharedGrants(request.userId!, chain);
        visible = chain.slice(0, Math.max(...grants.map((g) => chain.indexOf(g.collection_id))) + 1);
      }
      const invitations = (await repos.sharing.openInvitations(visible)).map((inv) => ({
        email: inv.email,
        role: inv.role,
        collectionId: inv.collection_id,
        created: iso(inv.created_at),
        expires: iso(inv.expires_at),
        expired: inv.expires_at <= now,
        sent: inv.sent_at !== null && inv.last_error === null,
        ...(inv.last_error ? { lastError: inv.last_error } : {}),
      }));
      return { result: true as const, items, invitations };
    },
  );

  app.put(
    '/collection/:id/sharing/:userId',
    {
      config,
      schema: {
        tags,
        summary: "Change a collaborator's role (owner only)",
        description:
          'The role applies to this collection and its descendants. For someone whose role comes from a shared ancestor, ' +
          'this sets a different role for this collection and below.',
        params: UserParams,
        body: ShareRoleChange,
        response: { 200: ItemEnvelope(Collaborator) },
      },
    },
    async (request) => {
      const { id, userId: targetId } = request.params;
      const access = await permissions.requireSharing(request.userId, id, 'manage');
      if (targetId === access.ownerId) throw badRequest("The owner's role cannot be changed: the owner always has full access.");
      const { chain } = await treeOf(app, id);
      const row = await collaboratorOf(chain, id, targetId);
      await repos.sharing.setRole(id, targetId, request.body.role, request.userId);
      return { result: true as const, item: toCollaborator({ ...row, role: request.body.role }, true) };
    },
  );

  app.delete(
    '/collection/:id/sharing/:userId',
    {
      config,
      schema: {
        tags,
        summary: 'Remove a collaborator (owner only; anyone may remove themselves, which is leaving)',
        description: 'Removes the user from this collection and its descendants, and cancels the open invitations they sent there.',
        params: UserParams,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { id, userId: targetId } = request.params;
      if (targetId === userId) {
        await permissions.requireSharing(userId, id, 'leave');
        await removeFrom(id, userId, 'you');
        return { result: true as const };
      }
      const access = await permissions.requireSharing(userId, id, 'manage');
      if (targetId === access.ownerId) throw badRequest('The owner cannot be removed from their own collection.');
      const { chain } = await treeOf(app, id);
      await collaboratorOf(chain, id, targetId);
      await removeFrom(id, targetId, 'them');
      return { result: true as const };
    },
  );

  app.delete(
    '/collection/:id/sharing',
    {
      config,
      schema: {
        tags,
        summary: 'Owner: unshare (every collaborator removed, open invitations cancelled). Member or viewer: leave',
        params: IdParam,
        response: { 200: OkEnvelope },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { id } = request.params;
      const access = await permissions.collection(userId, id);
      if (access.role !== 'owner') {
        await permissions.requireSharing(userId, id, 'leave');
        await removeFrom(id, userId, 'you');
        return { result: true as const };
      }
      await permissions.requireSharing(userId, id, 'manage');
      const { chain, descendants } = await treeOf(app, id);
      const ancestor = await repos.access.nearestShared(chain.slice(1));
      if (ancestor !== null) {
        throw new ApiError(
          400,
          `Collection ${id} is shared through collection ${ancestor}, which contains it: unshare that one, or move this collection out of it.`,
        );
      }
      await repos.sharing.unshare([id, ...descendants]);
      return { result: true as const };
    },
  );
};
export default routes;
