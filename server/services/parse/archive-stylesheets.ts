import { decodeText } from './decode-html.js';
import { absoluteHttp } from './metadata.js';
import { fetchSubresource, type FetchPageOptions } from './safe-fetch.js';

// A permanent copy keeps the look of its page: each external stylesheet the page uses
// (`<link rel=stylesheet>`) is fetched on the server and put in its place as a <style> element,
// before sanitising. The sanitiser then cleans that CSS like any other (archive-css.ts): url() and
// @import go, so the copy still makes the reader's browser fetch nothing. Layout, colours and
// typography survive; background images and web fonts do not.

/** Fetches a stylesheet's text; null when it cannot be had. */
export type ArchiveStylesheetFetcher = (url: string) => Promise<string | null>;

export interface StylesheetLimits {
  /** most stylesheets fetched per page; default 30 */
  maxSheets?: number;
  /** most bytes of CSS kept per page, all sheets together; default 2 MiB */
  maxTotalBytes?: number;
  /** parallel fetches; default 4 */
  concurrency?: number;
}

const DEFAULT_MAX_SHEETS = 30;
const DEFAULT_MAX_TOTAL_BYTES = 2 * 1024 * 1024;
const DEFAULT_CONCURRENCY = 4;
/** A single sheet larger than this is left out (a framework's whole build is rarely over 1 MiB). */
const MAX_SHEET_BYTES = 1024 * 1024;

/**
 * The stylesheets a browser would apply: `rel` has the `stylesheet` token and not `alternate` (a
 * sheet the reader must pick), the link is not disabled and its address is http(s).
 */
function appliedStylesheets(document: Document, base: URL): { link: Element; url: string }[] {
  const found: { link: Element; url: string }[] = [];
  for (const link of document.querySelectorAll('link[rel][href]')) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rel.includes('stylesheet') || rel.includes('alternate') || link.hasAttribute('disabled')) continue;
    const url = absoluteHttp(link.getAttribute('href'), base);
    if (url) found.push({ link, url });
  }
  return found;
}

/**
 * Puts each applied stylesheet's CSS in place of its `<link>`, as `<style>` (with the link's `media`),
 * so the cascade keeps its order. Sheets that cannot be fetched, or past the limits, are left as
 * links, which the sanitiser drops. The CSS is not cleaned here: the sanitiser does it.
 */
export async function inlineStylesheets(document: Document, base: URL, fetchSheet: ArchiveStylesheetFetcher, limits: StylesheetLimits = {}): Promise<void> {
  const sheets = appliedStylesheets(document, base).slice(0, limits.maxSheets ?? DEFAULT_MAX_SHEETS);
  const texts = new Map<string, string | null>();
  const queue = [...new Set(sheets.map((s) => s.url))];
  // A fetcher answers null for what it cannot have; anything it throws is a fault, and fails the copy.
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) texts.set(url, await fetchSheet(url));
  };
  const workers = Math.max(1, Math.min(limits.concurrency ?? DEFAULT_CONCURRENCY, queue.length));
  await Promise.all(Array.from({ length: workers }, worker));

  let room = limits.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  for (const { link, url } of sheets) {
    const css = texts.get(url);
    if (css === null || css === undefined) continue;
    const size = Buffer.byteLength(css);
    if (size > room) continue;
    room -= size;
    const style = document.createElement('style');
    const media = link.getAttribute('media');
    if (media) style.setAttribute('media', media);
    style.textContent = css;
    link.replaceWith(style);
  }
}

/**
 * An ArchiveStylesheetFetcher on top of fetchPage: same address policy, 5 s, at most 1 MiB, and only
 * what is served as `text/css` (as browsers require of a stylesheet from another site).
 */
export function createArchiveStylesheetFetcher(fetchOptions: Omit<FetchPageOptions, 'wantBody' | 'maxBytes' | 'onTooLarge'> = {}): ArchiveStylesheetFetcher {
  return async (url) => {
    const page = await fetchSubresource(
      url,
      { ...fetchOptions, accept: 'text/css,*/*;q=0.1', maxBytes: MAX_SHEET_BYTES },
      (status, contentType) => status >= 200 && status < 300 && contentType === 'text/css',
    );
    return page && decodeText(page.body, page.contentTypeHeader);
  };
}
