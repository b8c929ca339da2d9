import type { Db } from '../../db/open.js';
import type { LinkEntry } from '../../../lib/api/types.js';
import type { LinksRepository } from '../types/index.js';

/**
 * Reads for the saved-link index (GET /links). The change log `link_changes` is written by
 * triggers on `bookmarks` (migration 0005), so this repository only reads.
 */
export class SqliteLinksRepository implements LinksRepository {
  private readonly cursorStmt;
  private readonly listStmt;
  private readonly changesStmt;

  constructor(db: Db) {
    this.cursorStmt = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM link_changes WHERE user_id = ?');
    this.listStmt = db
      .prepare(
        `SELECT id, link_key, collection_id FROM bookmarks
          WHERE user_id = ? AND removed = 0 AND id > ? ORDER BY id LIMIT ?`,
      )
      .raw();
    this.changesStmt = db.prepare(
      `SELECT c.seq AS seq, c.bookmark_id AS id, b.link_key AS link_key, b.collection_id AS collection_id,
              (b.id IS NOT NULL AND b.user_id = c.user_id AND b.removed = 0) AS present
         FROM link_changes c LEFT JOIN bookmarks b ON b.id = c.bookmark_id
        WHERE c.user_id = ? AND c.seq > ? ORDER BY c.seq LIMIT ?`,
    );
  }

  /**
   * The newest of the user's own change numbers: every later change gets a higher one, so it sees
   * them all, and a stranger's saves do not move it.
   */
  async cursor(userId: number): Promise<number> {
    return (this.cursorStmt.get(userId) as { seq: number }).seq;
  }

  /** Saved (not removed) bookmarks of `userId` with an id above `afterId`, by id. */
  async list(userId: number, afterId: number, limit: number): Promise<LinkEntry[]> {
    return this.listStmt.all(userId, afterId, limit) as LinkEntry[];
  }

  /**
   * Changes after `since`, oldest first: present ones as entries, the others as removed ids, and the
   * cursor to continue from. Read in one synchronous step, so no write can fall between the rows and
   * the cursor: when nothing is left for this user the cursor is their newest change.
   */
  async changes(userId: number, since: number, limit: number): Promise<{ items: LinkEntry[]; removed: number[]; cursor: number; more: boolean }> {
    const rows = this.changesStmt.all(userId, since, limit) as {
      seq: number;
      id: number;
      link_key: string | null;
      collection_id: number | null;
      present: number;
    }[];
    const items: LinkEntry[] = [];
    const removed: number[] = [];
    for (const r of rows) {
      if (r.present) items.push([r.id, r.link_key!, r.collection_id!]);
      else removed.push(r.id);
    }
    const more = rows.length === limit;
    const cursor = more ? rows[rows.length - 1].seq : Math.max(since, (this.cursorStmt.get(userId) as { seq: number }).seq);
    return { items, removed, cursor, more };
  }
}
