import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Bookmark, BookmarkCreate, BookmarkUpdate } from '../../../lib/api/schemas/bookmark.js';
import { IdParam, ItemEnvelope, OkEnvelope } from '../../../lib/api/schemas/common.js';
import { notFound } from '../../errors.js';
import { moveTarget, readChanges } from '../../services/bookmarks/input.js';
import { errorReplies } from '../error-replies.js';
import { withArticleFields } from './article-fields.js';

const ItemResponse = ItemEnvelope(Bookmark);
const errors = errorReplies(400, 403, 404);

/** Single bookmark routes: GET/POST/PUT/DELETE /bookmark, incl. highlight writes on PUT. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { repos, permissions } = app;

  const load = async (id: number) => {
    const item = await repos.bookmarks.get(id);
    if (!item) throw notFound();
    return (await withArticleFields(repos, [item]))[0]!;
  };

  app.get(
    '/bookmark/:id',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['Bookmarks'],
        summary: 'A bookmark with its highlights (readable without a token when its collection is public)',
        params: IdParam,
        response: { 200: ItemResponse, ...errors },
      },
    },
    async (request) => {
      await permissions.requireBookmark(request.userId, request.params.id, 'read');
      return { result: true as const, item: await load(request.params.id) };
    },
  );

  app.post(
    '/bookmark',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: 'Create a bookmark (Unsorted unless collection.$id or collectionId is given)',
        body: BookmarkCreate,
        response: { 200: ItemResponse, ...errors },
      },
    },
    async (request) => {
      const [id] = await app.services.bookmarkCreation.create(request.userId!, [request.body]);
      return { result: true as const, item: await load(id) };
    },
  );

  app.put(
    '/bookmark/:id',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: 'Update a bookmark: fields sent change; `collection` moves it; `highlights` adds, updates or removes highlights',
        params: IdParam,
        body: BookmarkUpdate,
        response: { 200: ItemResponse, ...errors },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { id } = request.params;
      const body = request.body;
      const source = await permissions.requireBookmark(userId, id, 'write');
      const current = await load(id);
      const changes = readChanges(body, current.link);
      const targetId = moveTarget(body);
      let move: { collectionId: number; ownerId: number } | undefined;
      if (targetId !== undefined && targetId !== current.collectionId) {
        move = await permissions.requireMoveTarget(userId, targetId, source.ownerId);
      }
      if (!(await repos.bookmarks.update(id, { ...changes, move }))) throw notFound();
      await repos.users.touchBookmarks(source.ownerId);
      if (move && move.ownerId !== source.ownerId) await repos.users.touchBookmarks(move.ownerId);
      if (body.pleaseParse) await repos.bookmarks.onPleaseParse([id], 'update');
      // Another address is another page: its text is fetched again (or uploaded by the extension).
      if (changes.link && changes.link.link !== current.link) await repos.articles.markPending([id]);
      return { result: true as const, item: await load(id) };
    },
  );

  app.delete(
    '/bookmark/:id',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: 'Move a bookmark to Trash, or remove it for good when it is already in Trash',
        params: IdParam,
        response: { 200: Type.Union([ItemResponse, OkEnvelope]), ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const access = await permissions.requireBookmark(request.userId!, id, 'write');
      const outcome = await repos.bookmarks.remove(id);
      if (!outcome) throw notFound();
      await repos.users.touchBookmarks(access.ownerId);
      if (outcome === 'deleted') return { result: true as const };
      return { result: true as const, item: await load(id) };
    },
  );
};
export default routes;
