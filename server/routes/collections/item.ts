import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TRASH } from '../../../lib/api/constants.js';
import { Collection, CollectionCreate, CollectionUpdate } from '../../../lib/api/schemas/collection.js';
import { IdParam, ItemEnvelope } from '../../../lib/api/schemas/common.js';
import type { CollectionUpdate as CollectionChanges } from '../../../lib/api/types.js';
import { badRequest, notFound } from '../../errors.js';
import { CollectionCycleError } from '../../repositories/index.js';
import { cleanTitle, collectionRecords, isSystemCollection, systemCollection } from './records.js';

const tags = ['collections'];

/** `parent` in a body: undefined = leave as is, null = root, a number = under that collection. */
function parentOf(parent: { $id?: number } | null | undefined): number | null | undefined {
  if (parent === undefined) return undefined;
  return parent === null || parent.$id === undefined ? null : parent.$id;
}

/** The stored settings a body sets (title and parent are handled on their own). Extra body fields are ignored. */
const settingsOf = (body: CollectionChanges) => ({
  view: body.view,
  sort: body.sort,
  public: body.public,
  expanded: body.expanded,
  color: body.color,
  cover: body.cover,
});

/** GET, POST, PUT and DELETE of one collection (DELETE /collection/-99 empties Trash). */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/collection/:id',
    {
      // Public collections are readable without a token; the permission module decides.
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'One collection',
        params: IdParam,
        response: { 200: ItemEnvelope(Collection) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await app.permissions.requireCollection(request.userId, id, 'read');
      if (isSystemCollection(id)) throw systemCollection(id, 'read as a record; GET /user/stats has their counts');
      const row = await app.repos.collections.byId(id);
      if (!row) throw notFound();
      const [item] = await collectionRecords(app, request, [row]);
      return { result: true as const, item };
    },
  );

  app.post(
    '/collection',
    {
      schema: {
        tags,
        summary: 'Create a collection',
        body: CollectionCreate,
        response: { 200: ItemEnvelope(Collection) },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const body = request.body;
      const title = cleanTitle(body.title);
      const parentId = parentOf(body.parent) ?? null;
      let ownerId = userId;
      if (parentId !== null) {
        // A nested collection belongs to whoever owns its parent.
        const parent = await app.permissions.requireCollection(userId, parentId, 'write');
        ownerId = parent.ownerId;
      }
      const row = await app.repos.collections.create(ownerId, { title, parentId, ...settingsOf(body) });
      const [item] = await collectionRecords(app, request, [row]);
      return { result: true as const, item };
    },
  );

  app.put(
    '/collection/:id',
    {
      schema: {
        tags,
        summary: 'Update or move a collection',
        description: '`parent: {$id}` moves it; `parent: null` or `{}` makes it a root collection.',
        params: IdParam,
        body: CollectionUpdate,
        response: { 200: ItemEnvelope(Collection) },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { id } = request.params;
      const body = request.body ?? {};
      await app.permissions.requireCollection(userId, id, 'write');
      if (isSystemCollection(id)) throw systemCollection(id, 'changed');
      const current = await app.repos.collections.byId(id);
      if (!current) throw notFound();

      const parentId = parentOf(body.parent);
      const moves = parentId !== undefined && parentId !== current.parent_id;
      const publicChanges = body.public !== undefined && body.public !== !!current.public;
      // Moving a collection or making it public or private is for its owner; members may edit the rest.
      if (moves || publicChanges) await app.permissions.requireCollection(userId, id, 'owner');
      if (moves && parentId !== null) await app.permissions.requireCollection(userId, parentId, 'owner');

      try {
        const row = await app.repos.collections.update(
          id,
          { title: body.title === undefined ? undefined : cleanTitle(body.title), ...settingsOf(body) },
          moves ? { parentId: parentId! } : undefined,
        );
        if (!row) throw notFound();
        const [item] = await collectionRecords(app, request, [row]);
        return { result: true as const, item };
      } catch (err) {
        if (err instanceof CollectionCycleError) throw badRequest(err.message);
        throw err;
      }
    },
  );

  app.delete(
    '/collection/:id',
    {
      schema: {
        tags,
        summary: 'Remove a collection and its descendants (bookmarks go to Trash); -99 empties Trash',
        params: IdParam,
        response: {
          200: Type.Object({
            result: Type.Literal(true),
            modified: Type.Optional(Type.Integer({ description: 'bookmarks deleted for good (only when emptying Trash)' })),
          }),
        },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { id } = request.params;
      const access = await app.permissions.requireCollection(userId, id, 'owner');
      if (id === TRASH) {
        const modified = await app.repos.collections.emptyTrash(access.ownerId);
        if (modified > 0) await app.repos.users.touchBookmarks(access.ownerId);
        return { result: true as const, modified };
      }
      if (isSystemCollection(id)) {
        throw badRequest(
          `Collection ${id} is a system collection and cannot be removed. To clear it, remove its bookmarks with DELETE /bookmarks/${id}.`,
        );
      }
      const { bookmarksMoved } = await app.repos.collections.removeWithDescendants([id]);
      if (bookmarksMoved > 0) await app.repos.users.touchBookmarks(access.ownerId);
      return { result: true as const };
    },
  );
};
export default routes;
