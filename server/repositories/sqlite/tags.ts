import type { Tag, TagSuggestion } from '../../../lib/api/types.js';
import { byUses, mergeTagCounts, rankSuggestions, removeMap, renameMap, rewriteTagList, similarityWords, suggestionCandidates, type SuggestFor } from '../tag-rules.js';
import { TRASH } from '../../../lib/api/constants.js';
import type { Db } from '../../db/open.js';
import { isoNow, type Clock } from '../../clock.js';
import type { FullTextIndex } from './fts.js';
import { scopeSql } from './bookmark-queries.js';
import { type BookmarkScope, type TagsRepository } from '../types/index.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

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
      rows.sort(byUses);
    } else {
      const s = scopeSql(scope);
      rows = this.db
        .prepare(
          `SELECT bt.tag AS tag, count(*) AS n FROM bookmark_tags bt JOIN bookmarks b ON b.id = bt.bookmark_id
            WHERE ${s.sql} GROUP BY bt.tag ORDER BY n DESC, bt.tag`,
        )
        .all(...s.params) as { tag: string; n: number }[];
    }
    return mergeTagCounts(rows);
  }

  /**
   * Renames `from` (one tag) or merges them (several) into `to` on the scope's bookmarks. Spellings
   * of `to` that differ only in case become `to` too. Returns the ids of the bookmarks changed.
   */
  async rename(scope: BookmarkScope, from: string[], to: string): Promise<number[]> {
    return this.rewrite(scope, from, renameMap(from, to));
  }

  /** Removes the tags from the scope's bookmarks. Returns the ids of the bookmarks changed. */
  async remove(scope: BookmarkScope, tags: string[]): Promise<number[]> {
    return this.rewrite(scope, tags, removeMap(tags));
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
        const after = rewriteTagList(JSON.parse(row.tags) as string[], map);
        if (after === null) continue;
        write.run(JSON.stringify(after), now, id);
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
      .get(bookmarkId) as SuggestFor | undefined;
    if (!b) return [];
    const uid = forUserId ?? b.user_id;
    const all = this.db
      .prepare('SELECT tag, count(*) AS n FROM bookmark_tags WHERE user_id = ? GROUP BY tag')
      .all(uid) as { tag: string; n: number }[];
    const tags = suggestionCandidates(b, all);
    if (tags.size === 0) return [];

    const sameDomain = b.domain
      ? (this.db
          .prepare(
            `SELECT bt.tag AS tag, count(*) AS n FROM bookmarks d JOIN bookmark_tags bt ON bt.bookmark_id = d.id
              WHERE d.user_id = ? AND d.domain = ? AND d.id <> ? AND d.collection_id <> ${TRASH}
              GROUP BY bt.tag`,
          )
          .all(uid, b.domain, b.id) as { tag: string; n: number }[])
      : [];

    const key = similarityWords(b.title);
    const similar =
      key.length > 0
        ? (this.db
            .prepare(
              `SELECT b.tags AS tags FROM bookmarks_fts f CROSS JOIN bookmarks b ON b.id = f.rowid
                WHERE bookmarks_fts MATCH ? AND +b.user_id = ? AND b.id <> ? AND +b.collection_id <> ${TRASH}
                ORDER BY f.rank LIMIT 20`,
            )
            .all(key.map((w) => `"${w}"`).join(' OR '), uid, b.id) as { tags: string }[])
        : [];
    return rankSuggestions(b, tags, sameDomain, similar, limit);
  }
}
