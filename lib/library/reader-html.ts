// The reader's article, made safe to put into the library's own page. The server sanitised it when
// it was extracted (DOMPurify); it is rebuilt here from a stricter allow-list, so that nothing the page
// sent can run, restyle the library or tell the page's server who reads it: no script, no event
// handler, no form, no style, no id or class; links open in a new tab without a referrer; images
// load lazily without a referrer; relative addresses resolve against the page's own address.
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

/** Deeper than this, an element's text is kept without its markup (the server caps nesting already). */
const MAX_DEPTH = 100;

const allowedTags = new Set(ALLOWED_TAGS);
const allowedAttrs = new Set(ALLOWED_ATTR);
const dropped = new Set(FORBID_CONTENTS);

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

/** Copies an allowed attribute of `from` onto `to`, with addresses made absolute and safe. */
function copyAttribute(to: Element, name: string, value: string, base: string): void {
  const tag = to.localName;
  if (name === 'href') {
    const url = tag === 'a' ? safeUrl(value, base, 'link') : null;
    if (url) to.setAttribute('href', url);
  } else if (name === 'src') {
    const url = tag === 'img' ? safeUrl(value, base, 'image') : null;
    if (url) to.setAttribute('src', url);
  } else if (name === 'srcset') {
    const kept = tag === 'img' ? safeSrcset(value, base) : '';
    if (kept) to.setAttribute('srcset', kept);
  } else {
    to.setAttribute(name, value);
  }
}

/** Builds the allowed part of `from`'s children into `into`, as new nodes of the library's document. */
function copyChildren(from: Node, into: Node, base: string, depth: number): void {
  for (let node = from.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === Node.TEXT_NODE) {
      into.appendChild(document.createTextNode((node as Text).data));
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const el = node as Element;
    const tag = el.localName;
    if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml' || dropped.has(tag)) continue;
    if (depth >= MAX_DEPTH) {
      into.appendChild(document.createTextNode(el.textContent ?? ''));
      continue;
    }
    if (!allowedTags.has(tag)) {
      // An element the reader does not show keeps its text and the allowed elements inside it.
      copyChildren(el, into, base, depth + 1);
      continue;
    }
    const copy = document.createElement(tag);
    for (const attr of Array.from(el.attributes)) {
      if (allowedAttrs.has(attr.name)) copyAttribute(copy, attr.name, attr.value, base);
    }
    if (tag === 'a' && copy.hasAttribute('href')) {
      copy.setAttribute('target', '_blank');
      copy.setAttribute('rel', 'noopener noreferrer');
    }
    if (tag === 'img') {
      copy.setAttribute('referrerpolicy', 'no-referrer');
      copy.setAttribute('loading', 'lazy');
      copy.setAttribute('decoding', 'async');
    }
    copyChildren(el, copy, base, depth + 1);
    into.appendChild(copy);
  }
}

/**
 * The article's HTML as a fragment ready to insert: only the allow-list's elements and attributes,
 * built anew in the library's document (nothing of the parsed markup is inserted as such), every
 * image without a referrer and every link to a new tab. `base` is the page's address. The markup is
 * parsed in an inert document: its scripts never run and its images never load there.
 */
export function readerFragment(html: string, base: string): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const fragment = document.createDocumentFragment();
  copyChildren(parsed.body, fragment, base, 0);
  return fragment;
}
