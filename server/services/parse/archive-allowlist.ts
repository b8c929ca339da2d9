import type { Config, DOMPurify } from 'dompurify';
import { blockedAddressReason } from './address-policy.js';
import { cleanCss } from './archive-css.js';

// What a permanent copy may contain, as an allowlist for DOMPurify: document structure, text
// formatting, links, images, tables, lists and figures, with CSS that fetches nothing. No scripts,
// frames, plugins, forms, SVG, MathML, <meta>, <link> or <base> (our own <base> and CSP are added
// afterwards). URLs are checked here too: links only to http(s)/mailto, images only from http(s)
// or data:image, and no resource on a loopback or private address other than the page's own host.

const ALLOWED_TAGS = [
  'html', 'head', 'body', 'title', 'style',
  'main', 'article', 'section', 'header', 'footer', 'nav', 'aside', 'div', 'span', 'address', 'center', 'hgroup',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'wbr', 'pre', 'code', 'blockquote', 'q', 'cite',
  'em', 'strong', 'b', 'i', 'u', 's', 'strike', 'small', 'big', 'sub', 'sup', 'mark', 'abbr', 'dfn', 'kbd', 'samp',
  'var', 'time', 'del', 'ins', 'bdi', 'bdo', 'ruby', 'rt', 'rp', 'tt', 'font', 'data',
  'a', 'img', 'picture', 'figure', 'figcaption',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'col', 'colgroup',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'details', 'summary',
];

const ALLOWED_ATTR = [
  'href', 'src', 'srcset', 'sizes', 'alt', 'title', 'width', 'height', 'loading', 'decoding',
  'id', 'class', 'lang', 'dir', 'role', 'style', 'datetime', 'value', 'start', 'reversed', 'type', 'open',
  'colspan', 'rowspan', 'headers', 'scope', 'span', 'abbr', 'align', 'valign', 'color', 'face', 'size',
  'media', // a kept stylesheet's media query (archive-stylesheets.ts)
];

/** Elements whose content is dropped with them (DOMPurify keeps the text of other removed elements). */
const FORBID_CONTENTS = ['script', 'style', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'noembed', 'noframes', 'select'];

export const ARCHIVE_PURIFY_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: true,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  FORBID_CONTENTS,
  WHOLE_DOCUMENT: true,
  KEEP_CONTENT: true,
};

/**
 * Adds the URL and CSS rules to `purify` for a copy whose relative URLs resolve against `base`.
 * Hooks run on every element DOMPurify keeps, after its own attribute checks.
 */
export function addArchiveHooks(purify: DOMPurify, base: URL): void {
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName !== 'style') return;
    // CSS that cannot be cleaned is emptied (an empty <style> does nothing)
    node.textContent = cleanCss(node.textContent ?? '') ?? '';
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.nodeType !== 1) return;
    const style = element.getAttribute('style');
    if (style !== null) {
      const css = cleanCss(style);
      if (css === null || !css.trim()) element.removeAttribute('style');
      else element.setAttribute('style', css);
    }
    const name = element.localName;
    if (name === 'a') {
      const href = element.getAttribute('href');
      if (href !== null && !isLinkAllowed(href, base)) element.removeAttribute('href');
      if (element.hasAttribute('href')) element.setAttribute('rel', 'noopener noreferrer');
    } else if (element.hasAttribute('href')) {
      element.removeAttribute('href');
    }
    const src = element.getAttribute('src');
    if (src !== null && !(name === 'img' && isImageAllowed(src, base))) element.removeAttribute('src');
    const srcset = element.getAttribute('srcset');
    if (srcset !== null) {
      const kept = name === 'img' ? allowedSrcset(srcset, base) : '';
      if (kept) element.setAttribute('srcset', kept);
      else element.removeAttribute('srcset');
    }
  });
}

function resolve(raw: string, base: URL): URL | null {
  try {
    return new URL(raw.trim(), base);
  } catch {
    return null;
  }
}

/** http(s) and mailto only; relative links and #fragments resolve against the page. */
function isLinkAllowed(raw: string, base: URL): boolean {
  const url = resolve(raw, base);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:');
}

/** data:image/..., or an http(s) address that is not on the reader's own machine or network. */
function isImageAllowed(raw: string, base: URL): boolean {
  const value = raw.trim();
  if (/^data:/i.test(value)) return /^data:image\/[a-z0-9.+-]+[;,]/i.test(value);
  const url = resolve(value, base);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && !isForeignLocal(url, base);
}

/** The srcset candidates that are allowed images, or '' when none is. */
function allowedSrcset(srcset: string, base: URL): string {
  const kept: string[] = [];
  for (const candidate of srcset.split(/,(?=\s|[^,]*$)|,\s*/)) {
    const [address, ...descriptor] = candidate.trim().split(/\s+/);
    if (!address || /^data:/i.test(address)) continue; // data: URLs with commas cannot be split safely
    if (isImageAllowed(address, base)) kept.push([address, ...descriptor].join(' '));
  }
  return kept.join(', ');
}

/**
 * True for an address on a loopback, private or otherwise local host (localhost, 127.0.0.1, [::1],
 * 10/8, ...) other than the page's own host: a public page must not make the reader's browser
 * call services on their own machine or network.
 */
function isForeignLocal(url: URL, base: URL): boolean {
  if (url.host === base.host) return false;
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  const reason = blockedAddressReason(host);
  return reason !== null && reason !== 'not an IP address';
}
