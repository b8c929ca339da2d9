import { Type } from '@sinclair/typebox';
import { BookmarkTypeSchema, Media } from './bookmark.js';

export const UrlExistsRequest = Type.Object({
  urls: Type.Array(Type.String({ maxLength: 8192 }), { minItems: 1, maxItems: 100 }),
});

/** `result: false` here means "none saved", not an error. */
export const UrlExistsResponse = Type.Object({
  result: Type.Boolean(),
  ids: Type.Array(Type.Integer()),
  duplicates: Type.Optional(Type.Array(Type.Object({ _id: Type.Integer(), link: Type.String() }))),
});

export const ParsedItem = Type.Object({
  title: Type.String(),
  excerpt: Type.String(),
  media: Type.Array(Media),
  type: BookmarkTypeSchema,
  parser: Type.Optional(Type.String()),
  meta: Type.Object({
    possibleArticle: Type.Boolean(),
    canonical: Type.Optional(Type.String()),
    site: Type.Optional(Type.String()),
    tags: Type.Array(Type.String()),
  }),
});

export const ParseResponse = Type.Object({
  result: Type.Literal(true),
  item: ParsedItem,
  error: Type.Optional(Type.String()),
  errorMessage: Type.Optional(Type.String()),
});

/** One bookmark of a converted export (POST /import/file). */
export const ImportedBookmark = Type.Object({
  link: Type.String(),
  title: Type.String(),
  excerpt: Type.String(),
  note: Type.String(),
  tags: Type.Array(Type.String()),
  created: Type.String(),
  lastUpdate: Type.String(),
  cover: Type.String(),
  media: Type.Array(Media),
  important: Type.Boolean(),
});

/**
 * A folder of a converted export, with its nested folders. `unsorted` (ours, beyond the spec) marks
 * the top-level folder holding what a Tidemark export wrote outside any folder (Unsorted, Trash).
 */
export const ImportedFolder = Type.Recursive(
  (Folder) =>
    Type.Object({
      title: Type.String(),
      unsorted: Type.Optional(
        Type.Literal(true, {
          description:
            'Ours, beyond the spec; present only when true, on a top-level folder without subfolders. Its bookmarks were in ' +
            'Unsorted (or Trash) of the Tidemark account that exported the file: a client saves them in Unsorted (collectionId -1), ' +
            'or in the collection it imports into, and makes no collection for this folder.',
        }),
      ),
      folders: Type.Array(Folder),
      bookmarks: Type.Array(ImportedBookmark),
    }),
  { $id: 'ImportedFolder' },
);

/**
 * POST/PUT /import/file: the file converted to JSON (nothing is saved). `duplicates` counts
 * bookmarks whose link the caller has saved already; `skipped` (ours) counts entries dropped
 * because their link is not http(s).
 */
export const ImportFileResponse = Type.Object({
  result: Type.Literal(true),
  items: Type.Array(ImportedFolder),
  count: Type.Object({
    bookmarks: Type.Integer({ description: 'bookmarks in the result (skipped links are not counted here)' }),
    folders: Type.Integer({ description: 'every folder object in `items`, nested ones included' }),
    tags: Type.Integer({ description: 'distinct tag names' }),
    highlights: Type.Integer({ description: 'the supported formats carry no highlights: always 0' }),
    duplicates: Type.Integer({ description: 'bookmarks whose link the caller has saved already' }),
    skipped: Type.Integer({ description: 'entries dropped because their link is not http(s)' }),
  }),
});
