// vitest globalSetup: one throwaway PostgreSQL cluster for the whole run, with a template database
// already migrated, so each test file gets a fresh database in milliseconds (CREATE DATABASE ...
// TEMPLATE). Test files reach it through tests/helpers/pg-database.ts.
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectPool } from '../../server/db/postgres/pool.js';
import { migratePostgres } from '../../server/db/postgres/migrate.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's cluster (`postgres` database), or '' when it could not start. */
    pgAdminUrl: string;
    /** Why the cluster could not start, for tests that need it. */
    pgProblem: string;
  }
}

export const TEMPLATE_DB = 'tidemark_template';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Every test file, and whether it asks for a PostgreSQL database (imports tests/helpers/pg-database.ts or pg-twin.ts). */
function testFiles(): { file: string; postgres: boolean }[] {
  const found: { file: string; postgres: boolean }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.test.ts')) found.push({ file: path.relative(ROOT, full), postgres: /pg-(database|twin)\.js/.test(fs.readFileSync(full, 'utf8')) });
    }
  };
  for (const dir of ['tests', 'server']) walk(path.join(ROOT, dir));
  return found;
}

/**
 * Whether this run includes a test that needs PostgreSQL: with file filters on the command line
 * (`vitest run tests/server/core.test.ts`), only when one of them matches such a file, so a run of
 * unrelated files does not start a cluster on a shared machine.
 */
function runNeedsPostgres(): boolean {
  // Server tests on the PostgreSQL backend (tests/helpers/server.ts) need it whatever the files.
  if (process.env.TIDEMARK_TEST_BACKEND === 'postgres') return true;
  const files = testFiles();
  // Arguments that select test files (an option's value, e.g. a reporter name, selects none).
  const filters = process.argv
    .slice(2)
    .map((a) => a.replace(/^\.\//, ''))
    .filter((a) => a !== 'run' && a !== 'watch' && !a.startsWith('-') && files.some((f) => f.file.includes(a)));
  if (filters.length === 0) return true;
  return filters.some((filter) => files.some((f) => f.postgres && f.file.includes(filter)));
}

export default async function setup(project: TestProject): Promise<() => void> {
  let cluster: PgCluster | undefined;
  if (!runNeedsPostgres()) {
    project.provide('pgAdminUrl', '');
    project.provide('pgProblem', 'this run was started for files that do not use PostgreSQL');
    return () => undefined;
  }
  try {
    cluster = await startPgCluster();
    const admin = await connectPool(cluster.url(), { max: 1 });
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.end();
    const template = await connectPool(cluster.url(TEMPLATE_DB), { max: 1 });
    await migratePostgres(template);
    await template.end();
    project.provide('pgAdminUrl', cluster.url());
    project.provide('pgProblem', '');
  } catch (err) {
    cluster?.stop();
    cluster = undefined;
    project.provide('pgAdminUrl', '');
    project.provide('pgProblem', (err as Error).message);
  }
  return () => cluster?.stop();
}
