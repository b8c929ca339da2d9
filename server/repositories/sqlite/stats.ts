import type { Db } from '../../db/open.js';
import type { StatsRepository } from '../types/index.js';

/** Counts behind `GET /user/stats`. */
export class SqliteStatsRepository implements StatsRepository {
  constructor(private db: Db) {}

  async systemCounts(userId: number): Promise<{ all: number; unsorted: number; trash: number; duplicates: number; broken: number }> {
    const row = this.db
      .prepare(
        `SELECT
           sum(collection_id <> -99) AS all_,
           sum(collection_id = -1) AS unsorted,
           sum(collection_id = -99) AS trash,
           sum(broken = 1 AND collection_id <> -99) AS broken
         FROM bookmarks WHERE user_id = ?`,
      )
      .get(userId) as { all_: number | null; unsorted: number | null; trash: number | null; broken: number | null };
    const dup = this.db
      .prepare(
        `SELECT count(*) AS n FROM (
           SELECT link_key FROM bookmarks WHERE user_id = ? AND collection_id <> -99
           GROUP BY link_key HAVING count(*) > 1)`,
      )
      .get(userId) as { n: number };
    return { all: row.all_ ?? 0, unsorted: row.unsorted ?? 0, trash: row.trash ?? 0, duplicates: dup.n, broken: row.broken ?? 0 };
  }
}
