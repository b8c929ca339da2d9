import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { TestClock } from '../../../tests/helpers/server.js';
import { PgOAuthHandoffsRepository } from './oauth-handoffs.js';

// Consent hand-offs on PostgreSQL: made by one instance, taken once by another, only by their user
// and before they expire; ids are stored hashed.

const pools = twoInstancePools(2);
const clock = new TestClock();

it('a hand-off made on one instance is taken once on the other, by its user only, before it expires', async () => {
  const users = await pools.a.query<{ id: number }>(
    "INSERT INTO users (email, config, files_checkpoint, registered) VALUES ('h1@example.test', '{}', '', ''), ('h2@example.test', '{}', '', '') RETURNING id",
  );
  const [alice, bob] = users.rows.map((r) => r.id);
  const one = new PgOAuthHandoffsRepository(pools.a, clock);
  const two = new PgOAuthHandoffsRepository(pools.b, clock);
  const id = await one.create({ userId: alice, location: 'https://app.example/cb?code=x&state=s', ttlMs: 60_000 });
  expect((await pools.a.query('SELECT id_hash FROM oauth_handoffs')).rows[0].id_hash).not.toBe(id);
  expect(await two.take(id, bob)).toBeUndefined();
  expect(await two.take(id, alice)).toBe('https://app.example/cb?code=x&state=s');
  expect(await one.take(id, alice)).toBeUndefined();

  const late = await one.create({ userId: alice, location: 'https://app.example/cb?code=y', ttlMs: 60_000 });
  clock.advance(60_000);
  expect(await two.take(late, alice)).toBeUndefined();
  await one.create({ userId: bob, location: 'https://app.example/cb?code=z', ttlMs: 60_000 });
  expect(Number((await pools.a.query('SELECT count(*) AS n FROM oauth_handoffs')).rows[0].n)).toBe(1); // the expired one was forgotten
});
