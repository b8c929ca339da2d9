import type pg from 'pg';
import type { LinkEntry } from '../../../lib/api/types.js';
import type { LinksRepository } from '../types/index.js';

/**
 * Reads for the saved-link index (GET /links) on PostgreSQL. `link_changes` is written by triggers
 * on `bookmarks`, and its numbers follow commit order (migration 0002), so a cursor never passes a
 * change that is still to become visible.
 */
export class PgLinksRepository implements LinksRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The newest of the user's own committed change numbers (see the SQLite twin). */
  async cursor(userId: number): Promise<number> {
    const { rows } = await this.pool.query<{ seq: number }>(
      'SELECT coalesce(max(seq), 0)::bigint AS seq FROM link_changes WHERE user_id = $1 AND tx IS NULL',
      [userId],
    );
    return rows[0].seq;
  }

  async list(userId: number, afterId: number, limit: number): Promise<LinkEntry[]> {
    const rows = await this.pool.query<{ id: number; link_key: string; collection_id: number }>(
      `SELECT id, link_key, collection_id FROM bookmarks
        WHERE user_id = $1 AND removed = 0 AND id > $2 ORDER BY id LIMIT $3`,
      [userId, afterId, limit],
    );
    return rows.rows.map((r) => [r.id, r.link_key, r.collection_id]);
  }

  /**
   * Changes after `since`, oldest first. Rows and the overall newest number are read in one
   * statement (one snapshot), so no change can fall between them.
   */
  async changes(userId: number, since: number, limit: number): Promise<{ items: LinkEntry[]; removed: number[]; cursor: number; more: boolean }> {
    const { rows } = await this.pool.query<{
      seq: number;
      id: number;
      link_key: string | null;
      collection_id: number | null;
      present: boolean;
      newest: number;
    }>(
      `WITH page AS (
         SELECT c.seq, c.bookmark_id AS id, b.link_key, b.collection_id,
                (b.id IS NOT NULL AND b.user_id = c.user_id AND b.removed = 0) AS present
           FROM link_changes c LEFT JOIN bookmarks b ON b.id = c.bookmark_id
          WHERE c.user_id = $1 AND c.seq > $2 AND c.tx IS NULL ORDER BY c.seq LIMIT $3)
       SELECT page.*, (SELECT coalesce(max(seq), 0)::bigint FROM link_changes WHERE user_id = $1 AND tx IS NULL) AS newest FROM page
       UNION ALL
       SELECT NULL, NULL, NULL, NULL, NULL, (SELECT coalesce(max(seq), 0)::bigint FROM link_changes WHERE user_id = $1 AND tx IS NULL)
        WHERE NOT EXISTS (SELECT 1 FROM page)
       ORDER BY 1 NULLS LAST`,
      [userId, since, limit],
    );
    const items: LinkEntry[] = [];
    const removed: number[] = [];
    const changes = rows.filter((r) => r.seq !== null);
    for (const r of changes) {
      if (r.present) items.push([r.id, r.link_key!, r.collection_id!]);
      else removed.push(r.id);
    }
    const more = changes.length === limit;
    const cursor = more ? changes[changes.length - 1].seq : Math.max(since, rows[0]?.newest ?? 0);
    return { items, removed, cursor, more };
  }
}
