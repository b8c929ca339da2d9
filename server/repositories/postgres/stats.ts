import type pg from 'pg';
import { TRASH, UNSORTED } from '../../../lib/api/constants.js';
import type { StatsRepository } from '../types/index.js';
import { one } from './query.js';

/** Counts behind `GET /user/stats`, on PostgreSQL: one statement, one snapshot. */
export class PgStatsRepository implements StatsRepository {
  constructor(private readonly pool: pg.Pool) {}

  async systemCounts(userId: number): Promise<{ all: number; unsorted: number; trash: number; duplicates: number; broken: number }> {
    const row = await one<{ all: number; unsorted: number; trash: number; broken: number; duplicates: number }>(
      this.pool,
      `SELECT count(*) FILTER (WHERE collection_id <> ${TRASH})::int AS all,
              count(*) FILTER (WHERE collection_id = ${UNSORTED})::int AS unsorted,
              count(*) FILTER (WHERE collection_id = ${TRASH})::int AS trash,
              count(*) FILTER (WHERE broken = 1 AND collection_id <> ${TRASH})::int AS broken,
              (SELECT count(*)::int FROM (
                 SELECT 1 FROM bookmarks WHERE user_id = ? AND collection_id <> ${TRASH}
                  GROUP BY link_key HAVING count(*) > 1) AS d) AS duplicates
         FROM bookmarks WHERE user_id = ?`,
      [userId, userId],
    );
    return { all: row!.all, unsorted: row!.unsorted, trash: row!.trash, duplicates: row!.duplicates, broken: row!.broken };
  }
}
