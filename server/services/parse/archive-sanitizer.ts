import { loadHtmlDocument } from './load-document.js';
import { absoluteHttp } from './metadata.js';
import { FetchError, fetchPage, type FetchPageOptions } from './safe-fetch.js';
import { serializeDocument } from './serialize-html.js';

// Turns a fetched page into a permanent copy that is safe to show from our origin: nothing in it
// can run (scripts, event handlers, javascript: URLs, frames and plugins are removed, and a
// Content-Security-Policy forbids scripts besides), relative links keep working through a
// <base href>, and small images can be inlined so the copy survives the original going away.

export const MAX_INLINE_IMAGE_BYTES = 100 * 1024;
const DEFAULT_MAX_IMAGES = 100;
const DEFAULT_CONCURRENCY = 4;

/** Fetches an image for inlining; null when it cannot be had. */
export type ArchiveImageFetcher = (url: string) => Promise<{ contentType: string; body: Buffer } | null>;

export interface SanitizeForArchiveOptions {
  /** when given, images of at most `maxInlineBytes` are inlined as data: URIs */
  fetchImage?: ArchiveImageFetcher;
  /** default 100 KB */
  maxInlineBytes?: number;
  /** most images fetched per page; default 100 */
  maxImages?: number;
  /** parallel image fetches; default 4 */
  concurrency?: number;
}

const REMOVED_ELEMENTS = ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'base', 'noembed', 'noframes'];
/** obsolete elements whose content browsers show as raw text; kept as <pre> */
const RAW_TEXT_SHOWN = ['xmp', 'plaintext', 'listing'];
const REMOVED_LINK_RELS = new Set(['import', 'preload', 'modulepreload', 'prefetch', 'prerender', 'dns-prefetch', 'preconnect', 'manifest', 'serviceworker']);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'data', 'poster', 'background', 'lowsrc', 'dynsrc', 'xlink:href', 'ping', 'srcset', 'codebase', 'cite', 'longdesc', 'manifest']);
const CSP =
  "script-src 'none'; object-src 'none'; frame-src 'none'; child-src 'none'; worker-src 'none'; form-action 'none'";

/**
 * A permanent copy of `html` that runs nothing and loads relative resources from `baseUrl` (or
 * the page's own http(s) <base href>). With `fetchImage`, small images are inlined as data URIs.
 */
export async function sanitizeForArchive(html: string, baseUrl: string, options: SanitizeForArchiveOptions = {}): Promise<string> {
  const document = loadHtmlDocument(html);
  const pageUrl = new URL(baseUrl);
  const declaredBase = document.querySelector('base[href]')?.getAttribute('href');
  const base = new URL(absoluteHttp(declaredBase, pageUrl) ?? pageUrl.href);

  removeActiveContent(document);
  unwrapNoscript(document);
  replaceRawTextElements(document);
  stripDangerousAttributes(document);
  writeHead(document, base);

  if (options.fetchImage) await inlineImages(document, base, options.fetchImage, options);

  return serializeDocument(document);
}

function replaceRawTextElements(document: Document): void {
  for (const element of [...document.querySelectorAll(RAW_TEXT_SHOWN.join(','))]) {
    const pre = document.createElement('pre');
    pre.textContent = element.textContent ?? '';
    element.replaceWith(pre);
  }
}

function removeActiveContent(document: Document): void {
  for (const element of document.querySelectorAll(REMOVED_ELEMENTS.join(','))) element.remove();
  for (const meta of document.querySelectorAll('meta')) {
    const equiv = (meta.getAttribute('http-equiv') ?? '').trim().toLowerCase();
    // refresh redirects, set-cookie and the page's own CSP/charset are replaced by ours
    if (equiv || meta.hasAttribute('charset')) meta.remove();
  }
  for (const link of document.querySelectorAll('link')) {
    const rels = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (rels.some((rel) => REMOVED_LINK_RELS.has(rel))) link.remove();
  }
  // SVG animation can set an href to a javascript: URL
  for (const element of document.querySelectorAll('animate, set')) {
    const target = (element.getAttribute('attributeName') ?? element.getAttribute('attributename') ?? '').toLowerCase();
    if (target.includes('href')) element.remove();
  }
}

