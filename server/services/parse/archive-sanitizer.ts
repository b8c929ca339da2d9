import type createDOMPurifyType from 'dompurify';
import { addArchiveHooks, ARCHIVE_PURIFY_CONFIG } from './archive-allowlist.js';
import { absoluteHttp } from './metadata.js';
import { fetchSubresource, type FetchPageOptions } from './safe-fetch.js';
import { serializeDocument } from './serialize-html.js';
import { inlineStylesheets, type ArchiveStylesheetFetcher, type StylesheetLimits } from './archive-stylesheets.js';

// Turns a fetched page into a permanent copy that is safe to show from our origin. DOMPurify, on a
// jsdom window (linkedom lacks what DOMPurify needs: on it DOMPurify.isSupported is false and it
// returns its input unchanged), keeps only the allowlist of archive-allowlist.ts; then our UTF-8
// charset, a script-forbidding Content-Security-Policy and a <base href> (so relative links keep
// working) are written first in <head>, and small images can be inlined so the copy survives the
// original going away. The route serving copies adds a sandboxing CSP header on top.

/**
 * jsdom and DOMPurify, loaded on the first copy made: jsdom is the heaviest package the server has
 * (about 0.6 s of CPU to load, most of the server's start-up), and most processes (every CLI command,
 * a server that makes no permanent copy) never need it.
 */
let archiveDom: Promise<{ jsdom: typeof import('jsdom'); createDOMPurify: typeof createDOMPurifyType }> | undefined;
export function loadArchiveDom() {
  archiveDom ??= Promise.all([import('jsdom'), import('dompurify')]).then(([jsdom, purify]) => ({ jsdom, createDOMPurify: purify.default }));
  // A failed load (a broken install) is reported by the copy that needed it, and tried again by the next.
  archiveDom.catch(() => (archiveDom = undefined));
  return archiveDom;
}

const MAX_INLINE_IMAGE_BYTES = 100 * 1024;
const DEFAULT_MAX_IMAGES = 100;
const DEFAULT_CONCURRENCY = 4;

/** Fetches an image for inlining; null when it cannot be had. */
type ArchiveImageFetcher = (url: string) => Promise<{ contentType: string; body: Buffer } | null>;

interface SanitizeForArchiveOptions {
  /** when given, images of at most `maxInlineBytes` are inlined as data: URIs */
  fetchImage?: ArchiveImageFetcher;
  /** default 100 KB */
  maxInlineBytes?: number;
  /** most images fetched per page; default 100 */
  maxImages?: number;
  /** parallel image fetches; default 4 */
  concurrency?: number;
  /** when given, the page's stylesheets are fetched and kept as <style> (their CSS cleaned like the rest) */
  fetchStylesheet?: ArchiveStylesheetFetcher;
  stylesheetLimits?: StylesheetLimits;
}

/** obsolete elements whose content browsers show as raw text; kept as <pre> */
const RAW_TEXT_SHOWN = ['xmp', 'plaintext', 'listing'];
const CSP =
  "script-src 'none'; object-src 'none'; frame-src 'none'; child-src 'none'; worker-src 'none'; form-action 'none'";

/**
 * A permanent copy of `html` that runs nothing and loads relative resources from `baseUrl` (or
 * the page's own http(s) <base href>). With `fetchImage`, small images are inlined as data URIs;
 * with `fetchStylesheet`, the page's stylesheets are kept in it.
 */
export async function sanitizeForArchive(html: string, baseUrl: string, options: SanitizeForArchiveOptions = {}): Promise<string> {
  const { jsdom, createDOMPurify } = await loadArchiveDom();
  // no runScripts and no resource loading: nothing in the page runs or is fetched while parsing;
  // a silent console keeps jsdom's complaints about the page's CSS out of the server log
  const { JSDOM, VirtualConsole } = jsdom;
  const { window } = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  try {
    const document = window.document;
    const pageUrl = new URL(baseUrl);
    const declaredBase = document.querySelector('base[href]')?.getAttribute('href');
    const base = new URL(absoluteHttp(declaredBase, pageUrl) ?? pageUrl.href);
    replaceRawTextElements(document);
    unwrapNoscript(document);
    if (options.fetchStylesheet) await inlineStylesheets(document, base, options.fetchStylesheet, options.stylesheetLimits);

    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurifyType>[0]);
    if (!purify.isSupported) throw new Error('DOMPurify cannot run on this DOM; refusing to store an unsanitised copy');
    addArchiveHooks(purify, base);
    purify.sanitize(document.documentElement, { ...ARCHIVE_PURIFY_CONFIG, IN_PLACE: true });

    writeHead(document, base);
    if (options.fetchImage) await inlineImages(document, base, options.fetchImage, options);
    return serializeDocument(document);
  } finally {
    window.close();
  }
}

/**
 * With scripts gone, a page's <noscript> fallback is what should show. In <head> the parser keeps
 * its content as text: that is parsed as markup here, and sanitised with the rest.
 */
function unwrapNoscript(document: Document): void {
  for (const noscript of [...document.querySelectorAll('noscript')]) {
    if (noscript.children.length === 0 && (noscript.textContent ?? '').includes('<')) {
      const template = document.createElement('template');
      template.innerHTML = noscript.textContent ?? '';
      noscript.replaceWith(template.content);
    } else {
      noscript.replaceWith(...noscript.childNodes);
    }
  }
}

function replaceRawTextElements(document: Document): void {
  for (const element of [...document.querySelectorAll(RAW_TEXT_SHOWN.join(','))]) {
    const pre = document.createElement('pre');
    pre.textContent = element.textContent ?? '';
    element.replaceWith(pre);
  }
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
  // Links open in a new tab: a copy is shown in a frame, where the live page would replace the copy
  // (and the web app's frame-src refuses other sites).
  baseElement.setAttribute('target', '_blank');
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
    const page = await fetchSubresource(
      url,
      { ...fetchOptions, accept: 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8', maxBytes: maxInlineBytes },
      (status, contentType) => status >= 200 && status < 300 && contentType.startsWith('image/'),
    );
    return page && { contentType: page.contentType, body: page.body };
  };
}
