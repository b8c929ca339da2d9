// Turns validated request bodies into repository input: checks the schema cannot express
// (http(s) links, non-blank highlight text, system collection rules) and normalises values.
// Shared by the single-bookmark routes and the bulk routes.
import { ALL_COLLECTIONS, SCREENSHOT_COVER, TRASH, UNSORTED } from '../../../lib/api/constants.js';
import type { BookmarkCreate, BookmarkUpdate, HighlightChange } from '../../../lib/api/types.js';
import { domainOf, normalizeUrl, parseHttpUrl } from '../../../lib/api/url.js';
import { badRequest } from '../../errors.js';
import type { BookmarkChanges, NewBookmark, NewHighlight } from '../../repositories/index.js';

/** `items.3.` for bulk items, `` for a single bookmark. */
const at = (prefix: string, field: string) => `${prefix}${field}`;

/** Trims tags, drops empty ones and repeats (first spelling wins), keeping the order sent. */
export function cleanTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag)) continue;
    seen.add(tag);
    out.push(tag);
  }
  return out;
}

/** Parses the link or answers 400 naming the field. */
function readLink(link: string, prefix = ''): { link: string; linkKey: string; domain: string } {
  const url = parseHttpUrl(link);
  if (!url) throw badRequest(`${at(prefix, 'link')} must be an http(s) URL`);
  const trimmed = link.trim();
  return { link: trimmed, linkKey: normalizeUrl(trimmed)!, domain: domainOf(trimmed) };
}

/** ISO form of an accepted timestamp, so stored dates sort as text. */
function iso(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw badRequest(`${field} must be an ISO 8601 date-time`);
  return new Date(t).toISOString();
}

/** The collection a body names (`collection.$id` wins over flat `collectionId`), or undefined. */
function namedCollection(body: { collection?: { $id: number }; collectionId?: number }): number | undefined {
  return body.collection?.$id ?? body.collectionId;
}

/** Collection a new bookmark goes to: Unsorted by default; 0 (all) and Trash are refused. */
export function createTarget(body: { collection?: { $id: number }; collectionId?: number }, prefix = ''): number {
  const id = namedCollection(body) ?? UNSORTED;
  const field = at(prefix, body.collection ? 'collection.$id' : 'collectionId');
  if (id === ALL_COLLECTIONS) {
    throw badRequest(`${field} 0 (all bookmarks) cannot hold a bookmark: use a collection id, or -1 for Unsorted`);
  }
  if (id === TRASH) throw badRequest(`${field} -99: bookmarks cannot be created in Trash; use a collection id, or -1 for Unsorted`);
  return id;
}

/** Where an update moves a bookmark (Trash allowed: that trashes it), or undefined when not moving. */
export function moveTarget(body: { collection?: { $id: number }; collectionId?: number }, prefix = ''): number | undefined {
  const id = namedCollection(body);
  if (id === ALL_COLLECTIONS) {
    const field = at(prefix, body.collection ? 'collection.$id' : 'collectionId');
    throw badRequest(`${field} 0 (all bookmarks) is not a place a bookmark can be moved to: use a collection id, -1 or -99`);
  }
  return id;
}

function readNewHighlights(list: HighlightChange[] | undefined, prefix: string): NewHighlight[] {
  if (!list) return [];
  return list.map((h, i) => {
    if (h.text === undefined || h.text.trim() === '') {
      throw badRequest(`${at(prefix, `highlights.${i}.text`)} is required: send the highlighted text`);
    }
    return { text: h.text, note: h.note, color: h.color, position: h.position, prefix: h.prefix, suffix: h.suffix };
  });
}

/** A create body (POST /bookmark, one item of POST /bookmarks) without its owner. */
export function readCreate(
  body: BookmarkCreate,
  prefix = '',
): Omit<NewBookmark, 'ownerId' | 'creatorId'> {
  const link = readLink(body.link, prefix);
  const title = body.title?.trim() ? body.title : link.link;
  return {
    collectionId: createTarget(body, prefix),
    ...link,
    title,
    excerpt: body.excerpt ?? '',
    note: body.note ?? '',
    type: body.type ?? 'link',
    cover: body.cover ?? '',
    media: body.media ?? [],
    tags: cleanTags(body.tags ?? []),
    important: body.important ?? false,
    order: body.order,
    created: iso(body.created, at(prefix, 'created')),
    lastUpdate: iso(body.lastUpdate, at(prefix, 'lastUpdate')),
    highlights: readNewHighlights(body.highlights, prefix),
  };
}

/**
 * An update body (PUT /bookmark/{id}) as repository changes. `move` is filled in by the route
 * once it knows the target's owner. An empty title falls back to the link, as on create.
 */
export function readChanges(body: BookmarkUpdate, currentLink: string): Omit<BookmarkChanges, 'move'> {
  const changes: Omit<BookmarkChanges, 'move'> = {};
  if (body.link !== undefined) changes.link = readLink(body.link);
  if (body.title !== undefined) changes.title = body.title.trim() ? body.title : (changes.link?.link ?? currentLink);
  if (body.excerpt !== undefined) changes.excerpt = body.excerpt;
  if (body.note !== undefined) changes.note = body.note;
  if (body.type !== undefined) changes.type = body.type;
  if (body.cover !== undefined) changes.cover = body.cover;
  if (body.media !== undefined) changes.media = body.media;
  if (body.tags !== undefined) changes.tags = cleanTags(body.tags);
  if (body.important !== undefined) changes.important = body.important;
  if (body.created !== undefined) changes.created = iso(body.created, 'created');
  if (body.order !== undefined) changes.order = body.order;
  if (body.highlights !== undefined) changes.highlights = body.highlights;
  return changes;
}

/** Bulk `cover`: an http(s) URL or the literal `<screenshot>`. */
export function readBulkCover(cover: string): string {
  if (cover === SCREENSHOT_COVER) return cover;
  if (!parseHttpUrl(cover)) throw badRequest(`cover must be an http(s) URL or ${SCREENSHOT_COVER}`);
  return cover.trim();
}
