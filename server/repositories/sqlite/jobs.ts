import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import type { Media } from '../../../lib/api/types.js';
import type { FullTextIndex } from './fts.js';
import { type JobRow, type PageFill, type JobsRepository, type BookmarkRow } from '../types/index.js';

const PAGE_JOB_UPSERT = `
  INSERT INTO jobs (kind, payload, dedupe_key, state, next_run_at, created_at)
  VALUES ('page', json_object('bookmarkId', CAST(@id AS INTEGER), 'parse', json('true'), 'on', @on),
          'page:' || CAST(@id AS INTEGER), 'queued', @now, @now)
  ON CONFLICT (dedupe_key) WHERE state = 'queued'
  DO UPDATE SET payload = json_set(payload, '$.parse', json('true'), '$.on', @on),
                next_run_at = min(next_run_at, excluded.next_run_at), attempts = 0, last_error = NULL`;

/**
 * Queues the background parse of these bookmarks (pleaseParse). Synchronous, so it runs inside the
 * caller's transaction. A bookmark already waiting for a job (e.g. the permanent copy queued when a
 * pro user's bookmark was inserted) gets that job widened instead of a second one.
 */
export function enqueuePageParse(db: Db, bookmarkIds: number[], on: 'create' | 'update', now: number): void {
  if (bookmarkIds.length === 0) return;
  const stmt = db.prepare(PAGE_JOB_UPSERT);
  for (const id of bookmarkIds) stmt.run({ id, on, now });
}

/**
 * The durable job table: claim due work with a lease, finish, retry with backoff, and write a
 * page reading's results into a bookmark without overwriting what its owner set.
 */
export class SqliteJobsRepository implements JobsRepository {
  private readonly stmt;

  constructor(private db: Db, private clock: Clock, private fts: FullTextIndex) {
    this.stmt = {
      nextDue: db.prepare(
        `SELECT * FROM jobs
          WHERE (state = 'queued' AND next_run_at <= @now) OR (state = 'running' AND locked_until <= @now)
          ORDER BY next_run_at, id LIMIT 1`,
      ),
      take: db.prepare(
        `UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_until = @until WHERE id = @id`,
      ),
      // A queued job with the same key may have appeared while this one ran; it covers the same work.
      done: db.prepare(`UPDATE jobs SET state = 'done', locked_until = NULL, finished_at = ?, outcome = ? WHERE id = ?`),
      failed: db.prepare(`UPDATE jobs SET state = 'failed', locked_until = NULL, finished_at = ?, last_error = ? WHERE id = ?`),
      retry: db.prepare(`UPDATE jobs SET state = 'queued', locked_until = NULL, next_run_at = ?, last_error = ? WHERE id = ?`),
      release: db.prepare(
        `UPDATE jobs SET state = 'queued', locked_until = NULL, attempts = max(0, attempts - 1) WHERE id = ? AND state = 'running'`,
      ),
      queuedTwin: db.prepare(`SELECT id FROM jobs WHERE dedupe_key = ? AND state = 'queued' AND id <> ?`),
      byId: db.prepare('SELECT * FROM jobs WHERE id = ?'),
      bookmark: db.prepare('SELECT * FROM bookmarks WHERE id = ?'),
      setBroken: db.prepare('UPDATE bookmarks SET broken = ? WHERE id = ?'),
      prune: db.prepare(`DELETE FROM jobs WHERE state IN ('done', 'failed') AND finished_at < ?`),
    };
  }

  /**
   * Takes the next due job (queued and due, or running with an expired lease) and marks it running
   * until `now + leaseMs`, counting the attempt. One transaction, so two runners never take the same job.
   */
  async claim(leaseMs: number): Promise<JobRow | undefined> {
    const now = this.clock.now();
    const tx = this.db.transaction(() => {
      const row = this.stmt.nextDue.get({ now }) as JobRow | undefined;
      if (!row) return undefined;
      this.stmt.take.run({ id: row.id, until: now + leaseMs });
      return this.stmt.byId.get(row.id) as JobRow;
    });
    return tx.immediate();
  }

  /** Lists jobs (newest first), optionally of one state; for tools and tests. */
  async list(state?: JobRow['state']): Promise<JobRow[]> {
    if (state) return this.db.prepare('SELECT * FROM jobs WHERE state = ? ORDER BY id').all(state) as JobRow[];
    return this.db.prepare('SELECT * FROM jobs ORDER BY id').all() as JobRow[];
  }

