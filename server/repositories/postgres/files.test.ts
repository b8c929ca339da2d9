import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { QuotaExceededError, type NewFile } from '../types/index.js';
import { PgFilesRepository } from './files.js';
import { PgUsersRepository } from './users.js';

// Files on PostgreSQL: the quota check and the insert are one step even with two instances
// uploading at once; triggers keep the usage and list removed files for deletion.

const pools = twoInstancePools(10);
const clock = new TestClock();
let n = 0;
const file = (userId: number, size: number, extra: Partial<NewFile> = {}): NewFile => ({
  id: `f${++n}`,
  userId,
  kind: 'file',
  name: `f${n}.bin`,
  mime: 'application/octet-stream',
  size,
  sha256: 'x',
  path: `u/${n}`,
  ...extra,
});

it('concurrent uploads on two instances never exceed the quota together', async () => {
  const user = await new PgUsersRepository(pools.a, clock).create({ email: 'q@example.test', passwordHash: null });
  const one = new PgFilesRepository(pools.a, clock);
  const two = new PgFilesRepository(pools.b, clock);
  await one.setQuota(user.id, 1000);
  const results = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => (i % 2 ? one : two).add(file(user.id, 100))));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
  const refused = results.filter((r) => r.status === 'rejected');
  expect(refused).toHaveLength(6);
  for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(QuotaExceededError);
  expect(await two.usage(user.id)).toEqual({ used: 1000, quota: 1000 });
  await expect(one.add(file(user.id, 1))).rejects.toMatchObject({ used: 1000, quota: 1000, needed: 1 });
  await expect(one.add(file(user.id + 999, 1))).rejects.toThrow(`no user ${user.id + 999}`);
  expect(await one.usage(user.id + 999)).toBeUndefined();
});

it('covers replace covers, permanent copies need their bookmark, removed files become garbage, orphans go', async () => {
  const user = await new PgUsersRepository(pools.a, clock).create({ email: 'c@example.test', passwordHash: null });
  const repo = new PgFilesRepository(pools.b, clock);
  const { rows } = await pools.a.query<{ id: number }>(
    "INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, created, last_update) VALUES ($1, $1, -1, 'https://e.example/', 'e.example/', 'e.example', '', '') RETURNING id",
    [user.id],
  );
  const bookmarkId = rows[0].id;
  const old = await repo.add(file(user.id, 300, { kind: 'cover', bookmarkId }));
  expect(await repo.coverBytes({ bookmarkId })).toBe(300);
  const cover = await repo.add(file(user.id, 200, { kind: 'cover', bookmarkId }), 300);
  await repo.dropOtherCovers({ bookmarkId }, cover.id);
  expect((await repo.ofBookmark(bookmarkId, 'cover')).map((f) => f.id)).toEqual([cover.id]);
  expect(await repo.coverBytes({ collectionId: 12345 })).toBe(0);
  expect(await repo.garbage()).toEqual([old.path]);
  await repo.forgetGarbage(old.path);

  const upload = await repo.add(file(user.id, 10));
  await repo.attachToBookmark(upload.id, bookmarkId);
  expect((await repo.get(upload.id))?.bookmark_id).toBe(bookmarkId);
  expect(await repo.saveCache({ bookmark_id: bookmarkId, user_id: user.id, source: 'server', size: 5, sha256: 's', path: 'cache/1', page_url: 'https://e.example/' })).toBe(true);
  expect(await repo.saveCache({ bookmark_id: bookmarkId, user_id: user.id, source: 'upload', size: 6, sha256: 't', path: 'cache/2', page_url: 'https://e.example/' })).toBe(true);
  expect(await repo.cacheOf(bookmarkId)).toMatchObject({ source: 'upload', path: 'cache/2', size: 6 });
  expect(await repo.garbage()).toEqual(['cache/1']);
  await repo.forgetGarbage('cache/1');
  expect(await repo.saveCache({ bookmark_id: bookmarkId + 999, user_id: user.id, source: 'server', size: 5, sha256: 's', path: 'cache/3', page_url: '' })).toBe(false);

  const orphan = await repo.add(file(user.id, 7));
  clock.advance(3600_000);
  const before = Number((await pools.a.query('SELECT count(*) AS n FROM files WHERE bookmark_id IS NULL AND collection_id IS NULL')).rows[0].n);
  expect(await repo.dropOrphans(60_000)).toBe(before); // this one and the first test's uploads, none with a bookmark
  expect(await repo.get(orphan.id)).toBeUndefined();
  expect(await repo.get(upload.id)).toBeDefined();
  expect(await repo.garbage(1000)).toContain(orphan.path);
  await repo.remove(upload.id);
  expect((await repo.usage(user.id))?.used).toBe(200);
});
