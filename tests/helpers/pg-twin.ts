// Both backends side by side for the PostgreSQL repositories' tests: a fresh SQLite data directory and
// a fresh PostgreSQL database, the same clock and the same users, so a test runs one operation on each
// and expects the same answer (ids agree too, both numbering from 1). Made in beforeAll, removed in afterAll.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import type { NewBookmark, Repositories } from '../../server/repositories/types/index.js';
import { openDatabase, type Db } from '../../server/db/open.js';
import { connectPool } from '../../server/db/postgres/pool.js';
import { createSqliteRepositories } from '../../server/repositories/sqlite/index.js';
import { createPostgresRepositories } from '../../server/repositories/postgres/index.js';
import { createTestDatabase, type TestPgDatabase } from './pg-database.js';
import { TestClock } from './server.js';

/** The repositories this comparison covers. */
export type BookmarkFamily = Pick<
  Repositories,
  'access' | 'bookmarks' | 'bookmarkQueries' | 'bookmarkExport' | 'collections' | 'tags' | 'highlights' | 'stats'
>;

export function pgBookmarkFamily(pool: pg.Pool, clock: TestClock): BookmarkFamily {
  return createPostgresRepositories(pool, clock);
}

export interface Twin {
  clock: TestClock;
  readonly sqlite: BookmarkFamily;
  readonly pg: BookmarkFamily;
  /** A second pool on the same PostgreSQL database, standing for another instance. */
  readonly pgB: BookmarkFamily;
  readonly pool: pg.Pool;
  readonly db: Db;
  /** Runs `op` on SQLite, then on PostgreSQL; expects equal answers (highlight ids aside) and returns PostgreSQL's. */
  same<T>(op: (r: BookmarkFamily) => Promise<T>): Promise<T>;
  /** Runs `op` on both; expects both to fail with the same error class, status and message. */
  sameError(op: (r: BookmarkFamily) => Promise<unknown>): Promise<Error>;
  /** Adds a user (same id on both); returns the id. */
  user(email: string): Promise<number>;
  /** Adds a collection through the repository on both; returns the id. */
  collection(userId: number, title: string, parentId?: number | null): Promise<number>;
}

/** Highlight ids are random: compare them by position instead. */
function normalise(value: unknown): unknown {
  if (value === undefined) return undefined;
  const ids = new Map<string, string>();
  return JSON.parse(
    JSON.stringify(value, (key, v) => {
      if (key === '_id' && typeof v === 'string' && /^[0-9a-f]{24}$/.test(v)) {
        if (!ids.has(v)) ids.set(v, `highlight#${ids.size}`);
        return ids.get(v);
      }
      return v;
    }),
  );
}

export function twinBackends(): Twin {
  const clock = new TestClock();
  let dir = '';
  let db: Db | undefined;
  let target: TestPgDatabase | undefined;
  let poolA: pg.Pool | undefined;
  let poolB: pg.Pool | undefined;
  let sqlite: BookmarkFamily | undefined;
  let pgA: BookmarkFamily | undefined;
  let pgB: BookmarkFamily | undefined;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-twin-'));
    db = openDatabase(dir);
    sqlite = createSqliteRepositories(db, clock);
    target = await createTestDatabase();
    poolA = await connectPool(target.url, { max: 8 });
    poolB = await connectPool(target.url, { max: 8 });
    pgA = pgBookmarkFamily(poolA, clock);
    pgB = pgBookmarkFamily(poolB, clock);
  }, 60_000);
  afterAll(async () => {
    await poolA?.end();
    await poolB?.end();
    await target?.drop();
    db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('The twin backends are made in beforeAll: use them inside a test.');
    return v;
  };
  const twin: Twin = {
    clock,
    get sqlite() {
      return ready(sqlite);
    },
    get pg() {
      return ready(pgA);
    },
    get pgB() {
      return ready(pgB);
    },
    get pool() {
      return ready(poolA);
    },
    get db() {
      return ready(db);
    },
    async same(op) {
      const a = await op(twin.sqlite);
      const b = await op(twin.pg);
      expect(normalise(b)).toEqual(normalise(a));
      return b;
    },
    async sameError(op) {
      const a = await op(twin.sqlite).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const b = await op(twin.pg).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(a, 'SQLite should refuse').toBeInstanceOf(Error);
      expect(b, 'PostgreSQL should refuse').toBeInstanceOf(Error);
      expect(b!.constructor).toBe(a!.constructor);
      expect({ message: b!.message, status: (b as { status?: number }).status }).toEqual({
        message: a!.message,
        status: (a as { status?: number }).status,
      });
      return b!;
    },
    async user(email) {
      const a = twin.db
        .prepare("INSERT INTO users (email, config, files_checkpoint, registered) VALUES (?, '{}', '', '')")
        .run(email).lastInsertRowid;
      const { rows } = await twin.pool.query<{ id: number }>(
        "INSERT INTO users (id, email, config, files_checkpoint, registered) VALUES ($1, $2, '{}', '', '') RETURNING id",
        [Number(a), email],
      );
      expect(rows[0].id).toBe(Number(a));
      return rows[0].id;
    },
    async collection(userId, title, parentId = null) {
      const row = await twin.same((r) => r.collections.create(userId, { title, parentId }));
      return row.id;
    },
  };
  return twin;
}

/** A bookmark to create, with defaults for what a test does not care about. */
export function newBookmark(ownerId: number, fields: Partial<NewBookmark> & { link: string }): NewBookmark {
  const url = new URL(fields.link);
  return {
    ownerId,
    creatorId: ownerId,
    collectionId: -1,
    linkKey: fields.link,
    domain: url.hostname,
    title: '',
    excerpt: '',
    note: '',
    type: 'link',
    cover: '',
    media: [],
    tags: [],
    important: false,
    highlights: [],
    ...fields,
  };
}
