import type { Tag, TagSuggestion } from '../../../lib/api/types.js';
import { TRASH } from '../../../lib/api/constants.js';
import type { Db } from '../../db/open.js';
import { isoNow, type Clock } from '../../clock.js';
import type { FullTextIndex } from './fts.js';
import { scopeSql } from './bookmark-queries.js';
import { type BookmarkScope, type TagsRepository } from '../types.js';

/**
 * Tags are told apart without regard to ASCII letter case, as SQLite's NOCASE does (and as the
 * search `#tag` does): "JS" and "js" are one tag. Letters outside ASCII compare as written.
 */
export const foldTag = (tag: string) => tag.replace(/[A-Z]+/g, (s) => s.toLowerCase());

const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');
const byName = new Intl.Collator('en', { sensitivity: 'base' });

/** Words of a text for tag suggestions: lower case letters/digits runs of 2+ characters. */
function words(text: string): string[] {
  return (text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]{2,}/gu) ?? []);
}
const singular = (w: string) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/** Common words that say nothing about a page's subject. */
const STOP = new Set(
  ('the and for with that this from your you are was were have has had not but all any can her his its our out ' +
    'who why how what when where which will would about into than then them they there these those their www ' +
    'com org net html htm php index http https amp de la le les des en el los las und der die das')
    .split(' '),
);

