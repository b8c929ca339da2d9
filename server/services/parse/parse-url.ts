import { decodeHtml } from './decode-html.js';
import { extractMetadata, isHtmlContentType, type PageMedia, type PageMetadata, type PageType } from './metadata.js';
import { ParseRefused } from '../parse-pool/refusal.js';
import { FetchError, fetchPage, type FetchedPage, type FetchPageOptions } from './safe-fetch.js';

/** `item` of GET /import/url/parse. `parser` is present on the fallback item only. */
export interface ParsedPageItem {
  title: string;
  excerpt: string;
  media: (PageMedia | { type: 'image'; link: '<screenshot>' })[];
  type: PageType;
  parser?: 'local';
  meta: {
    possibleArticle: boolean;
    canonical?: string;
    site?: string;
    tags: string[];
  };
}

/**
 * The GET /import/url/parse answer. Failures still have `result: true`, with `error`,
 * `errorMessage` (invalid_url, url_status_404, url_status_503, timeout, too_large, too_deep,
 * blocked_address, dns_failure, too_many_redirects, ...) and the fallback item.
 */
interface ParseResult {
  result: true;
  item: ParsedPageItem;
  error?: 'not_found';
  errorMessage?: string;
  /** for logs and people, not part of the API reply: what went wrong, in words */
  detail?: string;
}

/** Reads a fetched page's metadata; the server's runs in its parse pool (see services/parse-pool). */
type MetadataReader = (html: string, url: string, contentType: string) => Promise<PageMetadata>;

type ParseUrlOptions = Omit<FetchPageOptions, 'wantBody' | 'onTooLarge'> & {
  /** where the fetched page is read; default: on this thread (for tools and tests, never the server) */
  extract?: MetadataReader;
};

/** A refused parse as the answer's errorMessage: the fetch codes where they mean the same. */
const REFUSAL_CODES = { too_deep: 'too_deep', too_slow: 'timeout', too_much_memory: 'too_large' } as const;

/**
 * Fetches `url` safely (see fetchPage) and reads its title, excerpt, media, type and meta.
 * Never throws for a bad or unreachable URL: those answer the fallback item with an error.
 */
export async function parseUrl(url: string, options: ParseUrlOptions = {}): Promise<ParseResult> {
  return (await readPage(url, options)).result;
}

/** A page read by readPage: the parse answer, plus the fetched page and its HTML text when it was HTML. */
interface PageReading {
  result: ParseResult;
  page?: FetchedPage;
  /** decoded body of a successful HTML answer ('' for other types) */
  html?: string;
}

/**
 * parseUrl that also hands back what it fetched, so a caller that keeps a copy of the page (the
 * background job) reads it once.
 */
export async function readPage(url: string, options: ParseUrlOptions = {}): Promise<PageReading> {
  const input = typeof url === 'string' ? url.trim() : '';
  if (!isHttpUrl(input)) return { result: failure(input, 'invalid_url', `"${input}" is not a web address (http or https)`) };

  const { extract = async (html, pageUrl, contentType) => extractMetadata(html, pageUrl, contentType), ...fetchOptions } = options;
  let page;
  try {
    page = await fetchPage(input, {
      ...fetchOptions,
      // only a successful HTML answer is worth reading; for a PDF or an image the type is enough
      wantBody: ({ status, contentType }) => status >= 200 && status < 300 && isHtmlContentType(contentType),
    });
  } catch (error) {
    if (error instanceof FetchError) return { result: failure(input, error.code, error.message) };
    throw error;
  }
  if (page.status < 200 || page.status >= 300) {
    return { result: failure(input, `url_status_${page.status}`, `${page.finalUrl} answered with HTTP status ${page.status}`), page };
  }
  const html = page.body.length ? decodeHtml(page.body, page.contentTypeHeader) : '';
  let metadata: PageMetadata;
  try {
    metadata = await extract(html, page.finalUrl, page.contentType);
  } catch (error) {
    // Cancelled (the caller went away) or closing: nobody is waiting for a fallback answer.
    if (!(error instanceof ParseRefused) || !(error.code in REFUSAL_CODES)) throw error;
    const code = REFUSAL_CODES[error.code as keyof typeof REFUSAL_CODES];
    return { result: failure(input, code, error.message), page };
  }
  return { result: { result: true, item: metadata }, page, html };
}

/** The item the reference service answers when it could not read a page. */
function fallbackItem(url: string): ParsedPageItem {
  return {
    title: url.length > 500 ? `${url.slice(0, 499)}…` : url,
    excerpt: '',
    media: [{ type: 'image', link: '<screenshot>' }],
    type: 'link',
    parser: 'local',
    meta: { possibleArticle: false, tags: [] },
  };
}

function failure(url: string, errorMessage: string, detail: string): ParseResult {
  return { result: true, error: 'not_found', errorMessage, item: fallbackItem(url), detail };
}

function isHttpUrl(input: string): boolean {
  if (!input) return false;
  try {
    const parsed = new URL(input);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}
