import { Type } from '@sinclair/typebox';
import { Media } from './bookmark.js';

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
  type: Type.String(),
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