/** Tags: counts, rename, merge, remove, suggestions. */
export class SqliteTagsRepository implements TagsRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}

  /**
   * Tags on the scope's bookmarks with how many bookmarks carry each, sorted by name. Spellings
   * that differ only in case are one entry, named by the most used spelling.
   */
  async list(scope: BookmarkScope): Promise<Tag[]> {
    let rows: { tag: string; n: number }[];
    if (scope.kind === 'user' && !scope.sharedCollectionIds?.length) {
      // All of a user's tags: counted on the (user_id, tag) index alone, then Trash (usually
      // small) subtracted, instead of looking up every tagged bookmark.
      rows = this.db
        .prepare('SELECT tag, count(*) AS n FROM bookmark_tags WHERE user_id = ? GROUP BY tag')
        .all(scope.userId) as { tag: string; n: number }[];
      if (!scope.includeTrash) {
        const trash = new Map(
          (
            this.db
              .prepare(
                `SELECT bt.tag AS tag, count(*) AS n FROM bookmarks b JOIN bookmark_tags bt ON bt.bookmark_id = b.id
                  WHERE b.user_id = ? AND b.collection_id = ${TRASH} GROUP BY bt.tag`,
              )
              .all(scope.userId) as { tag: string; n: number }[]
          ).map((r) => [r.tag, r.n]),
        );
        rows = rows.map((r) => ({ tag: r.tag, n: r.n - (trash.get(r.tag) ?? 0) })).filter((r) => r.n > 0);
      }
      rows.sort((a, b) => b.n - a.n || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    } else {
      const s = scopeSql(scope);
      rows = this.db
        .prepare(
          `SELECT bt.tag AS tag, count(*) AS n FROM bookmark_tags bt JOIN bookmarks b ON b.id = bt.bookmark_id
            WHERE ${s.sql} GROUP BY bt.tag ORDER BY n DESC, bt.tag`,
        )
        .all(...s.params) as { tag: string; n: number }[];
    }
    const merged = new Map<string, Tag>();
    for (const r of rows) {
      const key = foldTag(r.tag);
      const have = merged.get(key);
      if (have) have.count += r.n;
      else merged.set(key, { _id: r.tag, count: r.n });
    }
    return [...merged.values()].sort((a, b) => byName.compare(a._id, b._id) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  }

  /**
   * Renames `from` (one tag) or merges them (several) into `to` on the scope's bookmarks. Spellings
   * of `to` that differ only in case become `to` too. Returns the ids of the bookmarks changed.
   */
  async rename(scope: BookmarkScope, from: string[], to: string): Promise<number[]> {
    const keys = new Set([...from, to].map(foldTag));
    return this.rewrite(scope, from, (tag) => (keys.has(foldTag(tag)) ? to : tag));
  }

  /** Removes the tags from the scope's bookmarks. Returns the ids of the bookmarks changed. */
  async remove(scope: BookmarkScope, tags: string[]): Promise<number[]> {
    const keys = new Set(tags.map(foldTag));
    return this.rewrite(scope, tags, (tag) => (keys.has(foldTag(tag)) ? null : tag));
  }

  /**
   * Rewrites the tags of the scope's bookmarks carrying any of `match`, in one transaction:
   * bookmarks.tags (order kept, duplicates dropped), bookmark_tags, last_update and the index.
   */
  private rewrite(scope: BookmarkScope, match: string[], map: (tag: string) => string | null): number[] {
    const s = scopeSql(scope);
    const find = this.db.prepare(
      `SELECT DISTINCT b.id AS id FROM bookmarks b JOIN bookmark_tags bt ON bt.bookmark_id = b.id
        WHERE ${s.sql} AND bt.tag COLLATE NOCASE IN (${marks(match.length)})`,
    );
    const read = this.db.prepare('SELECT tags, user_id FROM bookmarks WHERE id = ?');
    const write = this.db.prepare('UPDATE bookmarks SET tags = ?, last_update = ? WHERE id = ?');
    const clear = this.db.prepare('DELETE FROM bookmark_tags WHERE bookmark_id = ?');
    const insert = this.db.prepare('INSERT OR IGNORE INTO bookmark_tags (bookmark_id, user_id, tag) VALUES (?, ?, ?)');
    const tx = this.db.transaction(() => {
      const now = isoNow(this.clock);
      const ids = (find.all(...s.params, ...match) as { id: number }[]).map((r) => r.id);
      const changed: number[] = [];
      for (const id of ids) {
        const row = read.get(id) as { tags: string; user_id: number };
        const before = JSON.parse(row.tags) as string[];
        const seen = new Set<string>();
        const after: string[] = [];
        for (const tag of before) {
          const next = map(tag);
          if (next === null || seen.has(foldTag(next))) continue;
          seen.add(foldTag(next));
          after.push(next);
        }
        const json = JSON.stringify(after);
        if (json === row.tags) continue;
        write.run(json, now, id);
        clear.run(id);
        for (const tag of after) insert.run(id, row.user_id, tag);
        changed.push(id);
      }
      this.fts.reindex(changed);
      return changed;
    });
    return tx();
  }

  /**
   * Up to `limit` of the owner's existing tags that fit the bookmark, best first, none it already
   * has. Evidence: tags on the owner's other bookmarks of the same domain (strongest), a tag whose
   * words appear in the bookmark's title, excerpt or link path, and tags of the owner's bookmarks
   * most similar in text (full-text ranking on the title's words). No outside service is asked.
   *
   * `forUserId` is whose tags and bookmarks the evidence comes from (default: the bookmark's owner).
   * A collaborator asking about a bookmark in a shared collection gets suggestions from their own
   * library, so the owner's tags elsewhere are never shown to them.
   */
  async suggest(bookmarkId: number, limit = 10, forUserId?: number): Promise<TagSuggestion[]> {
    const b = this.db
      .prepare('SELECT id, user_id, link, domain, title, excerpt, tags FROM bookmarks WHERE id = ?')
      .get(bookmarkId) as { id: number; user_id: number; link: string; domain: string; title: string; excerpt: string; tags: string } | undefined;
    if (!b) return [];
    const own = new Set((JSON.parse(b.tags) as string[]).map(foldTag));
    const uid = forUserId ?? b.user_id;

    const all = this.db
      .prepare('SELECT tag, count(*) AS n FROM bookmark_tags WHERE user_id = ? GROUP BY tag')
      .all(uid) as { tag: string; n: number }[];
    const tags = new Map<string, { name: string; uses: number; score: number }>();
    for (const t of all) {
      const key = foldTag(t.tag);
      if (own.has(key)) continue;
      const have = tags.get(key);
      if (have) have.uses += t.n;
      else tags.set(key, { name: t.tag, uses: t.n, score: 0 });
    }
    if (tags.size === 0) return [];
    const add = (tag: string, points: number) => {
      const t = tags.get(foldTag(tag));
      if (t) t.score += points;
    };

    // 1. Same domain.
    if (b.domain) {
      const rows = this.db
        .prepare(
          `SELECT bt.tag AS tag, count(*) AS n FROM bookmarks d JOIN bookmark_tags bt ON bt.bookmark_id = d.id
            WHERE d.user_id = ? AND d.domain = ? AND d.id <> ? AND d.collection_id <> ${TRASH}
            GROUP BY bt.tag`,
        )
        .all(uid, b.domain, b.id) as { tag: string; n: number }[];
      for (const r of rows) add(r.tag, 6 + Math.min(r.n, 10));
    }

    // 2. The tag's words are the bookmark's words.
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

    // 3. Tags of the most similar bookmarks.
    const key = [...new Set(words(b.title))].filter((w) => !STOP.has(w) && !/^\d+$/.test(w)).slice(0, 8);
    if (key.length > 0) {
      const match = key.map((w) => `"${w}"`).join(' OR ');
      const similar = this.db
        .prepare(
          `SELECT b.tags AS tags FROM bookmarks_fts f CROSS JOIN bookmarks b ON b.id = f.rowid
            WHERE bookmarks_fts MATCH ? AND +b.user_id = ? AND b.id <> ? AND +b.collection_id <> ${TRASH}
            ORDER BY f.rank LIMIT 20`,
        )
        .all(match, uid, b.id) as { tags: string }[];
      similar.forEach((row, i) => {
        for (const tag of JSON.parse(row.tags) as string[]) add(tag, i < 5 ? 2 : 1);
      });
    }

    return [...tags.values()]
      .filter((t) => t.score > 0)
      .sort((a, b2) => b2.score - a.score || b2.uses - a.uses || byName.compare(a.name, b2.name))
      .slice(0, limit)
      .map((t) => ({ _id: t.name }));
  }
}
