import { isProbablyReaderable, Readability } from '@mozilla/readability';
import type { BookmarkType } from '../../../lib/api/constants.js';
import { loadHtmlDocument } from './load-document.js';

/** A page's kind: the bookmark types of lib/api. */
export type PageType = BookmarkType;

export interface PageMedia {
  type: 'image' | 'video';
  link: string;
}

/** What GET /import/url/parse reports about a page (the `item` without `parser`). */
export interface PageMetadata {
  title: string;
  excerpt: string;
  media: PageMedia[];
  type: PageType;
  meta: {
    possibleArticle: boolean;
    canonical: string;
    site: string;
    tags: string[];
  };
}

const MAX_TITLE = 500;
const MAX_EXCERPT = 1000;
const MAX_TAGS = 20;
const MAX_TAG_LENGTH = 100;
const MAX_MEDIA = 10;

const IMAGE_KEYS = ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'];
const VIDEO_KEYS = ['og:video', 'og:video:url', 'og:video:secure_url'];

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/msword',
  'application/rtf',
  'application/epub+zip',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'text/plain',
  'text/markdown',
  'text/csv',
]);
const DOCUMENT_TYPE_PREFIXES = ['application/vnd.openxmlformats-officedocument.', 'application/vnd.oasis.opendocument.'];

/** Whether the content type is one this module reads as HTML (an absent type is treated as HTML). */
export function isHtmlContentType(contentType: string): boolean {
  const type = mediaType(contentType);
  return type === '' || type === 'text/html' || type === 'application/xhtml+xml';
}

/**
 * Title, excerpt, media, type and meta of a fetched page. `url` is where the page was finally
 * found (relative links are resolved against it, or its <base href>); `contentType` is the
 * response's Content-Type. For non-HTML types `html` is ignored and the type comes from the
 * Content-Type alone (application/pdf -> document, image/* -> image, ...).
 */
export function extractMetadata(html: string, url: string, contentType: string, options: { readArticle?: boolean } = {}): PageMetadata {
  const pageUrl = new URL(url);
  if (!isHtmlContentType(contentType)) return fileMetadata(pageUrl, mediaType(contentType));

  const document = loadHtmlDocument(html);
  const base = baseUrl(document, pageUrl);
  const meta = metaValues(document);
  const first = (...keys: string[]) => {
    for (const key of keys) {
      const value = meta.get(key)?.find((v) => v.trim());
      if (value) return clean(value);
    }
    return '';
  };

  const possibleArticle = safely(() => isProbablyReaderable(document), false);
  const title = limit(first('og:title', 'twitter:title') || clean(document.title ?? '') || headingText(document) || fileTitle(pageUrl), MAX_TITLE);

  const media: PageMedia[] = [];
  const seen = new Set<string>();
  const addMedia = (type: PageMedia['type'], raw: string) => {
    const link = absoluteHttp(raw, base);
    if (!link || seen.has(link) || media.length >= MAX_MEDIA) return;
    seen.add(link);
    media.push({ type, link });
  };
  for (const key of IMAGE_KEYS) for (const value of meta.get(key) ?? []) addMedia('image', value);
  for (const link of linksWithRel(document, 'image_src')) addMedia('image', link);
  for (const key of VIDEO_KEYS) for (const value of meta.get(key) ?? []) addMedia('video', value);

  const ogType = first('og:type').toLowerCase();
  let type: PageType = 'link';
  if (ogType.startsWith('video')) type = 'video';
  else if (ogType.startsWith('music')) type = 'audio';
  else if (ogType === 'article' || possibleArticle) type = 'article';

  const canonical =
    linksWithRel(document, 'canonical').map((href) => absoluteHttp(href, base)).find(Boolean) ??
    absoluteHttp(first('og:url'), base) ??
    pageUrl.href;

  // article:tag is chosen per article, keywords often site-wide: the former go first
  const tags = tagList([
    ...(meta.get('article:tag') ?? []),
    ...(meta.get('keywords') ?? []).flatMap((value) => value.split(',')),
  ]);

  let excerpt = first('og:description', 'description', 'twitter:description');
  if (!excerpt && options.readArticle === false) {
    excerpt = firstParagraph(document);
  } else if (!excerpt) {
    // Readability rewrites the document, so it runs after everything else has been read from it.
    excerpt = safely(() => clean(new Readability(document).parse()?.excerpt ?? ''), '');
  }

  return {
    title,
    excerpt: limit(excerpt, MAX_EXCERPT),
    media,
    type,
    meta: {
      possibleArticle,
      canonical,
      site: first('og:site_name') || pageUrl.hostname,
      tags,
    },
  };
}

