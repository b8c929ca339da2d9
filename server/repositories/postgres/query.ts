import type pg from 'pg';
import { numberPlaceholders } from './search-sql.js';

/** A pool, or one pooled connection inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

// The PostgreSQL repositories write SQL with `?` placeholders (as the shared SQL and the search
// compiler do) and these number them `$1, $2, ...` on the way out.
//
// PostgreSQL text cannot hold U+0000 (SQLite's can): it is dropped from every text value on the way
// in, so a title, tag or search holding one is stored or looked up without it instead of failing.


/** `value` with U+0000 dropped from all its text, at any depth (an input before it becomes JSON text, or a parameter). */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '') : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNul(v)])) as T;
  }
  return value;
}

const params = (list: unknown[]) => list.map(withoutNul);

/** JSON text for a `?::json` parameter, U+0000 dropped from its strings (PostgreSQL refuses the escape `\u0000`). */
export function pgJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '') : v));
}

/** The rows of a query. */
export async function all<T extends pg.QueryResultRow>(c: Queryable, sql: string, values: unknown[] = []): Promise<T[]> {
  return (await c.query<T>(numberPlaceholders(sql), params(values))).rows;
}

/** The first row of a query, or undefined. */
export async function one<T extends pg.QueryResultRow>(c: Queryable, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await all<T>(c, sql, params))[0];
}

/** Runs a write; answers how many rows it touched. */
export async function run(c: Queryable, sql: string, values: unknown[] = []): Promise<number> {
  return (await c.query(numberPlaceholders(sql), params(values))).rowCount ?? 0;
}

/**
 * Takes transaction-scoped advisory locks on `keys` (text, hashed), in a fixed order so two
 * writers asking for overlapping keys never deadlock. Serialises what SQLite's single writer
 * serialised by itself, e.g. reading a collection's first position and then writing before it.
 */
export async function lockKeys(c: pg.PoolClient, keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
}