  /** Finished; `note` says what was done, or why nothing was (e.g. the bookmark is gone). */
  async complete(id: number, note: string | null = null): Promise<void> {
    this.stmt.done.run(this.clock.now(), note, id);
  }

  /**
   * Records a failure: back to the queue after `retryInMs`, or failed for good when `retryInMs` is
   * null (no attempts left, or an error retrying cannot fix). A queued twin (same dedupe key, queued
   * while this one ran) makes a retry pointless: it will do the same work.
   */
  async fail(id: number, error: string, retryInMs: number | null): Promise<'retry' | 'failed'> {
    const now = this.clock.now();
    const tx = this.db.transaction(() => {
      const row = this.stmt.byId.get(id) as JobRow | undefined;
      if (!row) return 'failed' as const;
      const twin = row.dedupe_key ? this.stmt.queuedTwin.get(row.dedupe_key, id) : undefined;
      if (retryInMs === null || twin) {
        this.stmt.failed.run(now, error, id);
        return 'failed' as const;
      }
      this.stmt.retry.run(now + retryInMs, error, id);
      return 'retry' as const;
    });
    return tx.immediate();
  }

  /**
   * Gives a running job back without counting the attempt (the runner is stopping). If a twin got
   * queued meanwhile, this one is simply dropped as done: the twin covers it.
   */
  async release(id: number): Promise<void> {
    const tx = this.db.transaction(() => {
      const row = this.stmt.byId.get(id) as JobRow | undefined;
      if (!row || row.state !== 'running') return;
      const twin = row.dedupe_key ? this.stmt.queuedTwin.get(row.dedupe_key, id) : undefined;
      if (twin) this.stmt.done.run(this.clock.now(), 'superseded by a newer job', id);
      else this.stmt.release.run(id);
    });
    tx.immediate();
  }

  /** Forgets finished jobs older than `ageMs`. */
  async prune(ageMs: number): Promise<number> {
    return this.stmt.prune.run(this.clock.now() - ageMs).changes;
  }

  /** The bookmark a page job works on, or undefined when it is gone. */
  async bookmark(id: number): Promise<BookmarkRow | undefined> {
    return this.stmt.bookmark.get(id) as BookmarkRow | undefined;
  }

  /** Marks a bookmark's link broken (the page answered 404/410) or working again. */
  async setBroken(bookmarkId: number, broken: boolean): Promise<void> {
    this.stmt.setBroken.run(broken ? 1 : 0, bookmarkId);
  }

  /**
   * Writes what the page reading found into fields that still hold their default, re-reading the
   * row in the same transaction so an edit made while the page was fetched is never overwritten:
   * title only when it is empty or the link itself, excerpt and cover only when empty (a cover of
   * `<screenshot>` is a request the owner made and stays), type only when `link`, media only when
   * there is none. Returns the names of the fields written.
   */
  async fillFromPage(bookmarkId: number, fill: PageFill): Promise<string[]> {
    const now = isoNow(this.clock);
    const tx = this.db.transaction(() => {
      const row = this.stmt.bookmark.get(bookmarkId) as BookmarkRow | undefined;
      if (!row) return [];
      const set: string[] = [];
      const values: unknown[] = [];
      const written: string[] = [];
      const put = (field: string, column: string, value: unknown) => {
        set.push(`${column} = ?`);
        values.push(value);
        written.push(field);
      };
      if (fill.title && (row.title.trim() === '' || row.title === row.link)) put('title', 'title', fill.title);
      if (fill.excerpt && row.excerpt.trim() === '') put('excerpt', 'excerpt', fill.excerpt);
      if (fill.type && fill.type !== row.type && row.type === 'link') put('type', 'type', fill.type);
      if (fill.cover && row.cover === '') put('cover', 'cover', fill.cover);
      if (fill.media && fill.media.length > 0 && (JSON.parse(row.media) as Media[]).length === 0) {
        put('media', 'media', JSON.stringify(fill.media));
      }
      if (written.length === 0) return written;
      put('lastUpdate', 'last_update', now);
      values.push(bookmarkId);
      this.db.prepare(`UPDATE bookmarks SET ${set.join(', ')} WHERE id = ?`).run(...values);
      if (written.includes('title') || written.includes('excerpt')) this.fts.reindex([bookmarkId]);
      return written.filter((f) => f !== 'lastUpdate');
    });
    return tx.immediate();
  }
}
