// A fresh PostgreSQL database for one test file, copied from the run's migrated template
// (tests/setup/postgres.ts). Dropped by `drop()`.
import type pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { connectPool } from '../../server/db/postgres/pool.js';

const TEMPLATE_DB = 'tidemark_template';
let seq = 0;

export interface TestPgDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = inject('pgAdminUrl');
  if (!url) throw new Error(`The test PostgreSQL cluster did not start: ${inject('pgProblem')}`);
  return url;
}

/** `schema: 'migrated'` copies the template (the default); `'empty'` is a database without tables. */
export async function createTestDatabase(opts: { schema?: 'migrated' | 'empty' } = {}): Promise<TestPgDatabase> {
  const admin = adminUrl();
  const name = `t_${process.pid}_${Date.now().toString(36)}_${++seq}`;
  const pool = await connectPool(admin, { max: 1 });
  try {
    await pool.query(opts.schema === 'empty' ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  } finally {
    await pool.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const p = await connectPool(admin, { max: 1 });
      try {
        await p.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await p.end();
      }
    },
  };
}

/**
 * A fresh database reached by two connection pools, standing in for two server instances, for the
 * duration of the calling test file (made in beforeAll, closed and dropped in afterAll).
 */
export function twoInstancePools(maxPerPool: number): { readonly a: pg.Pool; readonly b: pg.Pool; readonly url: string } {
  let target: TestPgDatabase | undefined;
  const pools: { a?: pg.Pool; b?: pg.Pool } = {};
  beforeAll(async () => {
    target = await createTestDatabase();
    pools.a = await connectPool(target.url, { max: maxPerPool });
    pools.b = await connectPool(target.url, { max: maxPerPool });
  }, 60_000);
  afterAll(async () => {
    await pools.a?.end();
    await pools.b?.end();
    await target?.drop();
  });
  const ready = (p: pg.Pool | undefined): pg.Pool => {
    if (!p) throw new Error('The two-instance pools are made in beforeAll: use them inside a test.');
    return p;
  };
  return {
    get a() {
      return ready(pools.a);
    },
    get b() {
      return ready(pools.b);
    },
    /** The database's URL (for a connection of its own, such as an instance's LISTEN connection). */
    get url() {
      if (!target) throw new Error('The two-instance database is made in beforeAll: use it inside a test.');
      return target.url;
    },
  };
}
