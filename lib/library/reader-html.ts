// The reader's article, made safe to put into the library's own page. The server sanitised it when
// it was extracted; it is sanitised again here, with a stricter allow-list, so that nothing the page
// sent can run, restyle the library or tell the page's server who reads it: no script, no event
// handler, no form, no style, no id or class; links open in a new tab without a referrer; images
// load lazily without a referrer; relative addresses resolve against the page's own address.
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';

const ALLOWED_TAGS = [
  'article', 'section', 'header', 'footer', 'aside', 'div', 'span', 'address', 'hgroup', 'main',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'wbr', 'pre', 'code', 'blockquote', 'q', 'cite',
  'em', 'strong', 'b', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark', 'abbr', 'dfn', 'kbd', 'samp', 'var',
  'time', 'del', 'ins', 'bdi', 'bdo', 'ruby', 'rt', 'rp', 'data',
  'a', 'img', 'picture', 'figure', 'figcaption',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'col', 'colgroup',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'details', 'summary',
];

const ALLOWED_ATTR = ['href', 'src', 'srcset', 'sizes', 'alt', 'title', 'width', 'height', 'lang', 'dir', 'datetime', 'cite', 'start', 'reversed', 'colspan', 'rowspan', 'headers', 'scope', 'span', 'abbr', 'open'];

/** Elements dropped with everything inside them (other removed elements keep their text). */
const FORBID_CONTENTS = ['script', 'style', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'noscript', 'noembed', 'noframes', 'select', 'textarea', 'button', 'form', 'title', 'head'];

const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  FORBID_CONTENTS,
  KEEP_CONTENT: true,
  RETURN_DOM_FRAGMENT: true,
};

/** `value` as an absolute http(s) address (or mailto: for links, data:image for images), else null. */
export function safeUrl(value: string, base: string, kind: 'link' | 'image'): string | null {
  const v = value.trim();
  if (kind === 'image' && /^data:image\/(png|gif|jpe?g|webp|avif)[;,]/i.test(v)) return v;
  let url: URL;
  try {
    url = new URL(v, base || undefined);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  if (kind === 'link' && url.protocol === 'mailto:') return url.href;
  return null;
}

function safeSrcset(srcset: string, base: string): string {
  return srcset
    .split(/,\s+/)
    .map((candidate) => {
      const [src, ...size] = candidate.trim().split(/\s+/);
      const url = src ? safeUrl(src, base, 'image') : null;
      return url && !url.startsWith('data:') ? [url, ...size].join(' ') : '';
    })
    .filter(Boolean)
    .join(', ');
}

let purifier: { purify: DOMPurify; base: string } | null = null;

/** One DOMPurify of its own (its hooks stay out of any other), made on first use. */
function purifierFor(base: string): DOMPurify {
  if (!purifier) {
    const purify = createDOMPurify(window);
    const state = { purify, base };
    purify.addHook('afterSanitizeAttributes', (node) => {
      const el = node as Element;
      if (el.nodeType !== 1) return;
      const name = el.localName;
      const href = el.getAttribute('href');
      if (href !== null) {
        const url = name === 'a' ? safeUrl(href, state.base, 'link') : null;
        if (url) el.setAttribute('href', url);
        else el.removeAttribute('href');
      }
      if (name === 'a' && el.hasAttribute('href')) {
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
      }
      const src = el.getAttribute('src');
      if (src !== null) {
        const url = name === 'img' ? safeUrl(src, state.base, 'image') : null;
        if (url) el.setAttribute('src', url);
        else el.removeAttribute('src');
      }
      const srcset = el.getAttribute('srcset');
      if (srcset !== null) {
        const kept = name === 'img' || name === 'source' ? safeSrcset(srcset, state.base) : '';
        if (kept) el.setAttribute('srcset', kept);
        else el.removeAttribute('srcset');
      }
      if (name === 'img') {
        el.setAttribute('referrerpolicy', 'no-referrer');
        el.setAttribute('loading', 'lazy');
        el.setAttribute('decoding', 'async');
      }
    });
    purifier = state;
  }
  purifier.base = base;
  return purifier.purify;
}

/**
 * The article's HTML as a fragment ready to insert: sanitised with the reader's allow-list, every
 * image without a referrer and every link to a new tab. `base` is the page's address.
 */
export function readerFragment(html: string, base: string): DocumentFragment {
  return purifierFor(base).sanitize(html, CONFIG);
}
