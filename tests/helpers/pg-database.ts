// A fresh PostgreSQL database for one test file, copied from the run's migrated template
// (tests/setup/postgres.ts). Dropped by `drop()`.
import { inject } from 'vitest';
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
