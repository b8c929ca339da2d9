// The rules of tags that do not depend on the database: case folding, counting, rewriting a
// bookmark's list, and how suggestions are scored from the evidence each backend reads.
import type { Tag, TagSuggestion } from '../../lib/api/types.js';

/**
 * Tags are told apart without regard to ASCII letter case, as SQLite's NOCASE does (and as the
 * search `#tag` does): "JS" and "js" are one tag. Letters outside ASCII compare as written.
 */
const foldTag = (tag: string) => tag.replace(/[A-Z]+/g, (s) => s.toLowerCase());

const byName = new Intl.Collator('en', { sensitivity: 'base' });

/** Byte-wise order, the tie breaker after the collator. */
const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Orders counted tags most used first, then by exact spelling (the spelling that names a merged entry comes first). */
export const byUses = (a: { tag: string; n: number }, b: { tag: string; n: number }) => b.n - a.n || binary(a.tag, b.tag);

/**
 * Counted spellings (most used first) as the tag list: spellings that differ only in case are one
 * entry, named by the first (most used) spelling; sorted by name.
 */
export function mergeTagCounts(rows: { tag: string; n: number }[]): Tag[] {
  const merged = new Map<string, Tag>();
  for (const r of rows) {
    const key = foldTag(r.tag);
    const have = merged.get(key);
    if (have) have.count += r.n;
    else merged.set(key, { _id: r.tag, count: r.n });
  }
  return [...merged.values()].sort((a, b) => byName.compare(a._id, b._id) || binary(a._id, b._id));
}

/**
 * A bookmark's tag list after mapping each tag (null drops it): order kept, later spellings of a
 * tag already in the list dropped. Null when nothing changes.
 */
export function rewriteTagList(before: string[], map: (tag: string) => string | null): string[] | null {
  const seen = new Set<string>();
  const after: string[] = [];
  for (const tag of before) {
    const next = map(tag);
    if (next === null || seen.has(foldTag(next))) continue;
    seen.add(foldTag(next));
    after.push(next);
  }
  return JSON.stringify(after) === JSON.stringify(before) ? null : after;
}

/** Maps `from` and every case variant of `to` to `to` (rename, or merge when `from` has several). */
export function renameMap(from: string[], to: string): (tag: string) => string | null {
  const keys = new Set([...from, to].map(foldTag));
  return (tag) => (keys.has(foldTag(tag)) ? to : tag);
}

/** Drops `tags` in any case. */
export function removeMap(tags: string[]): (tag: string) => string | null {
  const keys = new Set(tags.map(foldTag));
  return (tag) => (keys.has(foldTag(tag)) ? null : tag);
}

/** Words of a text for tag suggestions: lower case letters/digits runs of 2+ characters. */
function words(text: string): string[] {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]{2,}/gu) ?? [];
}
const singular = (w: string) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/** Common words that say nothing about a page's subject. */
const STOP = new Set(
  ('the and for with that this from your you are was were have has had not but all any can her his its our out ' +
    'who why how what when where which will would about into than then them they there these those their www ' +
    'com org net html htm php index http https amp de la le les des en el los las und der die das')
    .split(' '),
);

/** The bookmark a suggestion is for, as stored. */
export interface SuggestFor {
  id: number;
  user_id: number;
  link: string;
  domain: string;
  title: string;
  excerpt: string;
  tags: string;
}

interface Candidate {
  name: string;
  uses: number;
  score: number;
}

/** The user's tags (counted per spelling) the bookmark does not carry yet, by folded name. */
export function suggestionCandidates(b: SuggestFor, all: { tag: string; n: number }[]): Map<string, Candidate> {
  const own = new Set((JSON.parse(b.tags) as string[]).map(foldTag));
  const tags = new Map<string, Candidate>();
  for (const t of all) {
    const key = foldTag(t.tag);
    if (own.has(key)) continue;
    const have = tags.get(key);
    if (have) have.uses += t.n;
    else tags.set(key, { name: t.tag, uses: t.n, score: 0 });
  }
  return tags;
}

/** Up to 8 distinct words of the title that say something, to find the most similar bookmarks by. */
export function similarityWords(title: string): string[] {
  return [...new Set(words(title))].filter((w) => !STOP.has(w) && !/^\d+$/.test(w)).slice(0, 8);
}

/**
 * Scores the candidates: tags on the owner's other bookmarks of the same domain (`sameDomain`,
 * strongest), a tag whose words appear in the bookmark's title, excerpt or link path, and tags of
 * the most similar bookmarks (`similar`, most similar first). Best first, up to `limit`.
 */
export function rankSuggestions(
  b: SuggestFor,
  tags: Map<string, Candidate>,
  sameDomain: { tag: string; n: number }[],
  similar: { tags: string }[],
  limit: number,
): TagSuggestion[] {
  const add = (tag: string, points: number) => {
    const t = tags.get(foldTag(tag));
    if (t) t.score += points;
  };
  for (const r of sameDomain) add(r.tag, 6 + Math.min(r.n, 10));

  let path = '';
  try {
    const u = new URL(b.link);
    path = `${u.pathname} ${u.search}`;
  } catch {
    /* not a URL: no path words */
  }
  const titleWords = new Set(words(b.title).map(singular));
  const bodyWords = new Set([...titleWords, ...words(b.excerpt).map(singular), ...words(path).map(singular)]);
  for (const t of tags.values()) {
    const tw = words(t.name).map(singular);
    if (tw.length === 0) continue;
    if (tw.every((w) => titleWords.has(w))) t.score += 5;
    else if (tw.every((w) => bodyWords.has(w))) t.score += 3;
  }

  similar.forEach((row, i) => {
    for (const tag of JSON.parse(row.tags) as string[]) add(tag, i < 5 ? 2 : 1);
  });

  return [...tags.values()]
    .filter((t) => t.score > 0)
    .sort((a, b2) => b2.score - a.score || b2.uses - a.uses || byName.compare(a.name, b2.name))
    .slice(0, limit)
    .map((t) => ({ _id: t.name }));
}
