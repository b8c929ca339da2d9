// The work the parse pool runs in its worker threads (see pool.ts): every parse of input a
// stranger controls. Each task checks the nesting depth before any tree is built, so a hostile
// page is refused in milliseconds rather than costing minutes or the stack. Tasks are pure work
// on their input (no database, no server state); a task that fetches (a permanent copy's images
// and stylesheets) does so with the same address policy as the request thread.
import { runConvertJob } from '../import/convert-job.js';
import type { ImportLimits } from '../import/types.js';
import { createArchiveImageFetcher, sanitizeForArchive } from '../parse/archive-sanitizer.js';
import { createArchiveStylesheetFetcher } from '../parse/archive-stylesheets.js';
import { extractArticleText } from '../parse/article-text.js';
import { decodeHtml } from '../parse/decode-html.js';
import { pdfDocumentText, plainDocumentText } from '../parse/document-text.js';
import { UnreadablePdf } from '../parse/pdf-text.js';
import { extractMetadata, isHtmlContentType } from '../parse/metadata.js';
import { MAX_ARTICLE_DEPTH, MAX_NESTING_DEPTH, nestingDepth, tooDeepMessage } from '../parse/nesting-depth.js';
import { ParseRefused } from './refusal.js';

/** Refuses markup nested past the limit before anything builds a tree of it; answers its depth. */
function requireShallow(markup: string, what: string): number {
  const depth = nestingDepth(markup, MAX_NESTING_DEPTH);
  if (depth === null) throw new ParseRefused('too_deep', tooDeepMessage(what));
  return depth;
}

interface PageMetadataInput {
  html: string;
  url: string;
  contentType: string;
}

/** GET /import/url/parse and the background job: title, excerpt, media, type and meta of a fetched page. */
function pageMetadata({ html, url, contentType }: PageMetadataInput) {
  if (!isHtmlContentType(contentType)) return extractMetadata(html, url, contentType);
  const depth = requireShallow(html, 'page');
  return extractMetadata(html, url, contentType, { readArticle: depth <= MAX_ARTICLE_DEPTH });
}

interface ArchiveCopyInput {
  /** the page's HTML, decoded already, or its bytes with the Content-Type they came with */
  html: string | { bytes: Uint8Array; contentType: string };
  baseUrl: string;
  /** when given, images and stylesheets are fetched (with these settings) and kept in the copy */
  fetch?: { allowPrivateNetwork: boolean; timeoutMs: number };
}

/** A permanent copy: PUT /bookmark/{id}/cache (an uploaded page) and the background job (a fetched one). */
async function archiveCopy({ html, baseUrl, fetch }: ArchiveCopyInput): Promise<string> {
  const text = typeof html === 'string' ? html : decodeHtml(Buffer.from(html.bytes.buffer, html.bytes.byteOffset, html.bytes.byteLength), html.contentType);
  requireShallow(text, 'page');
  return sanitizeForArchive(text, baseUrl, fetch ? { fetchImage: createArchiveImageFetcher(fetch), fetchStylesheet: createArchiveStylesheetFetcher(fetch) } : {});
}

interface DocumentTextInput {
  /** the document as fetched, and the Content-Type it came with (a text file's charset) */
  bytes: Uint8Array;
  contentType: string;
  kind: 'pdf' | 'plain';
  /** where it was read (its name stands in for a missing title) */
  url: string;
  /** characters of text kept; the rest is cut and the answer says `truncated` */
  maxChars: number;
}

/** The text job on a PDF (pdf.js, with the page count) or a plain-text document. */
async function documentText({ bytes, contentType, kind, url, maxChars }: DocumentTextInput) {
  if (kind === 'plain') return plainDocumentText(bytes, contentType, url, maxChars);
  try {
    return await pdfDocumentText(bytes, url, maxChars);
  } catch (error) {
    if (error instanceof UnreadablePdf) throw new ParseRefused('unreadable', error.message);
    throw error;
  }
}

interface ArticleTextInput {
  /** the page's HTML, decoded already, or its bytes with the Content-Type they came with */
  html: string | { bytes: Uint8Array; contentType: string };
  /** the address the page was read at (relative links and images resolve against it) */
  url: string;
}

/** PUT /bookmark/{id}/article (the page the extension serialised) and the text job (a fetched page): its readable text. */
function articleText({ html, url }: ArticleTextInput) {
  const text = typeof html === 'string' ? html : decodeHtml(Buffer.from(html.bytes.buffer, html.bytes.byteOffset, html.bytes.byteLength), html.contentType);
  const depth = requireShallow(text, 'page');
  return extractArticleText(text, url, depth);
}

interface ImportConvertInput {
  content: Uint8Array;
  filename: string | undefined;
  limits: Partial<ImportLimits>;
}

/** POST/PUT /import/file: a bookmark export converted to the answer's JSON. */
function importConvert({ content, filename, limits }: ImportConvertInput) {
  return runConvertJob(content, filename, limits);
}

export const TASKS = {
  'page-metadata': pageMetadata,
  'archive-copy': archiveCopy,
  'import-convert': importConvert,
  'document-text': documentText,
  'article-text': articleText,
};

export type TaskName = keyof typeof TASKS;
export type TaskInput<K extends TaskName> = Parameters<(typeof TASKS)[K]>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<(typeof TASKS)[K]>>;

/** Runs one task; a stack overflow in a tree builder is the nesting limit reached another way. */
export async function runTask(task: TaskName, input: unknown): Promise<unknown> {
  const run = TASKS[task] as (input: unknown) => unknown;
  if (!run) throw new Error(`unknown parse task "${task}"`);
  try {
    return await run(input);
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) throw new ParseRefused('too_deep', tooDeepMessage('page'));
    throw error;
  }
}
