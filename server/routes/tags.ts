import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ALL_COLLECTIONS } from '../../lib/api/constants.js';
import { ItemsEnvelope, OkEnvelope, Tag, TagSuggestion, TagsRemove, TagsRename } from '../../lib/api/schemas/index.js';
import { badRequest } from '../errors.js';
import type { Need } from '../services/permissions.js';
import { bookmarkScope } from './bookmark-scope.js';
import { CollectionIdParam, PathId } from '../../lib/api/schemas/common.js';


/** Tag names as sent, trimmed; empty ones are refused. */
function names(list: string[], field: string): string[] {
  const out = list.map((t) => t.trim());
  if (out.some((t) => t === '')) throw badRequest(`${field}: tag names must not be empty or only spaces.`);
  return out;
}

/** Tag routes: list, rename, merge, remove, suggest. Rate-limited in the small bucket. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  /**
   * The bookmarks a tag request acts on. Without a collection: all the caller's bookmarks (reads
   * leave Trash out; writes include it, so a bookmark restored from Trash carries the new name).
   */
  const scopeOf = async (userId: number | null, collectionId: number | undefined, need: Need, write: boolean) => {
    const access = await app.permissions.requireCollection(userId, collectionId ?? ALL_COLLECTIONS, need);
    return { scope: await bookmarkScope(app, access, { includeTrash: write }), ownerId: access.ownerId };
  };

  const config = { bucket: 'small' as const };

  const list = async (userId: number | null, collectionId?: number) => {
    const { scope } = await scopeOf(userId, collectionId, 'read', false);
    return { result: true as const, items: await app.repos.tags.list(scope) };
  };
  const listSchema = {
    tags: ['Tags'],
    response: { 200: ItemsEnvelope(Tag) },
  };
  app.get('/tags', { config, schema: { ...listSchema, summary: 'All tags with counts (Trash left out), sorted by name' } }, async (request) =>
    list(request.userId),
  );
  app.get(
    '/tags/:collectionId',
    {
      config,
      schema: { ...listSchema, summary: 'Tags of one collection with counts, sorted by name', params: CollectionIdParam },
    },
    async (request) => list(request.userId, request.params.collectionId),
  );

  const rename = async (userId: number | null, collectionId: number | undefined, body: { replace: string; tags?: string[]; tag?: string }) => {
    const replace = names([body.replace], 'replace')[0];
    const from = body.tags ? names(body.tags, 'tags') : body.tag !== undefined ? names([body.tag], 'tag') : null;
    if (!from) throw badRequest('tags: send the tag names to rename or merge, e.g. {"tags": ["old"], "replace": "new"}.');
    const { scope, ownerId } = await scopeOf(userId, collectionId, 'write', true);
    const changed = await app.repos.tags.rename(scope, from, replace);
    if (changed.length > 0) await app.repos.users.touchBookmarks(ownerId);
    return { result: true as const };
  };
  const renameSchema = {
    tags: ['Tags'],
    description:
      'Renames one tag (`tags: [old]`, or `tag: old` from older clients) or merges several into `replace`. ' +
      'Without a collection, all the caller\'s bookmarks are in scope.',
    body: TagsRename,
    response: { 200: OkEnvelope },
  };
  app.put('/tags', { config, schema: { ...renameSchema, summary: 'Rename or merge tags' } }, async (request) =>
    rename(request.userId, undefined, request.body),
  );
  app.put(
    '/tags/:collectionId',
    { config, schema: { ...renameSchema, summary: 'Rename or merge tags within a collection', params: CollectionIdParam } },
    async (request) => rename(request.userId, request.params.collectionId, request.body),
  );

  const remove = async (userId: number | null, collectionId: number | undefined, body: { tags: string[] }) => {
    const tags = names(body.tags, 'tags');
    const { scope, ownerId } = await scopeOf(userId, collectionId, 'write', true);
    const changed = await app.repos.tags.remove(scope, tags);
    if (changed.length > 0) await app.repos.users.touchBookmarks(ownerId);
    return { result: true as const };
  };
  const removeSchema = { tags: ['Tags'], body: TagsRemove, response: { 200: OkEnvelope } };
  app.delete('/tags', { config, schema: { ...removeSchema, summary: 'Remove tags from all bookmarks' } }, async (request) =>
    remove(request.userId, undefined, request.body),
  );
  app.delete(
    '/tags/:collectionId',
    { config, schema: { ...removeSchema, summary: 'Remove tags from the bookmarks of a collection', params: CollectionIdParam } },
    async (request) => remove(request.userId, request.params.collectionId, request.body),
  );

  app.get(
    '/tags/suggest/:bookmarkId',
    {
      config,
      schema: {
        tags: ['Tags'],
        summary: 'Suggest existing tags for a bookmark',
        description:
          "From the caller's own tags (for a bookmark in a collection shared with the caller too): those used on bookmarks of the same domain, those whose words appear in the " +
          "bookmark's title, excerpt or link, and those of similar bookmarks. Tags the bookmark has are left out.",
        params: Type.Object({ bookmarkId: PathId() }),
        response: { 200: ItemsEnvelope(TagSuggestion) },
      },
    },
    async (request) => {
      await app.permissions.requireBookmark(request.userId, request.params.bookmarkId, 'read');
      // From the caller's own tags: a collaborator never sees the owner's tags from elsewhere.
      return { result: true as const, items: await app.repos.tags.suggest(request.params.bookmarkId, 10, request.userId!) };
    },
  );
};
export default routes;
