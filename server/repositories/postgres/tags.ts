import type pg from 'pg';
import type { Tag, TagSuggestion } from '../../../lib/api/types.js';
import { TRASH } from '../../../lib/api/constants.js';
import { isoNow, type Clock } from '../../clock.js';
import { byUses, mergeTagCounts, rankSuggestions, removeMap, renameMap, rewriteTagList, similarityWords, suggestionCandidates, type SuggestFor } from '../tag-rules.js';
import type { BookmarkScope, TagsRepository } from '../types/index.js';
import { scopeCondition } from './bookmark-queries.js';
import { all, one, pgJson, run, withoutNul } from './query.js';
import { inTransaction } from './transaction.js';

/** ASCII case folding only (SQLite's NOCASE, and foldTag): "JS" and "js" are one tag, "É" and "é" are not. */
const fold = (sql: string) => `translate(${sql}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/**
 * Tags on PostgreSQL: counts, rename, merge, remove, suggestions, with the same answers as on
 * SQLite. Rewrites lock the bookmarks they change (`FOR UPDATE`, in id order), so a tag rename and
 * an edit of the same bookmark on another instance cannot overwrite each other's tags.
 */
export class PgTagsRepository implements TagsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  /**
   * Tags on the scope's bookmarks with how many bookmarks carry each, sorted by name. Spellings
   * that differ only in case are one entry, named by the most used spelling.
   */
  async list(scope: BookmarkScope): Promise<Tag[]> {
    const s = scopeCondition(scope);
    const rows = await all<{ tag: string; n: number }>(
      this.pool,
      `SELECT bt.tag AS tag, count(*) AS n FROM bookmark_tags bt JOIN bookmarks b ON b.id = bt.bookmark_id
        WHERE ${s.sql} GROUP BY bt.tag`,
      s.params,
    );
    return mergeTagCounts(rows.sort(byUses));
  }

  /**
   * Renames `from` (one tag) or merges them (several) into `to` on the scope's bookmarks. Spellings
   * of `to` that differ only in case become `to` too. Returns the ids of the bookmarks changed.
   */
  async rename(scope: BookmarkScope, from: string[], to: string): Promise<number[]> {
    return this.rewrite(scope, from, renameMap(withoutNul(from), withoutNul(to)));
  }

  /** Removes the tags from the scope's bookmarks. Returns the ids of the bookmarks changed. */
  async remove(scope: BookmarkScope, tags: string[]): Promise<number[]> {
    return this.rewrite(scope, tags, removeMap(withoutNul(tags)));
  }

  /**
   * Rewrites the tags of the scope's bookmarks carrying any of `match` (in any ASCII case), in one
   * transaction: bookmarks.tags (order kept, duplicates dropped; the search column follows by
   * trigger), bookmark_tags and last_update.
   */
  private async rewrite(scope: BookmarkScope, match: string[], map: (tag: string) => string | null): Promise<number[]> {
    const s = scopeCondition(scope);
    return inTransaction(this.pool, async (c) => {
      const rows = await all<{ id: number; tags: string; user_id: number }>(
        c,
        `SELECT b.id, b.tags, b.user_id FROM bookmarks b
          WHERE ${s.sql} AND EXISTS (
            SELECT 1 FROM bookmark_tags bt
             WHERE bt.bookmark_id = b.id AND ${fold('bt.tag')} = ANY(SELECT ${fold('m')} FROM unnest(?::text[]) AS m))
          ORDER BY b.id FOR UPDATE OF b`,
        [...s.params, match],
      );
      const written: { id: number; tags: string }[] = [];
      const tagRows: { bookmark_id: number; user_id: number; tag: string }[] = [];
      for (const row of rows) {
        const after = rewriteTagList(JSON.parse(row.tags) as string[], map);
        if (after === null) continue;
        written.push({ id: row.id, tags: JSON.stringify(after) });
        for (const tag of after) tagRows.push({ bookmark_id: row.id, user_id: row.user_id, tag });
      }
      if (written.length === 0) return [];
      const ids = written.map((w) => w.id);
      await run(
        c,
        `UPDATE bookmarks b SET tags = x.tags, last_update = ?
           FROM json_to_recordset(?::json) AS x(id bigint, tags text) WHERE b.id = x.id`,
        [isoNow(this.clock), pgJson(written)],
      );
      await run(c, 'DELETE FROM bookmark_tags WHERE bookmark_id = ANY(?::bigint[])', [ids]);
      if (tagRows.length) {
        await run(
          c,
          `INSERT INTO bookmark_tags (bookmark_id, user_id, tag)
           SELECT bookmark_id, user_id, tag FROM json_populate_recordset(NULL::bookmark_tags, ?::json) ON CONFLICT DO NOTHING`,
          [pgJson(tagRows)],
        );
      }
      return ids;
    });
  }

  /**
   * Up to `limit` of the owner's existing tags that fit the bookmark, best first, none it already
   * has: the same evidence and scores as on SQLite, the similar bookmarks ranked by `ts_rank` on
   * the title's words instead of FTS5's bm25.
   */
  async suggest(bookmarkId: number, limit = 10, forUserId?: number): Promise<TagSuggestion[]> {
    const b = await one<SuggestFor>(this.pool, 'SELECT id, user_id, link, domain, title, excerpt, tags FROM bookmarks WHERE id = ?', [bookmarkId]);
    if (!b) return [];
    const uid = forUserId ?? b.user_id;
    const tags = suggestionCandidates(b, await all(this.pool, 'SELECT tag, count(*) AS n FROM bookmark_tags WHERE user_id = ? GROUP BY tag', [uid]));
    if (tags.size === 0) return [];

    const sameDomain = b.domain
      ? await all<{ tag: string; n: number }>(
          this.pool,
          `SELECT bt.tag AS tag, count(*) AS n FROM bookmarks d JOIN bookmark_tags bt ON bt.bookmark_id = d.id
            WHERE d.user_id = ? AND d.domain = ? AND d.id <> ? AND d.collection_id <> ${TRASH}
            GROUP BY bt.tag`,
          [uid, b.domain, b.id],
        )
      : [];

    const key = similarityWords(b.title);
    // The title's words as an OR query; words hold letters and digits only, so quoting them is safe.
    const query = key.map((w) => `'${w}'`).join(' | ');
    const similar = key.length
      ? await all<{ tags: string }>(
          this.pool,
          `SELECT b.tags FROM bookmarks b, to_tsquery('tidemark', ?) AS q
            WHERE b.search @@ q AND b.user_id = ? AND b.id <> ? AND b.collection_id <> ${TRASH}
            ORDER BY ts_rank(b.search, q) DESC, b.id LIMIT 20`,
          [query, uid, b.id],
        )
      : [];
    return rankSuggestions(b, tags, sameDomain, similar, limit);
  }
}
