import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestPgDatabase } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { connectPool } from '../../db/postgres/pool.js';
import { enqueuePageParse, PgJobsRepository } from './jobs.js';

// Jobs on PostgreSQL as several instances share them, against a real server: each instance has its
// own pool (its own connections), as separate processes would.

let target: TestPgDatabase;
let instanceA: pg.Pool;
let instanceB: pg.Pool;
let userId: number;
const clock = new TestClock();

async function addBookmark(pool: pg.Pool, n: number, title = ''): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, title, created, last_update)
     VALUES ($1, $1, -1, $2, $2, 'example.com', $3, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z') RETURNING id`,
    [userId, `https://example.com/${n}`, title],
  );
  return rows[0].id;
}

beforeAll(async () => {
  target = await createTestDatabase();
  instanceA = await connectPool(target.url, { max: 5 });
  instanceB = await connectPool(target.url, { max: 5 });
  userId = (
    await instanceA.query<{ id: number }>(
      "INSERT INTO users (email, config, files_checkpoint, registered) VALUES ('jobs@example.test', '{}', '', '') RETURNING id",
    )
  ).rows[0].id;
}, 60_000);

afterAll(async () => {
  await instanceA?.end();
  await instanceB?.end();
  await target?.drop();
});

describe('PgJobsRepository', () => {
  it('two instances claiming at once never take the same job, and together take every one', async () => {
    const ids = [];
    for (let i = 0; i < 60; i++) ids.push(await addBookmark(instanceA, i));
    await enqueuePageParse(instanceA, ids, 'create', clock.now());
    const a = new PgJobsRepository(instanceA, clock);
    const b = new PgJobsRepository(instanceB, clock);
    const taken: { by: string; id: number }[] = [];
    const worker = async (repo: PgJobsRepository, by: string) => {
      for (;;) {
        const job = await repo.claim(60_000);
        if (!job) return;
        taken.push({ by, id: job.id });
        await repo.complete(job.id, 'done by test');
      }
    };
    await Promise.all([worker(a, 'A'), worker(a, 'A'), worker(b, 'B'), worker(b, 'B')]);
    const jobIds = taken.map((t) => t.id);
    expect(new Set(jobIds).size).toBe(jobIds.length);
    expect(jobIds).toHaveLength(60);
    expect((await a.list('done')).length).toBe(60);
  });

  it("a job of an instance that died is claimed again once its lease has run out, with the attempt counted", async () => {
    const a = new PgJobsRepository(instanceA, clock);
    const b = new PgJobsRepository(instanceB, clock);
    const id = await addBookmark(instanceA, 500);
    await enqueuePageParse(instanceA, [id], 'create', clock.now());
    const first = await a.claim(30_000);
    expect(first).toMatchObject({ state: 'running', attempts: 1 });
    // Instance A is killed: it never completes. While its lease holds, nobody else takes the job.
    expect(await b.claim(30_000)).toBeUndefined();
    clock.advance(30_001);
    const again = await b.claim(30_000);
    expect(again).toMatchObject({ id: first!.id, state: 'running', attempts: 2 });
    await b.complete(again!.id);
    expect((await b.list()).find((j) => j.id === first!.id)).toMatchObject({ state: 'done' });
  });

  it('pleaseParse widens a queued job instead of queueing a second one; retry, failure and release keep their rules', async () => {
    const repo = new PgJobsRepository(instanceA, clock);
    const id = await addBookmark(instanceA, 600, 'Kept title');
    await enqueuePageParse(instanceA, [id], 'create', clock.now() + 5000);
    await enqueuePageParse(instanceA, [id], 'update', clock.now());
    const queued = (await repo.list('queued')).filter((j) => j.dedupe_key === `page:${id}`);
    expect(queued).toHaveLength(1);
    expect(JSON.parse(queued[0].payload)).toEqual({ bookmarkId: id, parse: true, on: 'update' });
    expect(queued[0].next_run_at).toBe(clock.now());

    const job = (await repo.claim(10_000))!;
    expect(job.id).toBe(queued[0].id);
    expect(await repo.fail(job.id, 'timeout', 1000)).toBe('retry');
    expect(await repo.claim(10_000)).toBeUndefined(); // not due yet
    clock.advance(1000);
    const retried = (await repo.claim(10_000))!;
    expect(retried).toMatchObject({ id: job.id, attempts: 2, last_error: 'timeout' });
    await repo.release(retried.id);
    expect((await repo.list()).find((j) => j.id === job.id)).toMatchObject({ state: 'queued', attempts: 1 });
    const last = (await repo.claim(10_000))!;
    expect(await repo.fail(last.id, 'gone for good', null)).toBe('failed');

    // The page's findings fill only what the owner left empty; the search column follows.
    expect(await repo.fillFromPage(id, { title: 'Page title', excerpt: 'Harbour pilots at dawn', type: 'article' })).toEqual(['excerpt', 'type']);
    const row = await repo.bookmark(id);
    expect(row).toMatchObject({ title: 'Kept title', excerpt: 'Harbour pilots at dawn', type: 'article' });
    const found = await instanceA.query("SELECT id FROM bookmarks WHERE search @@ to_tsquery('tidemark', 'pilot:*')");
    expect(found.rows.map((r) => r.id)).toEqual([id]);
  });
});
