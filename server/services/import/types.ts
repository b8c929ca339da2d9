// Shapes produced by the import converters. `items`/`count` follow the observed reply of
// POST /import/file: {result, items: [{title, folders, bookmarks}], count: {...}}; `skipped` is ours.

export interface ImportMedia {
  type: string;
  link: string;
}

export interface ImportBookmark {
  link: string;
  title: string;
  excerpt: string;
  note: string;
  tags: string[];
  /** ISO 8601 */
  created: string;
  /** ISO 8601 */
  lastUpdate: string;
  cover: string;
  media: ImportMedia[];
  important: boolean;
}

export interface ImportFolder {
  title: string;
  folders: ImportFolder[];
  bookmarks: ImportBookmark[];
}

export interface ImportCount {
  /** bookmarks in the result (skipped links are not counted here) */
  bookmarks: number;
  /** every folder object in `items`, nested ones included */
  folders: number;
  /** distinct tag names */
  tags: number;
  /** the supported formats carry no highlights; always 0 */
  highlights: number;
  /** bookmarks whose link the caller's `isSaved` reported as already saved */
  duplicates: number;
  /** entries dropped because their link is not http(s) (javascript:, place:, data:, junk) */
  skipped: number;
}

export interface ImportResult {
  items: ImportFolder[];
  count: ImportCount;
}

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
}

/** The file is not one of the supported formats, or is damaged. `message` is meant for the user. */
export class ImportFormatError extends Error {
  override readonly name = 'ImportFormatError';
  constructor(message: string) {
    super(message);
  }
}
