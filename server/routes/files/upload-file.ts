import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Bookmark } from '../../../lib/api/schemas/bookmark.js';
import { ItemEnvelope } from '../../../lib/api/schemas/common.js';
import { domainOf, normalizeUrl } from '../../../lib/api/url.js';
import { badRequest } from '../../errors.js';
import { QuotaExceededError, type FileRow } from '../../repositories/index.js';
import { cleanFileName } from '../../services/files/names.js';
import { sniffFile } from '../../services/files/sniff.js';
import { newFileId, uploadKey, type StagedFile } from '../../services/files/storage.js';
import { createTarget } from '../../services/bookmarks/input.js';
import { fileContext, quotaError } from './context.js';
import { readMultipart } from './multipart.js';
import { errorReplies } from '../error-replies.js';

const errors = errorReplies(400, 403, 404, 413);

/** The `collectionId` text field: a whole number, or absent (Unsorted). */
function readCollectionId(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return createTarget({});
  if (!/^\s*-?\d+\s*$/.test(raw)) throw badRequest(`collectionId must be a collection id (a whole number), got "${raw.slice(0, 40)}"`);
  return createTarget({ collectionId: Number(raw) });
}

/** PUT /bookmark/file: store an uploaded file and save a bookmark that links to it. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { files, store, fileUrl } = fileContext(app);

  app.put(
    '/bookmark/file',
    {
      schema: {
        tags: ['Bookmarks'],
        summary:
          'Upload a file (multipart part `file`, optional field `collectionId`): it is stored and a bookmark of the fitting type (image, video, audio, document) links to it',
        description: 'The type is read from the content, not the name. The file counts against the owner\'s storage (`user.files`).',
        consumes: ['multipart/form-data'],
        response: { 200: ItemEnvelope(Bookmark), ...errors },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const { file, fields } = await readMultipart<StagedFile>(request, {
        partName: 'file',
        what: 'file',
        maxBytes: app.config.uploads.maxBytes,
        fieldNames: ['collectionId'],
        stageTo: store,
      });
      const staged = file.content;
      let row: FileRow | undefined;
      let committed = false;
      try {
        const collectionId = readCollectionId(fields.collectionId);
        const access = await app.permissions.requireCollection(userId, collectionId, 'write');
        const name = cleanFileName(file.filename);
        const kind = sniffFile(staged.head, name);
        const id = newFileId();
        try {
          row = await files.add({
            id,
            userId: access.ownerId,
            kind: 'file',
            name,
            mime: kind.mime,
            size: staged.size,
            sha256: staged.sha256,
            path: uploadKey(id),
          });
        } catch (error) {
          if (error instanceof QuotaExceededError) throw quotaError(error);
          throw error;
        }
        await store.commit(staged, row.path, kind.mime);
        committed = true;

        const link = fileUrl(request, row);
        const image = kind.type === 'image';
        const [bookmarkId] = await app.repos.bookmarks.create([
          {
            ownerId: access.ownerId,
            creatorId: userId,
            collectionId,
            link,
            linkKey: normalizeUrl(link)!,
            domain: domainOf(link),
            title: name,
            excerpt: '',
            note: '',
            type: kind.type,
            cover: image ? link : '',
            media: image ? [{ type: 'image', link }] : [],
            tags: [],
            important: false,
            highlights: [],
          },
        ]);
        await files.attachToBookmark(row.id, bookmarkId);
        await app.repos.users.touchBookmarks(access.ownerId);
        const item = (await app.repos.bookmarks.get(bookmarkId))!;
        return { result: true as const, item: { ...item, file: { name: row.name, size: row.size, type: row.mime } } };
      } catch (error) {
        // Nothing half-made stays behind: the row goes (its bytes follow through file_garbage).
        if (row && !(await files.get(row.id))?.bookmark_id) await files.remove(row.id);
        throw error;
      } finally {
        if (!committed) await store.discard(staged.tmp);
      }
    },
  );
};
export default routes;
