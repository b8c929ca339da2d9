import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS } from '../../../lib/api/constants.js';
import { ImportFileResponse } from '../../../lib/api/schemas/import.js';
import { ApiError, badRequest } from '../../errors.js';
import { ParseRefused } from '../../services/parse-pool/index.js';
import { readMultipart } from '../files/multipart.js';
import { errorReplies } from '../error-replies.js';
import { clientGone, refusalAsApiError } from '../parse-pool-replies.js';

const errors = errorReplies(400, 413, 422);

/** Keys looked up per query while counting duplicates; the request thread yields between batches. */
const DUPLICATE_BATCH = 250;
const NEWLINE = 0x0a;

/** POST and PUT /import/file: convert a bookmark export to JSON. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart);

  /**
   * Counts the bookmarks whose link key (one per line in `linkKeys`, UTF-8, repeats included) the
   * user has saved already, a batch at a time, giving other requests a turn between batches.
   */
  const countDuplicates = async (userId: number, linkKeys: Buffer): Promise<number> => {
    let duplicates = 0;
    let at = 0;
    while (at < linkKeys.length) {
      const batch: string[] = [];
      while (at < linkKeys.length && batch.length < DUPLICATE_BATCH) {
        let end = linkKeys.indexOf(NEWLINE, at);
        if (end === -1) end = linkKeys.length;
        batch.push(linkKeys.toString('utf8', at, end));
        at = end + 1;
      }
      const saved = new Set((await app.repos.bookmarks.findSavedByKeys(userId, batch)).map((s) => s.linkKey));
      for (const key of batch) if (saved.has(key)) duplicates++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return duplicates;
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = app.config.uploads.importMaxBytes;
    const signal = clientGone(request, reply);
    const { file } = await readMultipart<Buffer>(request, { partName: 'import', what: 'bookmark export file', maxBytes: limit });
    const limits = { maxDepth: LIMITS.importFolderDepthMax, maxEntries: app.config.uploads.importMaxEntries };
    // The bytes move into the parse pool's worker uncopied; a client that goes away stops the conversion.
    const content = new Uint8Array(file.content.byteLength);
    content.set(file.content);
    let result;
    try {
      result = await app.services.parsePool.run(
        request.userId!,
        'import-convert',
        { content, filename: file.filename || undefined, limits },
        { signal, transfer: [content.buffer] },
      );
    } catch (error) {
      if (error instanceof ParseRefused && error.code === 'too_much_memory') {
        throw new ApiError(413, 'The file is too large to convert in one go. Split it into smaller files and import them one by one.');
      }
      throw refusalAsApiError(error);
    }
    if (result.kind === 'format-error') throw badRequest(result.message);
    const keys = Buffer.from(result.linkKeys.buffer, result.linkKeys.byteOffset, result.linkKeys.byteLength);
    const count = { ...result.count, duplicates: await countDuplicates(request.userId!, keys) };
    // The worker wrote the answer (ImportFileResponse) up to the count as UTF-8; it is sent as is,
    // in pieces, rather than parsed and serialised again on this thread.
    const head = Buffer.from(result.answerHead.buffer, result.answerHead.byteOffset, result.answerHead.byteLength);
    const CHUNK = 1 << 20;
    const pieces = function* () {
      for (let i = 0; i < head.length; i += CHUNK) yield head.subarray(i, i + CHUNK);
      yield Buffer.from(`${JSON.stringify(count)}}`);
    };
    return reply.type('application/json; charset=utf-8').send(Readable.from(pieces(), { objectMode: false }));
  };

  const schema = {
    tags: ['Import'],
    summary:
      'Convert a bookmark export (Netscape bookmark HTML from any browser, Pocket HTML or CSV, Instapaper CSV) sent as multipart part `import` to JSON; nothing is saved',
    description:
      `Up to 50 MB, at most ${LIMITS.importEntriesMax} bookmarks and folders, folders nested at most ${LIMITS.importFolderDepthMax} deep ` +
      '(400 otherwise). The format is detected from the content. `count.duplicates` counts links you have saved already.',
    consumes: ['multipart/form-data'],
    response: { 200: ImportFileResponse, ...errors },
  };
  app.post('/import/file', { config: { bucket: 'small' }, schema }, handler);
  app.put('/import/file', { config: { bucket: 'small' }, schema }, handler);
};
export default routes;
