import { Type } from '@sinclair/typebox';
import { BOOKMARK_SORTS, BOOKMARK_TYPES, LIMITS, type BookmarkType } from '../constants.js';
import { IdList, Ref, Timestamp } from './common.js';
import { ARTICLE_STATUSES, type ArticleStatus } from './article.js';
import { Highlight, HighlightChange } from './highlight.js';

const ArticleStatusSchema = Type.Unsafe<ArticleStatus>({ type: 'string', enum: [...ARTICLE_STATUSES] });

// A string enum so a wrong type is reported as "must be one of link, article, ...".
export const BookmarkTypeSchema = Type.Unsafe<BookmarkType>({
  type: 'string',
  enum: [...BOOKMARK_TYPES],
  description: `one of ${BOOKMARK_TYPES.join(', ')}`,
});

export const Media = Type.Object({
  type: Type.String({ maxLength: 50 }),
  link: Type.String({ maxLength: 4096 }),
});

const Link = Type.String({ minLength: 1, maxLength: 8192, description: 'an http(s) URL' });
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 });

export const Bookmark = Type.Object({
  _id: Type.Integer(),
  link: Type.String(),
  title: Type.String(),
  excerpt: Type.String(),
  note: Type.String(),
  type: BookmarkTypeSchema,
  cover: Type.String(),
  media: Type.Array(Media),
  tags: Type.Array(Type.String()),
  important: Type.Boolean(),
  collection: Type.Object({ $id: Type.Integer() }),
  collectionId: Type.Integer(),
  domain: Type.String(),
  created: Timestamp,
  lastUpdate: Timestamp,
  sort: Type.Number(),
  highlights: Type.Array(Highlight),
  removed: Type.Boolean(),
  user: Type.Object({ $id: Type.Integer() }),
  creatorRef: Type.Integer(),
  file: Type.Optional(Type.Object({ name: Type.String(), size: Type.Integer(), type: Type.String() })),
  cache: Type.Optional(Type.Object({ status: Type.String(), size: Type.Optional(Type.Integer()) })),
  /** beyond the spec: the state of the page's text (GET /bookmark/{id}/article has the text itself) */
  article: Type.Optional(Type.Object({ status: ArticleStatusSchema, error: Type.String() })),
  /**
   * beyond the spec, in search answers only: when the bookmark matched in its page text, a short
   * extract of that text, HTML-escaped, with the matched words inside <mark>
   */
  snippet: Type.Optional(Type.String()),
});

const BookmarkFields = {
  link: Link,
  title: Type.Optional(Type.String({ maxLength: 10_000 })),
  excerpt: Type.Optional(Type.String({ maxLength: 100_000 })),
  note: Type.Optional(Type.String({ maxLength: 100_000 })),
  type: Type.Optional(BookmarkTypeSchema),
  cover: Type.Optional(Type.String({ maxLength: 8192 })),
  media: Type.Optional(Type.Array(Media, { maxItems: 100 })),
  tags: Type.Optional(Tags),
  important: Type.Optional(Type.Boolean()),
  collection: Type.Optional(Ref),
  collectionId: Type.Optional(Type.Integer()),
  order: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.orderMax })),
  created: Type.Optional(Timestamp),
  lastUpdate: Type.Optional(Timestamp),
  highlights: Type.Optional(Type.Array(HighlightChange, { maxItems: 1000 })),
  pleaseParse: Type.Optional(Type.Object({})),
};

export const BookmarkCreate = Type.Object(BookmarkFields, { additionalProperties: true });
export const BookmarkUpdate = Type.Partial(Type.Object(BookmarkFields), { additionalProperties: true });

export const BookmarksCreate = Type.Object({
  items: Type.Array(BookmarkCreate, { minItems: 1 }),
});

export const BookmarkListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 2000 })),
  sort: Type.Optional(Type.String({ description: `one of ${BOOKMARK_SORTS.join(', ')}; others fall back to -created` })),
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: LIMITS.pageMax })),
  perpage: Type.Optional(Type.Integer({ minimum: 1 })),
  nested: Type.Optional(Type.Boolean()),
});

export const BookmarkList = Type.Object({
  result: Type.Literal(true),
  items: Type.Array(Bookmark),
  count: Type.Integer(),
  collectionId: Type.Integer(),
});

export const BookmarksBulkUpdate = Type.Object(
  {
    ids: Type.Optional(IdList),
    important: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Tags),
    media: Type.Optional(Type.Array(Media, { maxItems: 100 })),
    cover: Type.Optional(Type.String({ maxLength: 8192 })),
    collection: Type.Optional(Ref),
  },
  { additionalProperties: true },
);

export const BookmarksBulkRemove = Type.Object({ ids: Type.Optional(IdList) }, { additionalProperties: true });