/** The first paragraph with words in it: the excerpt of a page too deeply nested for Readability. */
function firstParagraph(document: Document): string {
  for (const p of document.querySelectorAll('p')) {
    const text = clean(p.textContent ?? '');
    if (text) return text;
  }
  return '';
}

/** Metadata of a file that is not HTML: a PDF, an image, a video... */
function fileMetadata(pageUrl: URL, type: string): PageMetadata {
  let pageType: PageType = 'link';
  if (type.startsWith('image/')) pageType = 'image';
  else if (type.startsWith('video/')) pageType = 'video';
  else if (type.startsWith('audio/')) pageType = 'audio';
  else if (DOCUMENT_TYPES.has(type) || DOCUMENT_TYPE_PREFIXES.some((prefix) => type.startsWith(prefix))) pageType = 'document';
  const media: PageMedia[] =
    pageType === 'image' ? [{ type: 'image', link: pageUrl.href }] : pageType === 'video' ? [{ type: 'video', link: pageUrl.href }] : [];
  return {
    title: fileTitle(pageUrl),
    excerpt: '',
    media,
    type: pageType,
    meta: { possibleArticle: false, canonical: pageUrl.href, site: pageUrl.hostname, tags: [] },
  };
}

/** Every <meta> value by its lower-cased property/name/itemprop; values in document order. */
function metaValues(document: Document): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const element of document.querySelectorAll('meta')) {
    const key = (element.getAttribute('property') || element.getAttribute('name') || element.getAttribute('itemprop') || '')
      .trim()
      .toLowerCase();
    const content = element.getAttribute('content');
    if (!key || content === null) continue;
    const list = values.get(key);
    if (list) list.push(content);
    else values.set(key, [content]);
  }
  return values;
}

/** href of each <link> whose rel list holds `rel` (case-insensitive). */
function linksWithRel(document: Document, rel: string): string[] {
  const out: string[] = [];
  for (const element of document.querySelectorAll('link')) {
    const rels = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const href = element.getAttribute('href');
    if (href && rels.includes(rel)) out.push(href);
  }
  return out;
}

/** The page's <base href> (resolved against the page URL) when it is http(s), else the page URL. */
function baseUrl(document: Document, pageUrl: URL): URL {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  const resolved = absoluteHttp(href, pageUrl);
  return resolved ? new URL(resolved) : pageUrl;
}

export function absoluteHttp(raw: string | null | undefined, base: URL): string | null {
  const value = (raw ?? '').trim();
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function headingText(document: Document): string {
  return clean(document.querySelector('h1')?.textContent ?? '');
}

/** A title for a page without one: the file name in the path, else the host. */
function fileTitle(pageUrl: URL): string {
  const segments = pageUrl.pathname.split('/').filter(Boolean);
  const last = segments[segments.length - 1];
  if (last) {
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }
  return pageUrl.hostname;
}

function tagList(raw: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const value of raw) {
    const tag = clean(value);
    const key = tag.toLowerCase();
    if (!tag || tag.length > MAX_TAG_LENGTH || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
    if (out.length >= MAX_TAGS) break;
  }
  return out;
}

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function limit(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function safely<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}
