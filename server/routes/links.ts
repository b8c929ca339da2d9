import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS } from '../../lib/api/constants.js';
import { LinksQuery, LinksResponse } from '../../lib/api/schemas/links.js';
import { URL_KEY_VERSION } from '../../lib/api/url.js';
import { errorReplies } from './error-replies.js';

const errors = errorReplies(400);

/**
 * Compact saved-link index for the extension's saved-page badge. BEYOND THE SPEC: the contract has
 * no such route; it exists so the extension can answer "is this tab saved?" locally, without a
 * request per navigation.
 *
 * - `GET /links` (optionally `after=<id>&limit=N` to page): `{result, items: [[id, link_key, collectionId]], cursor, more}`
 *   of the caller's saved, not removed bookmarks, by id. `link_key` is `normalizeUrl(link)`, the same
 *   key `url/exists` matches on.
 * - `GET /links?since=<cursor>`: what changed after that cursor: `items` present now (new, moved,
 *   restored, link changed) and `removed` ids (Trash, deleted, moved to another owner), oldest change
 *   first; `cursor` to pass next time, `more` when the limit cut the answer short.
 * - Cursors are opaque and per account (services/link-cursors.ts): their value says nothing about
 *   anybody else's changes.
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { links } = app.repos;

  app.get(
    '/links',
    {
      schema: {
        tags: ['Extension'],
        summary: 'Saved-link index for the extension (beyond the spec): all links, or the changes since a cursor',
        querystring: LinksQuery,
        response: { 200: LinksResponse, ...errors },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const limit = request.query.limit ?? LIMITS.linksPerAnswerDefault;
      const cursors = app.services.linkCursors;
      if (request.query.since !== undefined) {
        // Every cursor handed out is at most the account's newest change, and that only grows: a
        // cursor past it, or one not handed out here (a client of an older server), starts over.
        const newest = await links.cursor(userId);
        const since = await cursors.decode(userId, request.query.since);
        const from = since === null || since > newest ? 0 : since;
        const { items, removed, cursor, more } = await links.changes(userId, from, limit);
        return { result: true as const, items, removed, cursor: await cursors.encode(userId, cursor), more, keyVersion: URL_KEY_VERSION };
      }
      // Cursor first: changes made while the client pages through the list are caught by `since`.
      const cursor = await cursors.encode(userId, await links.cursor(userId));
      const items = await links.list(userId, request.query.after ?? 0, limit);
      return { result: true as const, items, cursor, more: items.length === limit, keyVersion: URL_KEY_VERSION };
    },
  );
};
export default routes;
