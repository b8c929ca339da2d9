import { Readability } from '@mozilla/readability';
import type createDOMPurifyType from 'dompurify';
import { addArchiveHooks, ARCHIVE_PURIFY_CONFIG } from './archive-allowlist.js';
import { loadArchiveDom } from './archive-sanitizer.js';
import { loadHtmlDocument } from './load-document.js';
import { MAX_ARTICLE_DEPTH } from './nesting-depth.js';
import type { ExtractedArticle } from '../../repositories/index.js';

// A page's readable article and its plain text, for the reader view and full-text search. The
// caller (the parse pool's 'article-text' task) has decoded the page and checked its nesting.

/** Most characters of text kept for search and snippets; the rest is cut (the article's `truncated`). */
export const ARTICLE_TEXT_MAX_CHARS = 500_000;
const MAX_LINE = 500;

/** Elements whose end starts a new line in the plain text. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'summary', 'table', 'td', 'th', 'tr', 'ul',
]);

/**
 * The readable article of `html` (Mozilla Readability), sanitised, with its plain text. A page
 * Readability finds no article in, or one nested too deeply for it (its cost grows with the
 * square of the depth), gives its whole body instead.
 */
export async function extractArticleText(html: string, url: string, depth: number): Promise<ExtractedArticle> {
  const pageUrl = new URL(url);
  const document = loadHtmlDocument(html);
  const pageTitle = oneLine(document.title ?? '');
  let article: ReturnType<Readability<string>['parse']> = null;
  if (depth <= MAX_ARTICLE_DEPTH) {
    try {
      article = new Readability(document).parse();
    } catch {
      article = null;
    }
  }
  // Readability rewrites the document it reads: the fallback reads the page afresh.
  const content = article?.content ?? loadHtmlDocument(html).body?.innerHTML ?? '';
  const { sanitized, text } = await sanitizeArticle(content, pageUrl);
  const cut = capText(text);
  return {
    title: oneLine(article?.title ?? '') || pageTitle,
    byline: oneLine(article?.byline ?? ''),
    siteName: oneLine(article?.siteName ?? '') || pageUrl.hostname,
    html: sanitized,
    text: cut.text,
    truncated: cut.truncated,
  };
}

type Purifier = ReturnType<typeof createDOMPurifyType>;
let sharedPurifier: Promise<Purifier> | null = null;

/**
 * One DOMPurify on one jsdom window per worker, made on first use: making a window costs about as
 * much as sanitising a whole article, and the text job reads pages by the thousand. Each sanitise
 * parses into a fresh document of its own, so nothing of one page stays for the next; the hooks,
 * which hold the page's address, are replaced per page.
 */
function purifier(): Promise<Purifier> {
  sharedPurifier ??= (async () => {
    const { jsdom, createDOMPurify } = await loadArchiveDom();
    const { window } = new jsdom.JSDOM('<!doctype html><body></body>', { virtualConsole: new jsdom.VirtualConsole() });
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurifyType>[0]);
    if (!purify.isSupported) throw new Error('DOMPurify cannot run on this DOM; refusing to store an unsanitised article');
    return purify;
  })().catch((error: unknown) => {
    sharedPurifier = null;
    throw error;
  });
  return sharedPurifier;
}

/** The article through DOMPurify with the server's allow-list, minus the page's styling, and its text. */
async function sanitizeArticle(content: string, pageUrl: URL): Promise<{ sanitized: string; text: string }> {
  const purify = await purifier();
  purify.removeAllHooks();
  try {
    addArchiveHooks(purify, pageUrl);
    // The reader shows the article from our origin: links and images must not depend on a base.
    purify.addHook('afterSanitizeAttributes', (node) => {
      const element = node as Element;
      if (element.nodeType !== 1) return;
      for (const name of ['href', 'src']) {
        const value = element.getAttribute(name);
        if (value === null || /^(data|mailto):/i.test(value.trim())) continue;
        try {
          element.setAttribute(name, new URL(value.trim(), pageUrl).href);
        } catch {
          element.removeAttribute(name);
        }
      }
    });
    const body = purify.sanitize(content, {
      ...ARCHIVE_PURIFY_CONFIG,
      WHOLE_DOCUMENT: false,
      RETURN_DOM: true,
      FORBID_TAGS: ['style', 'title', 'html', 'head', 'body'],
      FORBID_ATTR: ['style', 'class'],
    }) as unknown as HTMLElement;
    return { sanitized: body.innerHTML, text: plainText(body) };
  } finally {
    purify.removeAllHooks();
  }
}

/** The text of an element as read: blocks on their own lines, runs of spaces as one. */
function plainText(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) parts.push(child.nodeValue ?? '');
      else if (child.nodeType === 1) {
        const name = (child as Element).localName;
        const block = BLOCKS.has(name);
        if (block) parts.push('\n');
        else if (name === 'img') continue;
        walk(child);
        if (block) parts.push('\n');
        else if (name === 'td' || name === 'th') parts.push(' ');
      }
    }
  };
  walk(root);
  return parts
    .join('')
    .replace(/[ \t\f\v\r\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cuts text over the cap at the last space before it (or at the cap when there is none near). */
function capText(text: string): { text: string; truncated: boolean } {
  if (text.length <= ARTICLE_TEXT_MAX_CHARS) return { text, truncated: false };
  let end = ARTICLE_TEXT_MAX_CHARS;
  const space = text.lastIndexOf(' ', end);
  if (space > end - 200) end = space;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return { text: text.slice(0, end).trimEnd(), truncated: true };
}

function oneLine(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > MAX_LINE ? `${t.slice(0, MAX_LINE - 1).trimEnd()}…` : t;
}
