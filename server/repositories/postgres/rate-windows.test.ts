import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { PgRateWindowsRepository } from './rate-windows.js';

// Rate-limit windows on PostgreSQL, counted by two instances at once (two pools), against a real server.

const pools = twoInstancePools(8);
const clock = new TestClock();

it('121 concurrent requests of one caller spread over two instances are counted once each in one window', async () => {
  const one = new PgRateWindowsRepository(pools.a, clock);
  const two = new PgRateWindowsRepository(pools.b, clock);
  const counts = await Promise.all(Array.from({ length: 121 }, (_, i) => (i % 2 ? one : two).hit('u1:main', 60_000)));
  expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 121 }, (_, i) => i + 1));
  expect(new Set(counts.map((c) => c.start))).toEqual(new Set([clock.now()]));
  // Another caller and another bucket have their own windows.
  expect(await one.hit('u2:main', 60_000)).toEqual({ start: clock.now(), count: 1 });
  expect(await two.hit('u1:small', 60_000)).toEqual({ start: clock.now(), count: 1 });
  // A new window begins once the old one has ended.
  clock.advance(60_000);
  expect(await two.hit('u1:main', 60_000)).toEqual({ start: clock.now(), count: 1 });
});
