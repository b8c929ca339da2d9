import type { FastifyRequest } from 'fastify';
import type { Bookmark } from '../../../lib/api/types.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../layout.js';

/** What a public page shows of its collection. */
export interface PublicCollection {
  id: number;
  title: string;
  cover: string | undefined;
  count: number;
  /** Path of this page, canonical slug included. */
  path: string;
  feedPath: string;
  /** Public collections directly inside this one (private ones are never listed). */
  children: { title: string; path: string }[];
}

export const PUBLIC_PER_PAGE = 50;

/** Only web addresses become links or images: a saved `javascript:` link stays plain text. */
export function isWebAddress(link: string): boolean {
  return /^https?:\/\//i.test(link);
}

/** A cover this page may show: an https image or one of this server's own (uploaded covers). */
function safeImage(src: string | undefined): string | undefined {
  return src && (/^https:\/\//i.test(src) || /^\/(?!\/)/.test(src)) ? src : undefined;
}

function bookmarkItem(b: Bookmark): SafeHtml {
  const title = b.title.trim() || b.link;
  return html`<li>
<h2>${isWebAddress(b.link) ? html`<a href="${b.link}" rel="noopener noreferrer nofollow ugc">${title}</a>` : title}</h2>
${b.domain ? html`<p class="domain">${b.domain}</p>` : ''}
${b.excerpt ? html`<p class="excerpt">${b.excerpt}</p>` : ''}
${b.note ? html`<p class="note"><span class="hint">Note: </span>${b.note}</p>` : ''}
${b.tags.length ? html`<ul class="tags" aria-label="Tags">${b.tags.map((t) => html`<li>#${t}</li>`)}</ul>` : ''}
</li>`;
}

/**
 * The read-only page of a public collection: title, cover, the public collections inside it, and
 * one page of its bookmarks (title linked to the saved page, domain, excerpt, note, tags). Never
 * highlights. Plain HTML: it works without scripts, and its CSP allows none.
 */
export function publicPage(request: FastifyRequest, c: PublicCollection, bookmarks: Bookmark[], page: number): SafeHtml {
  const pages = Math.max(1, Math.ceil(c.count / PUBLIC_PER_PAGE));
  const cover = safeImage(c.cover);
  const pageLink = (n: number) => (n === 0 ? c.path : `${c.path}?page=${n}`);
  const head = html`<link rel="alternate" type="application/atom+xml" title="${c.title} (newest bookmarks)" href="${c.feedPath}">
<link rel="canonical" href="${pageLink(page)}">
<meta name="robots" content="noarchive">
<meta property="og:title" content="${c.title}">
<meta property="og:type" content="website">
`;
  const body = html`<h1>${c.title}</h1>
${cover ? html`<img class="cover" src="${cover}" alt="">` : ''}
<p class="hint">A public collection: ${c.count === 1 ? '1 bookmark' : `${c.count} bookmarks`}. <a href="${c.feedPath}">Follow it in a feed reader</a> (Atom).</p>
${
  c.children.length
    ? html`<nav aria-label="Collections inside"><h2>Collections inside</h2><ul>${c.children.map((ch) => html`<li><a href="${ch.path}">${ch.title}</a></li>`)}</ul></nav>`
    : ''
}
${
  bookmarks.length
    ? html`<ul class="bookmarks">${bookmarks.map(bookmarkItem)}</ul>`
    : html`<p>${page === 0 ? 'Nothing is saved in this collection yet.' : html`There is no page ${page + 1}: this collection has ${pages === 1 ? '1 page' : `${pages} pages`}. <a href="${c.path}">Go to the first page</a>.`}</p>`
}
${
  pages > 1 && bookmarks.length
    ? html`<nav class="pager" aria-label="Pages">
${page > 0 ? html`<a href="${pageLink(page - 1)}" rel="prev">Newer</a>` : html`<span></span>`}
<span>Page ${page + 1} of ${pages}</span>
${page + 1 < pages ? html`<a href="${pageLink(page + 1)}" rel="next">Older</a>` : html`<span></span>`}
</nav>`
    : ''
}`;
  return layout(request, c.title, body, head);
}

/** The answer for a collection that is private, removed, or was never there: all look the same. */
export function notPublicPage(request: FastifyRequest): SafeHtml {
  return layout(
    request,
    'No public collection here',
    html`<h1>No public collection here</h1>
<p>Nothing public is at this address: the collection may have been made private or removed, or the link may be mistyped. Ask whoever shared it for a new link.</p>`,
  );
}
