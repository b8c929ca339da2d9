import { PathId } from '../../../lib/api/schemas/common.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ALL_COLLECTIONS, TRASH, UNSORTED } from '../../../lib/api/constants.js';
import { bookmarkScope } from '../bookmark-scope.js';
import { errorReplies } from '../error-replies.js';
import { EXPORT_CONTENT_TYPES, EXPORT_FORMATS, exportStream } from '../../services/export/index.js';

const ExportParams = Type.Object({
  collectionId: PathId(),
  format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f)), { description: 'html, csv or md' }),
});

const ExportQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 2000, description: 'the search expression, as for listing' })),
  nested: Type.Optional(Type.Boolean({ description: 'include the collections below this one' })),
});

/** A file name from a title: letters, digits, dashes only. */
const fileName = (title: string): string =>
  title.normalize('NFKD').replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'bookmarks';

/** GET /bookmarks/{collectionId}/export.{html,csv,md}: the bookmarks listing would answer, as one file, streamed. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/bookmarks/:collectionId/export.:format',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['Bookmarks'],
        summary: 'Export the bookmarks of a collection as a Netscape bookmark file, CSV or Markdown',
        description:
          'Same scope as listing: collectionId 0 exports all bookmarks except Trash (collections shared with you ' +
          'included), -1 Unsorted, -99 Trash, any other id that collection (with `nested=true` also the ones ' +
          'below it); `search` narrows it. `html` is a Netscape bookmark file (collections as nested folders, ' +
          '`TAGS`, `ADD_DATE`, notes as `<DD>`); `csv` has the columns id, title, note, excerpt, url, folder path, ' +
          'tags, created, cover, highlights, favourite; `md` one section per bookmark with its highlights as quotes ' +
          'and their notes. The answer is streamed as an attachment.',
        params: ExportParams,
        querystring: ExportQuery,
        produces: Object.values(EXPORT_CONTENT_TYPES),
        response: {
          200: Type.String({ description: 'the file' }),
          ...errorReplies(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { collectionId, format } = request.params;
      const access = await app.permissions.requireCollection(request.userId, collectionId, 'read');
      const nested = collectionId > 0 ? request.query.nested ?? false : false;
      const scope = await bookmarkScope(app, access, { shared: true, nested, userId: request.userId });
      let title = 'Tidemark bookmarks';
      if (collectionId === UNSORTED) title = 'Unsorted';
      else if (collectionId === TRASH) title = 'Trash';
      else if (collectionId !== ALL_COLLECTIONS) title = (await app.repos.collections.byId(collectionId))?.title ?? title;
      const date = new Date().toISOString().slice(0, 10);
      reply
        .header('content-type', EXPORT_CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${fileName(title)}-${date}.${format}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      return reply.send(exportStream(app.repos.bookmarkExport, scope, { format, search: request.query.search, title }));
    },
  );
};
export default routes;
