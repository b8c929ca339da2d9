import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestPgDatabase } from '../../../tests/helpers/pg-database.js';
import { connectPool } from '../../db/postgres/pool.js';
import { PgLinksRepository } from './links.js';

// The /links?since= cursor on PostgreSQL, against a real server: changes whose transactions commit
// out of the order they were written in are never skipped.

let target: TestPgDatabase;
let pool: pg.Pool;
let links: PgLinksRepository;
let userId: number;

async function addBookmark(client: pg.Pool | pg.PoolClient, n: number): Promise<number> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, created, last_update)
     VALUES ($1, $1, -1, $2, $2, 'example.com', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z') RETURNING id`,
    [userId, `https://example.com/${n}`],
  );
  return rows[0].id;
}

beforeAll(async () => {
  target = await createTestDatabase();
  pool = await connectPool(target.url, { max: 30 });
  links = new PgLinksRepository(pool);
  userId = (
    await pool.query<{ id: number }>(
      "INSERT INTO users (email, config, files_checkpoint, registered) VALUES ('links@example.test', '{}', '', '') RETURNING id",
    )
  ).rows[0].id;
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await target?.drop();
});

/** Follows the cursor like the extension does; answers every bookmark id seen present. */
async function follow(since: number, seen: Map<number, number>): Promise<number> {
  let cursor = since;
  for (;;) {
    const page = await links.changes(userId, cursor, 50);
    for (const [id, , collectionId] of page.items) seen.set(id, collectionId);
    for (const id of page.removed) seen.delete(id);
    cursor = page.cursor;
    if (!page.more) return cursor;
  }
}

describe('PgLinksRepository', () => {
  it('lists saved bookmarks and reports new ones after the cursor', async () => {
    const start = await links.cursor(userId);
    const a = await addBookmark(pool, 1);
    expect(await links.list(userId, 0, 10)).toEqual([[a, 'https://example.com/1', -1]]);
    const page = await links.changes(userId, start, 10);
    expect(page.items).toEqual([[a, 'https://example.com/1', -1]]);
    expect(page.cursor).toBeGreaterThan(start);
    const empty = await links.changes(userId, page.cursor, 10);
    expect(empty).toMatchObject({ items: [], removed: [], more: false });
    await pool.query('UPDATE bookmarks SET removed = 1 WHERE id = $1', [a]);
    expect((await links.changes(userId, page.cursor, 10)).removed).toEqual([a]);
  });

  it('never skips a change whose transaction commits after a later one', async () => {
    const b1 = await addBookmark(pool, 101);
    const b2 = await addBookmark(pool, 102);
    const c0 = (await links.changes(userId, 0, 1000)).cursor;

    const slow = await pool.connect();
    const fast = await pool.connect();
    try {
      await slow.query('BEGIN');
      await slow.query('UPDATE bookmarks SET collection_id = 5 WHERE id = $1', [b1]);
      // The number the slow change got when written: smaller than the fast one's.
      const provisional = (await slow.query<{ seq: number }>('SELECT seq FROM link_changes WHERE bookmark_id = $1', [b1])).rows[0].seq;

      await fast.query('BEGIN');
      await fast.query('UPDATE bookmarks SET collection_id = 6 WHERE id = $1', [b2]);
      await fast.query('COMMIT');

      const first = await links.changes(userId, c0, 1000);
      expect(first.items).toEqual([[b2, 'https://example.com/102', 6]]);
      // A cursor by write order would now be past the slow change and lose it.
      expect(first.cursor).toBeGreaterThan(provisional);

      await slow.query('COMMIT');
      const second = await links.changes(userId, first.cursor, 1000);
      expect(second.items).toEqual([[b1, 'https://example.com/101', 5]]);
    } finally {
      slow.release();
      fast.release();
    }
  });

  it('a reader following the cursor during 40 concurrent writers ends with exactly the saved bookmarks', async () => {
    const seen = new Map<number, number>();
    let cursor = await follow(0, seen);
    let writing = true;
    const reader = (async () => {
      while (writing) {
        cursor = await follow(cursor, seen);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          const id = await addBookmark(c, 1000 + i);
          // Hold some transactions open so commits land out of write order.
          await new Promise((r) => setTimeout(r, (i * 7) % 23));
          if (i % 5 === 0) await c.query('UPDATE bookmarks SET collection_id = $2 WHERE id = $1', [id, i]);
          await c.query('COMMIT');
        } finally {
          c.release();
        }
      }),
    );
    writing = false;
    await reader;
    cursor = await follow(cursor, seen);
    const truth = new Map((await links.list(userId, 0, 10_000)).map(([id, , collectionId]) => [id, collectionId]));
    expect(new Map([...seen].sort((a, b) => a[0] - b[0]))).toEqual(new Map([...truth].sort((a, b) => a[0] - b[0])));
    expect(truth.size).toBeGreaterThanOrEqual(40);
  });
});
