import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { PgIdempotencyRepository } from './idempotency.js';
import { PgImportRunsRepository } from './import-runs.js';
import { PgUsersRepository } from './users.js';

// Idempotency keys and import progress on PostgreSQL. One key sent to two instances at once runs once.

const pools = twoInstancePools(8);
const clock = new TestClock();

it('one key claimed by exactly one of many concurrent requests on two instances; replay, mismatch, takeover, abandon, prune', async () => {
  const user = await new PgUsersRepository(pools.a, clock).create({ email: 'i@example.test', passwordHash: null });
  const one = new PgIdempotencyRepository(pools.a);
  const two = new PgIdempotencyRepository(pools.b);
  const now = clock.now();
  const starts = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).start(user.id, 'k1', 'fp', now, 60_000)));
  expect(starts.filter((s) => s.kind === 'run')).toHaveLength(1);
  expect(starts.filter((s) => s.kind === 'in-progress')).toHaveLength(9);
  expect(await one.start(user.id, 'k1', 'other', now, 60_000)).toEqual({ kind: 'mismatch' });
  await two.finish(user.id, 'k1', 201, '{"result":true}');
  expect(await one.start(user.id, 'k1', 'fp', now, 60_000)).toEqual({ kind: 'replay', status: 201, body: '{"result":true}' });

  expect(await one.start(user.id, 'k2', 'fp', now, 60_000)).toEqual({ kind: 'run' });
  expect(await two.start(user.id, 'k2', 'fp', now + 60_001, 60_000)).toEqual({ kind: 'run' }); // its first request died
  await one.abandon(user.id, 'k2');
  expect(await two.start(user.id, 'k2', 'fp', now + 60_002, 60_000)).toEqual({ kind: 'run' });
  expect(await one.prune(now + 1)).toBe(1);
  expect(await one.start(user.id, 'k1', 'fp', now, 60_000)).toEqual({ kind: 'run' });
});

it('import runs: one per user, file and target; folders and progress kept', async () => {
  const user = await new PgUsersRepository(pools.a, clock).create({ email: 'imp@example.test', passwordHash: null });
  const repo = new PgImportRunsRepository(pools.b, clock);
  expect(await repo.find(user.id, 'sha', 0)).toBeUndefined();
  const run = await repo.start({ userId: user.id, fileSha256: 'sha', fileName: 'b.html', target: 0, total: 250 });
  expect(run).toMatchObject({ user_id: user.id, state: 'running', next_index: 0, total: 250, created_count: 0, started_at: new Date(clock.now()).toISOString() });
  await repo.saveFolder(run.id, 'A', 10);
  await repo.saveFolder(run.id, 'A/B', 11);
  await repo.saveFolder(run.id, 'A', 12);
  expect(await repo.folders(run.id)).toEqual(new Map([['A', 12], ['A/B', 11]]));
  await repo.advance(run.id, 100, { created: 90, duplicates: 8, failed: 2 });
  const later = await repo.advance(run.id, 200, { created: 100, duplicates: 0, failed: 0 });
  expect(later).toMatchObject({ next_index: 200, created_count: 190, duplicates: 8, failed: 2 });
  expect((await repo.finish(run.id)).state).toBe('done');
  expect((await repo.find(user.id, 'sha', 0))?.id).toBe(run.id);
  await expect(repo.start({ userId: user.id, fileSha256: 'sha', fileName: 'b.html', target: 0, total: 1 })).rejects.toThrow();
});
