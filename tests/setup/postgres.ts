// vitest globalSetup: one throwaway PostgreSQL cluster for the whole run, with a template database
// already migrated, so each test file gets a fresh database in milliseconds (CREATE DATABASE ...
// TEMPLATE). Test files reach it through tests/helpers/pg-database.ts.
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

export default async function setup(project: TestProject): Promise<() => void> {
  let cluster: PgCluster | undefined;
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