/** With scripts gone, a page's <noscript> fallback is what should show. */
function unwrapNoscript(document: Document): void {
  for (const noscript of [...document.querySelectorAll('noscript')]) {
    noscript.replaceWith(...noscript.childNodes);
  }
}

function stripDangerousAttributes(document: Document): void {
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on') || name === 'srcdoc' || (URL_ATTRIBUTES.has(name) && isScriptUrl(attribute.value))) {
        element.removeAttribute(attribute.name);
      }
    }
  }
}

/** javascript:, vbscript: and data:text/html URLs, however spaced or cased. */
function isScriptUrl(value: string): boolean {
  let compact = '';
  for (const ch of value) {
    if (ch.charCodeAt(0) > 0x20) compact += ch.toLowerCase();
    if (compact.length > 20) break;
  }
  return compact.startsWith('javascript:') || compact.startsWith('vbscript:') || compact.startsWith('data:text/html');
}

/** <meta charset>, our CSP and <base href> go first in <head>. */
function writeHead(document: Document, base: URL): void {
  const head = document.querySelector('head')!;
  const charset = document.createElement('meta');
  charset.setAttribute('charset', 'utf-8');
  const csp = document.createElement('meta');
  csp.setAttribute('http-equiv', 'Content-Security-Policy');
  csp.setAttribute('content', CSP);
  const baseElement = document.createElement('base');
  baseElement.setAttribute('href', base.href);
  head.prepend(charset, csp, baseElement);
}

async function inlineImages(
  document: Document,
  base: URL,
  fetchImage: ArchiveImageFetcher,
  options: SanitizeForArchiveOptions,
): Promise<void> {
  const maxBytes = options.maxInlineBytes ?? MAX_INLINE_IMAGE_BYTES;
  const byUrl = new Map<string, HTMLImageElement[]>();
  for (const img of document.querySelectorAll('img')) {
    const src = absoluteHttp(img.getAttribute('src'), base);
    if (!src) continue;
    const list = byUrl.get(src);
    if (list) list.push(img as HTMLImageElement);
    else if (byUrl.size < (options.maxImages ?? DEFAULT_MAX_IMAGES)) byUrl.set(src, [img as HTMLImageElement]);
  }
  const queue = [...byUrl.keys()];
  const worker = async () => {
    for (let src = queue.shift(); src !== undefined; src = queue.shift()) {
      let image: Awaited<ReturnType<ArchiveImageFetcher>> = null;
      try {
        image = await fetchImage(src);
      } catch {
        image = null;
      }
      const type = (image?.contentType.split(';')[0] ?? '').trim().toLowerCase();
      if (!image || !type.startsWith('image/') || image.body.length === 0 || image.body.length > maxBytes) continue;
      const dataUri = `data:${type};base64,${image.body.toString('base64')}`;
      for (const img of byUrl.get(src)!) {
        img.setAttribute('src', dataUri);
        img.removeAttribute('srcset');
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, queue.length));
  await Promise.all(Array.from({ length: workers }, worker));
}

/**
 * An ArchiveImageFetcher on top of fetchPage: same address policy and limits, images only, at
 * most `maxInlineBytes` read.
 */
export function createArchiveImageFetcher(
  fetchOptions: Omit<FetchPageOptions, 'wantBody' | 'maxBytes' | 'onTooLarge'> = {},
  maxInlineBytes = MAX_INLINE_IMAGE_BYTES,
): ArchiveImageFetcher {
  return async (url) => {
    try {
      const page = await fetchPage(url, {
        timeoutMs: 5000,
        ...fetchOptions,
        accept: 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8',
        maxBytes: maxInlineBytes,
        onTooLarge: 'error',
        wantBody: ({ status, contentType }) => status >= 200 && status < 300 && contentType.startsWith('image/'),
      });
      if (page.status < 200 || page.status >= 300 || !page.contentType.startsWith('image/')) return null;
      return { contentType: page.contentType, body: page.body };
    } catch (error) {
      if (error instanceof FetchError) return null;
      throw error;
    }
  };
}
