import type pg from 'pg';
import { numberPlaceholders } from './search-sql.js';

/** A pool, or one pooled connection inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

// The PostgreSQL repositories write SQL with `?` placeholders (as the shared SQL and the search
// compiler do) and these number them `$1, $2, ...` on the way out.

/** The rows of a query. */
export async function all<T extends pg.QueryResultRow>(c: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await c.query<T>(numberPlaceholders(sql), params)).rows;
}

/** The first row of a query, or undefined. */
export async function one<T extends pg.QueryResultRow>(c: Queryable, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await all<T>(c, sql, params))[0];
}

/** Runs a write; answers how many rows it touched. */
export async function run(c: Queryable, sql: string, params: unknown[] = []): Promise<number> {
  return (await c.query(numberPlaceholders(sql), params)).rowCount ?? 0;
}

/**
 * Takes transaction-scoped advisory locks on `keys` (text, hashed), in a fixed order so two
 * writers asking for overlapping keys never deadlock. Serialises what SQLite's single writer
 * serialised by itself, e.g. reading a collection's first position and then writing before it.
 */
export async function lockKeys(c: pg.PoolClient, keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
}
