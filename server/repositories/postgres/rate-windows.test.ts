import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { MAX_BLOCK, PgRateWindowsRepository, SHARE_OF_REMAINING } from './rate-windows.js';

// Rate-limit windows on PostgreSQL, counted by two instances at once (two pools), against a real server.

const pools = twoInstancePools(8);
const clock = new TestClock();

/** The row's count in the database: numbers handed out or reserved so far in the window. */
async function stored(key: string): Promise<number> {
  return (await pools.a.query<{ count: number }>('SELECT count FROM rate_windows WHERE key = $1', [key])).rows[0]?.count ?? 0;
}

it('121 concurrent requests of one caller spread over two instances are counted once each in one window (120 a minute: exact)', async () => {
  const one = new PgRateWindowsRepository(pools.a, clock);
  const two = new PgRateWindowsRepository(pools.b, clock);
  const counts = await Promise.all(Array.from({ length: 121 }, (_, i) => (i % 2 ? one : two).hit('u1:main', 60_000, 120)));
  expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 121 }, (_, i) => i + 1));
  expect(new Set(counts.map((c) => c.start))).toEqual(new Set([clock.now()]));
  // Small limits are counted one update per request: the row holds exactly the requests made.
  expect(await stored('u1:main')).toBe(121);
  // Another caller and another bucket have their own windows.
  expect(await one.hit('u2:main', 60_000, 120)).toEqual({ start: clock.now(), count: 1 });
  expect(await two.hit('u1:small', 60_000, 60)).toEqual({ start: clock.now(), count: 1 });
  // A new window begins once the old one has ended.
  clock.advance(60_000);
  expect(await two.hit('u1:main', 60_000, 120)).toEqual({ start: clock.now(), count: 1 });
});

it('under a large limit each instance reserves blocks (one update per block), never lets more than the limit through, and loses at most a block per instance', async () => {
  const one = new PgRateWindowsRepository(pools.a, clock);
  const two = new PgRateWindowsRepository(pools.b, clock);
  const limit = 10_000;
  const key = 'big:main';
  const updates0 = await rowUpdates();
  // 2,000 requests far from the limit: numbers are distinct, and the database is asked about once per block.
  const far = await Promise.all(Array.from({ length: 2000 }, (_, i) => (i % 2 ? one : two).hit(key, 60_000, limit)));
  expect(new Set(far.map((c) => c.count)).size).toBe(2000);
  const updates = (await rowUpdates()) - updates0;
  expect(updates).toBeLessThanOrEqual(2000 / 30);
  // The row counts what was handed out plus at most one unused block per instance.
  expect((await stored(key)) - 2000).toBeLessThanOrEqual(2 * MAX_BLOCK);

  // Up to the limit and past it: never more than `limit` let through in all, and no fewer than the bound.
  let allowed = far.length;
  let refusedOnBoth = 0;
  for (let round = 0; round < 200 && refusedOnBoth < 2; round++) {
    const batch = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).hit(key, 60_000, limit)));
    allowed += batch.filter((c) => c.count <= limit).length;
    refusedOnBoth = [0, 1].filter((side) => batch.filter((_, i) => i % 2 === side).every((c) => c.count > limit)).length;
  }
  // Both instances kept asking until refused, so neither holds unused numbers: exactly the limit.
  expect(allowed).toBe(limit);
  // Once over, an instance refuses the rest of the window without asking the database.
  const before = await rowUpdates();
  const refused = await Promise.all(Array.from({ length: 50 }, () => one.hit(key, 60_000, limit)));
  expect(refused.every((c) => c.count > limit)).toBe(true);
  expect((await rowUpdates()) - before).toBe(0);
  // The next window starts over.
  clock.advance(60_000);
  expect((await one.hit(key, 60_000, limit)).count).toBe(1);
});

/** Round trips the two pools have made so far (each pool.query checks a connection out once). */
let checkouts = 0;
let counting = false;
async function rowUpdates(): Promise<number> {
  if (!counting) {
    counting = true;
    for (const pool of [pools.a, pools.b]) pool.on('acquire', () => checkouts++);
  }
  return checkouts;
}

it('an instance that reserved a block and went quiet costs the others at most that block (the documented bound)', async () => {
  const one = new PgRateWindowsRepository(pools.a, clock);
  const two = new PgRateWindowsRepository(pools.b, clock);
  const limit = 5000;
  expect((await one.hit('quiet:main', 60_000, limit)).count).toBe(1);
  let allowed = 1;
  for (;;) {
    const batch = await Promise.all(Array.from({ length: 100 }, () => two.hit('quiet:main', 60_000, limit)));
    const ok = batch.filter((c) => c.count <= limit).length;
    allowed += ok;
    if (ok === 0) break;
  }
  const bound = Math.min(MAX_BLOCK, Math.floor(limit / SHARE_OF_REMAINING));
  expect(allowed).toBeLessThanOrEqual(limit);
  expect(allowed).toBeGreaterThanOrEqual(limit - bound);
  expect(allowed).toBeLessThan(limit); // the quiet instance does hold numbers nobody used
});
