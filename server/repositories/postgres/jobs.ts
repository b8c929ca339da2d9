import type pg from 'pg';
import type { Media } from '../../../lib/api/types.js';
import { isoNow, type Clock } from '../../clock.js';
import type { BookmarkRow, JobRow, JobsRepository, PageFill } from '../types/index.js';
import { BOOKMARK_COLUMNS } from './bookmark-rows.js';
import { CACHE_NEUTRAL } from '../../db/postgres/change-feed.js';
import { inTransaction } from './transaction.js';

/**
 * Queues the background parse of these bookmarks (pleaseParse) inside the caller's transaction. A
 * bookmark already waiting for a job (e.g. the permanent copy queued when a pro user's bookmark was
 * inserted) gets that job widened instead of a second one.
 */
export async function enqueuePageParse(client: pg.PoolClient | pg.Pool, bookmarkIds: number[], on: 'create' | 'update', now: number): Promise<void> {
  if (bookmarkIds.length === 0) return;
  await client.query(
    `INSERT INTO jobs (kind, payload, dedupe_key, state, next_run_at, created_at)
     SELECT 'page', json_build_object('bookmarkId', id, 'parse', true, 'on', $2::text)::text, 'page:' || id, 'queued', $3, $3
       FROM unnest($1::bigint[]) AS id
     ON CONFLICT (dedupe_key) WHERE state = 'queued'
     DO UPDATE SET payload = (jobs.payload::jsonb || jsonb_build_object('parse', true, 'on', $2::text))::text,
                   next_run_at = least(jobs.next_run_at, excluded.next_run_at), attempts = 0, last_error = NULL`,
    [bookmarkIds, on, now],
  );
}

/**
 * The durable job table on PostgreSQL, shared by every instance: a due job is claimed with
 * `FOR UPDATE SKIP LOCKED` (two instances never take the same one, and neither waits for the
 * other) and held by a lease; a job whose instance died is claimed again once its lease ran out.
 * Statements that touch only the job table are marked CACHE_NEUTRAL: no read cache holds jobs, and
 * the runner's claim every second would otherwise empty every cache of the instance each time.
 */
