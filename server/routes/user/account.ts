import { PathId } from '../../../lib/api/schemas/common.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TRASH, UNSORTED } from '../../../lib/api/constants.js';
import { PublicUserEnvelope, UserEnvelope, UserStats, UserUpdate } from '../../../lib/api/schemas/user.js';
import { notFound } from '../../errors.js';
import { toPublicUser, toUser } from '../../repositories/index.js';
import { changeEmail, changePassword } from '../../services/accounts.js';


/** GET /user, PUT /user, GET /user/{id}, GET /user/stats. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/user', { schema: { tags: ['user'], response: { 200: UserEnvelope } } }, async (request) => {
    const row = await app.repos.users.byId(request.userId!);
    if (!row) throw notFound();
    return { result: true as const, user: toUser(row) };
  });

  app.put('/user', { schema: { tags: ['user'], body: UserUpdate, response: { 200: UserEnvelope } } }, async (request) => {
    const userId = request.userId!;
    const { groups, config, fullName, email, newpassword, oldpassword } = request.body ?? {};
    // Password and email first: they are the ones that can be refused, and nothing else changes then.
    if (newpassword !== undefined) {
      await changePassword(app, userId, { oldpassword, newpassword, ip: request.ip }, { tokenId: request.token?.id, sessionId: request.webSession ? String(request.webSession.id) : undefined });
    }
    if (email !== undefined) await changeEmail(app, userId, { email, oldpassword, ip: request.ip });
    const row = await app.repos.users.update(userId, { groups, config, fullName });
    return { result: true as const, user: toUser(row) };
  });

  app.get('/user/stats', { schema: { tags: ['user'], response: { 200: UserStats } } }, async (request) => {
    const userId = request.userId!;
    const [counts, row] = await Promise.all([app.repos.stats.systemCounts(userId), app.repos.users.byId(userId)]);
    return {
      result: true as const,
      items: [
        { _id: 0, count: counts.all },
        { _id: UNSORTED, count: counts.unsorted },
        { _id: TRASH, count: counts.trash },
      ],
      meta: {
        _id: userId,
        ...(row?.changed_bookmarks_at ? { changedBookmarksDate: row.changed_bookmarks_at } : {}),
        pro: !!row?.pro,
        duplicates: { count: counts.duplicates },
        broken: { count: counts.broken },
      },
    };
  });

  app.get(
    '/user/:id',
    { schema: { tags: ['user'], params: Type.Object({ id: PathId({ minimum: 1 }) }), response: { 200: PublicUserEnvelope } } },
    async (request) => {
      const row = await app.repos.users.byId(request.params.id);
      if (!row) throw notFound();
      return { result: true as const, user: toPublicUser(row) };
    },
  );
};
export default routes;
