import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestPgDatabase } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { openDatabase, type Db } from '../../db/open.js';
import { connectPool } from '../../db/postgres/pool.js';
import type { ArticlesRepository } from '../types/index.js';
import { SqliteArticlesRepository } from '../sqlite/articles.js';
import { PgArticlesRepository } from './articles.js';
import { numberPlaceholders } from './search-sql.js';

// The text job's queue and the page text's storage on both backends, against real databases. Two
// instances are two connections (PostgreSQL: two pools, as separate processes would have; SQLite:
// two connections to one file, as two processes on one data directory would).

interface Backend {
  a: ArticlesRepository;
  b: ArticlesRepository;
  run(sql: string, params: unknown[]): Promise<number[]>;
  close(): Promise<void>;
}

const clock = new TestClock();
const CREATED = '2026-01-01T00:00:00.000Z';
const createdMs = Date.parse(CREATED);
const USER = "INSERT INTO users (email, config, files_checkpoint, registered) VALUES ('articles@example.test', '{}', '', '') RETURNING id";
const BOOKMARK = `INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, created, last_update)
                  VALUES (?, ?, ?, ?, ?, 'example.com', ?, ?) RETURNING id`;

async function openPostgres(): Promise<Backend> {
  const target: TestPgDatabase = await createTestDatabase();
  const poolA: pg.Pool = await connectPool(target.url, { max: 5 });
  const poolB: pg.Pool = await connectPool(target.url, { max: 5 });
  return {
    a: new PgArticlesRepository(poolA, clock),
    b: new PgArticlesRepository(poolB, clock),
    run: async (sql, params) => (await poolA.query<{ id: string }>(numberPlaceholders(sql), params)).rows.map((r) => Number(r.id)),
    close: async () => {
      await poolA.end();
      await poolB.end();
      await target.drop();
    },
  };
}

function openSqlite(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-articles-'));
  const dbA: Db = openDatabase(dir);
  const dbB: Db = openDatabase(dir);
  return {
    a: new SqliteArticlesRepository(dbA, clock),
    b: new SqliteArticlesRepository(dbB, clock),
    run: async (sql, params) => {
      const stmt = dbA.prepare(sql);
      return stmt.reader ? (stmt.all(...params) as { id: number }[]).map((r) => r.id) : (stmt.run(...params), []);
    },
    close: async () => {
      dbA.close();
      dbB.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

for (const name of ['SQLite', 'PostgreSQL'] as const) {
  describe(`ArticlesRepository on ${name}`, () => {
    let be: Backend;
    let userId: number;

    async function addBookmarks(count: number, collectionId = -1): Promise<number[]> {
      const ids: number[] = [];
      for (let n = 0; n < count; n++) {
        const link = `https://example.com/${collectionId}/${n}/${Math.random()}`;
        ids.push(...(await be.run(BOOKMARK, [userId, userId, collectionId, link, link, CREATED, CREATED])));
      }
      return ids;
    }

    beforeAll(async () => {
      be = name === 'SQLite' ? openSqlite() : await openPostgres();
      [userId] = (await be.run(USER, [])) as [number];
    }, 60_000);

    afterAll(async () => {
      await be?.close();
    });

    it('gives every new bookmark a pending row, due a grace period after its creation', async () => {
      const [id] = await addBookmarks(1);
      const { a } = be;
      expect(await a.get(id!)).toMatchObject({ status: 'pending', next_attempt_at: createdMs + 15_000, attempts: 0, html: '', text: '' });
      expect(await a.claimDue(10, createdMs + 14_999)).toEqual([]);
      await a.markNone(id!, 'An image has no text.');
    });

    it('two instances claiming at once never take the same bookmark, and together take every due one', async () => {
      const ids = await addBookmarks(60);
      const trashed = await addBookmarks(3, -99);
      const { a, b } = be;
      const now = createdMs + 60_000;
      const taken: { by: string; id: number }[] = [];
      const worker = async (repo: ArticlesRepository, by: string) => {
        for (;;) {
          const due = await repo.claimDue(4, now, 60_000);
          if (due.length === 0) return;
          for (const d of due) taken.push({ by, id: d.bookmarkId });
        }
      };
      await Promise.all([worker(a, 'A'), worker(a, 'A'), worker(b, 'B'), worker(b, 'B')]);
      const claimed = taken.map((t) => t.id).sort((x, y) => x - y);
      expect(claimed).toEqual([...ids].sort((x, y) => x - y));
      expect(new Set(taken.filter((t) => t.by === 'A').map((t) => t.id)).size).toBeGreaterThan(0);
      expect(new Set(taken.filter((t) => t.by === 'B').map((t) => t.id)).size).toBeGreaterThan(0);
      // Bookmarks in the Trash wait; leased rows are not due until their lease runs out.
      expect(claimed.some((id) => trashed.includes(id))).toBe(false);
      expect(await a.claimDue(100, now + 59_000, 60_000)).toEqual([]);
      expect(await a.nextDueAt()).toBe(now + 60_000);

      // A runner that stopped mid-fetch: its rows are due again once the lease ran out, attempt counted.
      const again = await b.claimDue(100, now + 60_000, 60_000);
      expect(again.map((d) => d.bookmarkId).sort((x, y) => x - y)).toEqual(claimed);
      expect(again.every((d) => d.attempts === 2)).toBe(true);

      // Given back without counting; failed with a retry time; failed for good.
      const [first, second, third] = again.map((d) => d.bookmarkId);
      await a.release([first!]);
      await a.markFailed(second!, 'The site answered 503.', now + 90_000);
      await a.markFailed(third!, 'The site answered 404: the page is gone.', null);
      const next = await a.claimDue(100, now + 60_001, 60_000);
      expect(next.map((d) => d.bookmarkId)).toEqual([first]);
      expect(next[0]!.attempts).toBe(2);
      expect((await a.claimDue(100, now + 90_000, 60_000)).map((d) => d.bookmarkId)).toEqual([second]);
      expect(await a.states([third!])).toEqual(new Map([[third, { status: 'failed', error: 'The site answered 404: the page is gone.' }]]));
    });

    it('stores text atomically, keeps the extension\'s text from the server\'s fetch, and goes with its bookmark', async () => {
      const [id] = await addBookmarks(1);
      const { a } = be;
      const article = (title: string) => ({ title, byline: 'Ana', siteName: 'Example', html: `<p>${title} harbour</p>`, text: `${title} harbour`, truncated: false });
      expect(await a.store(id!, article('Browser'), 'extension')).toBe(true);
      expect(await a.store(id!, article('Server'), 'server')).toBe(false);
      expect(await a.get(id!)).toMatchObject({ status: 'indexed', title: 'Browser', html: '<p>Browser harbour</p>', text: 'Browser harbour', length: 15, source: 'extension' });
      expect([...(await a.matchingTexts([id!], [['harbour']])).keys()]).toEqual([id]);
      expect((await a.matchingTexts([id!], [['harbour', 'browser']])).size).toBe(0);

      await a.markPending([id!]);
      expect(await a.store(id!, article('Server'), 'server')).toBe(true);
      expect((await a.get(id!))?.title).toBe('Server');

      await be.run('DELETE FROM bookmarks WHERE id = ?', [id]);
      expect(await a.get(id!)).toBeNull();
      expect(await a.store(id!, article('Late'), 'server')).toBe(false);
    });
  });
}
