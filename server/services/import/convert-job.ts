import { normalizeUrl } from '../../../lib/api/url.js';
import { convertImportFile } from './convert-import-file.js';
import { foldersInOrder } from './import-builder.js';
import { ImportFormatError, type ImportCount, type ImportLimits } from './types.js';

/** What the conversion worker answers: everything the route needs, in forms that cross threads cheaply. */
export type ConvertJobResult =
  | {
      kind: 'converted';
      /**
       * The answer as UTF-8 JSON up to and including `"count":`, the count object still to come
       * (its `duplicates` needs the database). Serialising 400k bookmarks is itself work to keep
       * off the request thread, and bytes cross threads without a copy.
       */
      answerHead: Uint8Array;
      count: ImportCount;
      /** The duplicate-matching key of every bookmark's link, in file order, one per line, UTF-8 (repeats kept: each counts). */
      linkKeys: Uint8Array;
    }
  | { kind: 'format-error'; message: string };

/**
 * Converts an uploaded export for POST/PUT /import/file. Runs in the parse pool's workers (see
 * services/parse-pool), so it is pure work on its inputs: no database, no server state.
 */
export function runConvertJob(content: Uint8Array, filename: string | undefined, limits: Partial<ImportLimits>): ConvertJobResult {
  try {
    const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    const result = convertImportFile(buf, filename, { limits });
    const keys: string[] = [];
    for (const folder of foldersInOrder(result.items)) {
      for (const bookmark of folder.bookmarks) {
        const key = normalizeUrl(bookmark.link);
        if (key !== null) keys.push(key);
      }
    }
    const encoder = new TextEncoder();
    return {
      kind: 'converted',
      answerHead: encoder.encode(`{"result":true,"items":${JSON.stringify(result.items)},"count":`),
      count: result.count,
      linkKeys: encoder.encode(keys.join('\n')),
    };
  } catch (error) {
    if (error instanceof ImportFormatError) return { kind: 'format-error', message: error.message };
    throw error;
  }
}
