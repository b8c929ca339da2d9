import { expect, it } from 'vitest';
import { twoInstancePools } from '../../tests/helpers/pg-database.js';
import { TestClock } from '../../tests/helpers/server.js';
import { LoginThrottle } from './login-throttle.js';
import { PgSignInFailuresRepository } from '../repositories/postgres/sign-in-failures.js';

// The sign-in throttle on PostgreSQL: failures counted on one instance block sign-in on the other.

const pools = twoInstancePools(2);
const clock = new TestClock();
const settings = { maxFailuresPerAccount: 5, maxFailuresPerIp: 20, throttleWindowMs: 15 * 60_000 };

it('wrong passwords spread over two instances block that address for the account on both, never the owner elsewhere', async () => {
  const one = new LoginThrottle(clock, settings, new PgSignInFailuresRepository(pools.a), 'signin');
  const two = new LoginThrottle(clock, settings, new PgSignInFailuresRepository(pools.b), 'signin');
  for (let i = 0; i < 5; i++) {
    expect(await (i % 2 ? one : two).check('Mallory@Example.test', '10.0.0.1')).toEqual({ blocked: false });
    await (i % 2 ? one : two).recordFailure('mallory@example.test', '10.0.0.1');
    clock.advance(1000);
  }
  expect(await one.check('mallory@example.test', '10.0.0.1')).toMatchObject({ blocked: true, by: 'account' });
  expect(await two.check(' MALLORY@example.test', '10.0.0.1')).toMatchObject({ blocked: true, by: 'account' });
  // The owner, at another address, is not locked out.
  expect(await two.check('mallory@example.test', '10.9.9.9')).toEqual({ blocked: false });
  // Another throttle (namespace) and another account are not affected.
  const signups = new LoginThrottle(clock, settings, new PgSignInFailuresRepository(pools.b), 'signup');
  expect(await signups.check('mallory@example.test', '10.0.0.1')).toEqual({ blocked: false });
  expect(await one.check('alice@example.test', '10.0.0.1')).toEqual({ blocked: false });
  // The oldest failure leaves the window first.
  clock.advance(settings.throttleWindowMs - 5000);
  expect(await two.check('mallory@example.test', '10.0.0.1')).toEqual({ blocked: false });
  // A correct password clears the account's counts on every instance.
  await one.recordFailure('bob@example.test', '10.1.1.1');
  await two.recordSuccess('bob@example.test', '10.1.1.1');
  expect(Number((await pools.a.query("SELECT count(*) AS n FROM sign_in_failures WHERE key LIKE 'signin:%bob@example.test'")).rows[0].n)).toBe(0);
});
