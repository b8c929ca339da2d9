import type { Bookmark } from '../../../lib/api/types.js';
import { isWebAddress } from './page.js';

/** Newest bookmarks in a collection's feed. */
export const FEED_ENTRIES = 50;

// Characters XML 1.0 cannot carry at all (control characters, lone surrogates, U+FFFE/U+FFFF): dropped,
// so a stray one in a title cannot make the whole feed unreadable.
// eslint-disable-next-line no-control-regex -- these are exactly the characters refused
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function xml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

function isoDate(value: string): string {
  const t = Date.parse(value);
  return new Date(Number.isFinite(t) ? t : 0).toISOString();
}

interface FeedInput {
  origin: string;
  id: number;
  title: string;
  /** The collection's own last change, for an empty feed's `updated`. */
  lastUpdate: string;
  pagePath: string;
  feedPath: string;
}

/**
 * An Atom 1.0 feed of a public collection's newest bookmarks. The feed id is the collection's
 * slug-less address and each entry's id that plus the bookmark id, so both stay the same when the
 * collection is renamed. Notes go in as the entry's content, plain text; highlights never.
 */
export function atomFeed(c: FeedInput, bookmarks: Bookmark[]): string {
  const base = `${c.origin}/c/${c.id}`;
  const updated = [c.lastUpdate, ...bookmarks.map((b) => b.lastUpdate)].map(isoDate).sort().at(-1)!;
  const entries = bookmarks.map((b) => {
    const title = b.title.trim() || b.link;
    const summary = b.excerpt.trim() || b.domain || b.link;
    // Atom wants content where there is no alternate link: the saved address as text then.
    const content = b.note.trim() ? b.note : isWebAddress(b.link) ? '' : b.link;
    return `  <entry>
    <id>${xml(`${base}#bookmark-${b._id}`)}</id>
    <title type="text">${xml(title)}</title>
${isWebAddress(b.link) ? `    <link rel="alternate" href="${xml(b.link)}"/>\n` : ''}    <published>${isoDate(b.created)}</published>
    <updated>${isoDate(b.lastUpdate)}</updated>
    <summary type="text">${xml(summary)}</summary>
${content ? `    <content type="text">${xml(content)}</content>\n` : ''}${b.tags.map((t) => `    <category term="${xml(t)}"/>\n`).join('')}  </entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(base)}</id>
  <title type="text">${xml(c.title)}</title>
  <updated>${updated}</updated>
  <author><name>Tidemark</name><uri>${xml(c.origin)}</uri></author>
  <generator>Tidemark</generator>
  <link rel="self" type="application/atom+xml" href="${xml(c.origin + c.feedPath)}"/>
  <link rel="alternate" type="text/html" href="${xml(c.origin + c.pagePath)}"/>
${entries.join('\n')}
</feed>
`;
}
