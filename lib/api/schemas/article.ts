// A saved page's readable text (beyond the spec): what Tidemark extracted from the page, for the
// reader view and for full-text search. Captured by the extension at save time, or fetched by
// the server's text job for bookmarks made any other way.
import { Type, type Static } from '@sinclair/typebox';
import { ARTICLE_UPLOAD_MAX_BYTES } from '../constants.js';

export { ARTICLE_UPLOAD_MAX_BYTES };

export const ARTICLE_STATUSES = ['indexed', 'pending', 'failed', 'none'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** GET /rest/v1/bookmark/{id}/article */
export const Article = Type.Object({
  result: Type.Literal(true),
  /** indexed: text extracted and searchable; pending: waiting for the job; failed: see `error`; none: no text (image, binary) */
  status: Type.Unsafe<ArticleStatus>({ type: 'string', enum: [...ARTICLE_STATUSES] }),
  /** why the text could not be read, said for a person ("the site answered 403"); empty unless failed or none */
  error: Type.String(),
  title: Type.String(),
  byline: Type.String(),
  siteName: Type.String(),
  /** the readable article, sanitised on the server (no script, no event handler, no form) */
  html: Type.String(),
  /** the article's plain text, as searched */
  text: Type.String(),
  /** characters of `text` */
  length: Type.Integer(),
  /** true when the text was cut at the server's size limit */
  truncated: Type.Boolean(),
  /** pages of a PDF; absent for other types */
  pageCount: Type.Optional(Type.Integer()),
  /** where the text came from: the page as the user saw it, or fetched by the server */
  source: Type.Union([Type.Literal('extension'), Type.Literal('server'), Type.Literal('')]),
  updated: Type.String({ description: 'ISO time the text was last extracted; empty when never' }),
});
export type Article = Static<typeof Article>;

/** PUT /rest/v1/bookmark/{id}/article: the page as the user sees it, serialised in the page. */
export const ArticleUpload = Type.Object({
  html: Type.String({ minLength: 1, maxLength: ARTICLE_UPLOAD_MAX_BYTES }),
  /** the address the page was serialised at (for relative links and images) */
  url: Type.String({ minLength: 1, maxLength: 8192 }),
});
export type ArticleUpload = Static<typeof ArticleUpload>;

/** Answer of PUT /article and POST /article/retry: the new state, without the html and text. */
export const ArticleState = Type.Object({
  result: Type.Literal(true),
  status: Type.Unsafe<ArticleStatus>({ type: 'string', enum: [...ARTICLE_STATUSES] }),
  error: Type.String(),
});
export type ArticleState = Static<typeof ArticleState>;
