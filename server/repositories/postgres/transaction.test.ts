import { expect, it } from 'vitest';
import { twoInstancePools } from '../../../tests/helpers/pg-database.js';
import { inTransaction } from './transaction.js';

// Two writers that lock the same rows in opposite orders deadlock; PostgreSQL aborts one of them.
// inTransaction runs the aborted one again, so both writes land and neither caller sees an error.

const pools = twoInstancePools(2);

/** Resolves once both callers reached it: makes the two transactions hold their first lock together. */
function barrier(parties: number): () => Promise<void> {
  let waiting = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++waiting === parties) release();
    return all;
  };
}

it('a transaction aborted by a deadlock is run again, and both writers succeed', async () => {
  await pools.a.query('CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int NOT NULL)');
  await pools.a.query('INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)');
  const meet = barrier(2);
  const attempts = { a: 0, b: 0 };
  const writer = (pool: typeof pools.a, name: 'a' | 'b', first: number, second: number) =>
    inTransaction(pool, async (c) => {
      attempts[name]++;
      await c.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = $1', [first]);
      if (attempts[name] === 1) await meet(); // only the first attempt waits for the other writer
      await c.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = $1', [second]);
      return name;
    });

  const results = await Promise.all([writer(pools.a, 'a', 1, 2), writer(pools.b, 'b', 2, 1)]);

  expect(results).toEqual(['a', 'b']);
  expect(attempts.a + attempts.b).toBe(3); // exactly one of them was aborted and ran again
  const rows = (await pools.a.query<{ id: number; n: number }>('SELECT id, n FROM deadlock_probe ORDER BY id')).rows;
  expect(rows).toEqual([
    { id: 1, n: 2 },
    { id: 2, n: 2 },
  ]);
});

it('other errors are not retried: the caller sees them at once and nothing is written', async () => {
  await pools.a.query('CREATE TABLE unique_probe (id int PRIMARY KEY)');
  let attempts = 0;
  await expect(
    inTransaction(pools.a, async (c) => {
      attempts++;
      await c.query('INSERT INTO unique_probe VALUES (1)');
      await c.query('INSERT INTO unique_probe VALUES (1)');
    }),
  ).rejects.toMatchObject({ code: '23505' });
  expect(attempts).toBe(1);
  expect((await pools.a.query('SELECT count(*)::int AS n FROM unique_probe')).rows[0].n).toBe(0);
});
