import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ImportFileResponse } from '../../../lib/api/schemas/import.js';
import { normalizeUrl } from '../../../lib/api/url.js';
import { badRequest } from '../../errors.js';
import { convertImportFile, ImportFormatError, type ImportFolder, type ImportResult } from '../../services/import/index.js';
import { readMultipart } from '../files/multipart.js';
import { errorReplies } from '../error-replies.js';

const errors = errorReplies(400, 413);

/** Every bookmark link of the converted folders, in file order (a link found twice is listed twice). */
function linksOf(items: ImportFolder[]): string[] {
  const out: string[] = [];
  const walk = (folder: ImportFolder) => {
    for (const b of folder.bookmarks) out.push(b.link);
    for (const child of folder.folders) walk(child);
  };
  items.forEach(walk);
  return out;
}

/** POST and PUT /import/file: convert a bookmark export to JSON. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart);

  /** Counts the bookmarks whose link (compared as normalizeUrl keys) the user has saved already. */
  const countDuplicates = async (userId: number, result: ImportResult): Promise<number> => {
    const keys = linksOf(result.items).map((link) => normalizeUrl(link));
    const wanted = keys.filter((k): k is string => k !== null);
    if (wanted.length === 0) return 0;
    const saved = new Set((await app.repos.bookmarks.findSavedByKeys(userId, wanted)).map((s) => s.linkKey));
    return keys.filter((k) => k !== null && saved.has(k)).length;
  };

  const handler = async (request: import('fastify').FastifyRequest) => {
    const limit = app.config.uploads.importMaxBytes;
    const { file } = await readMultipart<Buffer>(request, { partName: 'import', what: 'bookmark export file', maxBytes: limit });
    let result: ImportResult;
    try {
      result = convertImportFile(file.content, file.filename || undefined);
    } catch (error) {
      if (error instanceof ImportFormatError) throw badRequest(error.message);
      throw error;
    }
    result.count.duplicates = await countDuplicates(request.userId!, result);
    return { result: true as const, items: result.items, count: result.count };
  };

  const schema = {
    tags: ['Import'],
    summary:
      'Convert a bookmark export (Netscape bookmark HTML from any browser, Pocket HTML or CSV, Instapaper CSV) sent as multipart part `import` to JSON; nothing is saved',
    description: 'Up to 50 MB. The format is detected from the content. `count.duplicates` counts links you have saved already.',
    consumes: ['multipart/form-data'],
    response: { 200: ImportFileResponse, ...errors },
  };
  app.post('/import/file', { config: { bucket: 'small' }, schema }, handler);
  app.put('/import/file', { config: { bucket: 'small' }, schema }, handler);
};
export default routes;
