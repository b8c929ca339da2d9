import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { PgSessionsRepository } from './sessions.js';
import { PgTokensRepository } from './tokens.js';
import { PgUsersRepository } from './users.js';

// API tokens and web sessions on PostgreSQL: a revocation through one instance is refused by the
// other at once (nothing is cached), secrets are stored hashed, expiry follows the clock.

const pools = twoInstancePools(4);
const clock = new TestClock();

it('a token revoked on one instance is refused by the other at once; expired tokens are refused', async () => {
  const user = await new PgUsersRepository(pools.a, clock).create({ email: 't@example.test', passwordHash: null });
  const one = new PgTokensRepository(pools.a, clock);
  const two = new PgTokensRepository(pools.b, clock);
  const { token, row } = await one.create({ userId: user.id, kind: 'test' });
  expect(row).toMatchObject({ user_id: user.id, kind: 'test', client_id: null, expires_at: null, revoked_at: null, created_at: clock.now() });
  expect(row.token_hash).not.toBe(token);
  expect((await two.findValid(token))?.id).toBe(row.id);
  await two.revoke(row.id);
  expect(await one.findValid(token)).toBeUndefined();
  const short = await one.create({ userId: user.id, kind: 'access', clientId: 'app', expiresAt: clock.now() + 1000 });
  expect(await two.findValid(short.token)).toBeDefined();
  clock.advance(1000);
  expect(await two.findValid(short.token)).toBeUndefined();
  expect((await one.listForUser(user.id)).map((t) => t.id)).toEqual([short.row.id]);
  expect(await one.findValid('not-a-token')).toBeUndefined();
});

it('sessions end one by one or all but one; the server key is the same for every instance', async () => {
  const user = await new PgUsersRepository(pools.a, clock).create({ email: 's@example.test', passwordHash: null });
  const one = new PgSessionsRepository(pools.a, clock);
  const two = new PgSessionsRepository(pools.b, clock);
  const a = await one.create({ userId: user.id, ttlMs: 60_000, userAgent: 'x'.repeat(400) });
  expect(a.row.user_agent).toHaveLength(300);
  const b = await two.create({ userId: user.id, ttlMs: 60_000 });
  const c = await two.create({ userId: user.id, ttlMs: 60_000 });
  expect((await two.findValid(a.token))?.id).toBe(a.row.id);
  await two.revoke(a.row.id);
  expect(await one.findValid(a.token)).toBeUndefined();
  expect(await one.revokeAllForUser(user.id, c.row.id)).toBe(1);
  expect(await two.findValid(b.token)).toBeUndefined();
  expect(await two.findValid(c.token)).toBeDefined();
  clock.advance(60_000);
  expect(await two.findValid(c.token)).toBeUndefined();
  expect(await one.revokeAllForUser(user.id)).toBe(1);

  const keys = await Promise.all([one.serverKey('csrf'), two.serverKey('csrf'), one.serverKey('csrf'), two.serverKey('csrf')]);
  expect(new Set(keys).size).toBe(1);
  expect(keys[0].length).toBeGreaterThan(20);
  expect(await two.serverKey('other')).not.toBe(keys[0]);
});
