import type { ImportedBookmark, ImportedFolder, ImportFileResponse } from '../../../lib/api/types.js';

// Shapes produced by the import converters: the `items`/`count` of POST /import/file, declared
// once in lib/api/schemas/import.ts (ImportFileResponse). `count.duplicates` counts the links the
// caller's `isSaved` reported as already saved.

export type ImportBookmark = ImportedBookmark;
export type ImportFolder = ImportedFolder;
export type ImportCount = ImportFileResponse['count'];

/** POST /import/file's answer without `result`. */
export type ImportResult = Omit<ImportFileResponse, 'result'>;

export type ImportFormat = 'netscape' | 'pocket-html' | 'pocket-csv' | 'instapaper-csv';

/**
 * Tells which of the given links the user has already saved. Called in batches (see
 * `duplicateBatchSize`); return the subset of the links passed in, spelled as passed in.
 */
export type IsSavedCallback = (links: string[]) => Set<string>;

export interface ConvertOptions {
  isSaved?: IsSavedCallback;
  /** links per `isSaved` call; default 500 */
  duplicateBatchSize?: number;
  /** time used for entries without a date; default: now */
  now?: Date;
  /** caps on the file's shape; default LIMITS.importFolderDepthMax / importEntriesMax */
  limits?: Partial<ImportLimits>;
}

/** How deep folders may nest and how many bookmarks and folders one file may hold. */
export interface ImportLimits {
  maxDepth: number;
  maxEntries: number;
}

/** The file is not one of the supported formats, or is damaged. `message` is meant for the user. */
export class ImportFormatError extends Error {
  override readonly name = 'ImportFormatError';
  constructor(message: string) {
    super(message);
  }
}
