import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Bookmark } from '../../../lib/api/schemas/bookmark.js';
import { Collection } from '../../../lib/api/schemas/collection.js';
import { IdParam, ItemEnvelope } from '../../../lib/api/schemas/common.js';
import { badRequest, notFound } from '../../errors.js';
import { QuotaExceededError, type FileRow } from '../../repositories/index.js';
import { cleanFileName } from '../../services/files/names.js';
import { COVER_MIME_TYPES, sniffFile } from '../../services/files/sniff.js';
import { newFileId, uploadKey, type StagedFile } from '../../services/files/storage.js';
import { collectionRecords, isSystemCollection, systemCollection } from '../collections/records.js';
import { fileContext, quotaError } from './context.js';
import { readMultipart } from './multipart.js';
import { errorReplies } from '../error-replies.js';

const errors = errorReplies(400, 403, 404, 413);

type CoverTarget = { bookmarkId: number } | { collectionId: number };

/** PUT /bookmark/{id}/cover and PUT /collection/{id}/cover: a PNG, GIF or JPEG image as the cover. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { files, store, fileUrl } = fileContext(app);

  /**
   * Reads the `cover` part, checks by content that it is PNG, GIF or JPEG, stores it against the
   * owner's quota (an older cover of the same target counts as freed) and hands the new row to
   * `apply`. If `apply` fails the new file is removed; if it succeeds the older covers are.
   */
  async function replaceCover<T>(
    request: FastifyRequest,
    ownerId: number,
    target: CoverTarget,
    apply: (url: string, row: FileRow, previous: FileRow[]) => Promise<T | undefined>,
  ): Promise<T> {
    const { file } = await readMultipart<StagedFile>(request, {
      partName: 'cover',
      what: 'cover image',
      maxBytes: app.config.uploads.maxBytes,
      stageTo: store,
    });
    const staged = file.content;
    let committed = false;
    let row: FileRow | undefined;
    try {
      const kind = sniffFile(staged.head, file.filename);
      if (!COVER_MIME_TYPES.has(kind.mime)) {
        const what = kind.mime === 'application/octet-stream' ? 'not an image we recognise' : `${kind.mime}`;
        throw badRequest(
          `The cover must be a PNG, GIF or JPEG image; this file is ${what} (the content is checked, not the name). Send a PNG, GIF or JPEG.`,
        );
      }
      const extension = kind.mime === 'image/png' ? 'png' : kind.mime === 'image/gif' ? 'gif' : 'jpg';
      const id = newFileId();
      const previous = 'bookmarkId' in target ? await files.ofBookmark(target.bookmarkId, 'cover') : [];
      try {
        row = await files.add(
          {
            id,
            userId: ownerId,
            kind: 'cover',
            bookmarkId: 'bookmarkId' in target ? target.bookmarkId : null,
            collectionId: 'collectionId' in target ? target.collectionId : null,
            name: cleanFileName(file.filename, `cover.${extension}`),
            mime: kind.mime,
            size: staged.size,
            sha256: staged.sha256,
            path: uploadKey(id),
          },
          await files.coverBytes(target),
        );
      } catch (error) {
        if (error instanceof QuotaExceededError) throw quotaError(error);
        throw error;
      }
      await store.commit(staged, row.path, kind.mime);
      committed = true;
      const result = await apply(fileUrl(request, row), row, previous);
      if (result === undefined) throw notFound();
      await files.dropOtherCovers(target, row.id);
      return result;
    } catch (error) {
      if (row) await files.remove(row.id);
      throw error;
    } finally {
      if (!committed) await store.discard(staged.tmp);
    }
  }

  app.put(
    '/bookmark/:id/cover',
    {
      schema: {
        tags: ['Bookmarks'],
        summary: 'Upload a cover image for a bookmark (multipart part `cover`: PNG, GIF or JPEG, checked by content)',
        params: IdParam,
        consumes: ['multipart/form-data'],
        response: { 200: ItemEnvelope(Bookmark), ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      // Permission first: nobody uploads into a bookmark they cannot change.
      const access = await app.permissions.requireBookmark(request.userId!, id, 'write');
      const item = await replaceCover(request, access.ownerId, { bookmarkId: id }, async (url, _row, previous) => {
        const current = await app.repos.bookmarks.get(id);
        if (!current) return undefined;
        // The new cover leads the media list; links to the covers it replaces go.
        const replaced = previous.map((p) => `/files/${p.id}/`);
        const media = [{ type: 'image', link: url }, ...current.media.filter((m) => !replaced.some((r) => m.link.includes(r)))];
        if (!(await app.repos.bookmarks.update(id, { cover: url, media }))) return undefined;
        await app.repos.users.touchBookmarks(access.ownerId);
        return app.repos.bookmarks.get(id);
      });
      return { result: true as const, item };
    },
  );

  app.put(
    '/collection/:id/cover',
    {
      schema: {
        tags: ['collections'],
        summary: 'Upload a cover image for a collection (multipart part `cover`: PNG, GIF or JPEG, checked by content)',
        params: IdParam,
        consumes: ['multipart/form-data'],
        response: { 200: ItemEnvelope(Collection), ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const userId = request.userId!;
      if (isSystemCollection(id)) throw systemCollection(id, 'given a cover');
      const access = await app.permissions.requireCollection(userId, id, 'write');
      const item = await replaceCover(request, access.ownerId, { collectionId: id }, async (url) => {
        const row = await app.repos.collections.update(id, { cover: [url] });
        if (!row) return undefined;
        const [record] = await collectionRecords(app, request, [row]);
        return record;
      });
      return { result: true as const, item };
    },
  );
};
export default routes;