export class PgJobsRepository implements JobsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async claim(leaseMs: number): Promise<JobRow | undefined> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<JobRow>(
      `${CACHE_NEUTRAL} UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_until = $2
        WHERE id = (SELECT id FROM jobs
                     WHERE (state = 'queued' AND next_run_at <= $1) OR (state = 'running' AND locked_until <= $1)
                     ORDER BY next_run_at, id LIMIT 1
                     FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [now, now + leaseMs],
    );
    return rows[0];
  }

  async list(state?: JobRow['state']): Promise<JobRow[]> {
    const { rows } = state
      ? await this.pool.query<JobRow>('SELECT * FROM jobs WHERE state = $1 ORDER BY id', [state])
      : await this.pool.query<JobRow>('SELECT * FROM jobs ORDER BY id');
    return rows;
  }

  async complete(id: number, note: string | null = null): Promise<void> {
    await this.pool.query(`${CACHE_NEUTRAL} UPDATE jobs SET state = 'done', locked_until = NULL, finished_at = $1, outcome = $2 WHERE id = $3`, [
      this.clock.now(),
      note,
      id,
    ]);
  }

  async fail(id: number, error: string, retryInMs: number | null): Promise<'retry' | 'failed'> {
    const now = this.clock.now();
    return inTransaction(this.pool, async (c) => {
      const row = (await c.query<JobRow>(`${CACHE_NEUTRAL} SELECT * FROM jobs WHERE id = $1 FOR UPDATE`, [id])).rows[0];
      if (!row) return 'failed' as const;
      const twin = row.dedupe_key
        ? (await c.query("SELECT 1 FROM jobs WHERE dedupe_key = $1 AND state = 'queued' AND id <> $2", [row.dedupe_key, id])).rowCount
        : 0;
      if (retryInMs === null || twin) {
        await c.query(`${CACHE_NEUTRAL} UPDATE jobs SET state = 'failed', locked_until = NULL, finished_at = $1, last_error = $2 WHERE id = $3`, [now, error, id]);
        return 'failed' as const;
      }
      await c.query(`${CACHE_NEUTRAL} UPDATE jobs SET state = 'queued', locked_until = NULL, next_run_at = $1, last_error = $2 WHERE id = $3`, [
        now + retryInMs,
        error,
        id,
      ]);
      return 'retry' as const;
    });
  }

  async release(id: number): Promise<void> {
    await inTransaction(this.pool, async (c) => {
      const row = (await c.query<JobRow>(`${CACHE_NEUTRAL} SELECT * FROM jobs WHERE id = $1 FOR UPDATE`, [id])).rows[0];
      if (!row || row.state !== 'running') return;
      const twin = row.dedupe_key
        ? (await c.query("SELECT 1 FROM jobs WHERE dedupe_key = $1 AND state = 'queued' AND id <> $2", [row.dedupe_key, id])).rowCount
        : 0;
      if (twin) {
        await c.query(`${CACHE_NEUTRAL} UPDATE jobs SET state = 'done', locked_until = NULL, finished_at = $1, outcome = $2 WHERE id = $3`, [
          this.clock.now(),
          'superseded by a newer job',
          id,
        ]);
      } else {
        await c.query(`${CACHE_NEUTRAL} UPDATE jobs SET state = 'queued', locked_until = NULL, attempts = greatest(0, attempts - 1) WHERE id = $1 AND state = 'running'`, [id]);
      }
    });
  }

  async prune(ageMs: number): Promise<number> {
    const r = await this.pool.query(`${CACHE_NEUTRAL} DELETE FROM jobs WHERE state IN ('done', 'failed') AND finished_at < $1`, [this.clock.now() - ageMs]);
    return r.rowCount ?? 0;
  }

  async bookmark(id: number): Promise<BookmarkRow | undefined> {
    return (await this.pool.query<BookmarkRow>(`SELECT ${BOOKMARK_COLUMNS} FROM bookmarks WHERE id = $1`, [id])).rows[0];
  }

  async setBroken(bookmarkId: number, broken: boolean): Promise<void> {
    // Only a real change writes the row: an unchanged one would empty every instance's bookmark caches for nothing.
    await this.pool.query('UPDATE bookmarks SET broken = $1 WHERE id = $2 AND broken IS DISTINCT FROM $1', [broken ? 1 : 0, bookmarkId]);
  }

  async fillFromPage(bookmarkId: number, fill: PageFill): Promise<string[]> {
    const now = isoNow(this.clock);
    return inTransaction(this.pool, async (c) => {
      const row = (await c.query<BookmarkRow>(`SELECT ${BOOKMARK_COLUMNS} FROM bookmarks WHERE id = $1 FOR UPDATE`, [bookmarkId])).rows[0];
      if (!row) return [];
      const set: string[] = [];
      const values: unknown[] = [];
      const written: string[] = [];
      const put = (field: string, column: string, value: unknown) => {
        values.push(value);
        set.push(`${column} = $${values.length}`);
        written.push(field);
      };
      if (fill.title && (row.title.trim() === '' || row.title === row.link)) put('title', 'title', fill.title);
      if (fill.excerpt && row.excerpt.trim() === '') put('excerpt', 'excerpt', fill.excerpt);
      if (fill.type && fill.type !== row.type && row.type === 'link') put('type', 'type', fill.type);
      if (fill.cover && row.cover === '') put('cover', 'cover', fill.cover);
      if (fill.media && fill.media.length > 0 && (JSON.parse(row.media) as Media[]).length === 0) put('media', 'media', JSON.stringify(fill.media));
      if (written.length === 0) return written;
      put('lastUpdate', 'last_update', now);
      values.push(bookmarkId);
      // The search column follows title and excerpt by its trigger.
      await c.query(`UPDATE bookmarks SET ${set.join(', ')} WHERE id = $${values.length}`, values);
      return written.filter((f) => f !== 'lastUpdate');
    });
  }
}
