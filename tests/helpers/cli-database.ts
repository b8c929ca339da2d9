// For test files that run `serve` and the CLI as processes on a data directory of their own: on the
// PostgreSQL run (TIDEMARK_TEST_BACKEND=postgres) those processes get a fresh database of the run's
// cluster through TIDEMARK_DATABASE_URL, which every command reads when `--database` is not given.
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestPgDatabase } from './pg-database.js';
import { onPostgres } from './server.js';

/** Call at the top of the test file: the processes it starts use the run's backend. */
export function processesOnTestBackend(): void {
  if (!onPostgres) return;
  let database: TestPgDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    process.env.TIDEMARK_DATABASE_URL = database.url;
  });
  afterAll(async () => {
    delete process.env.TIDEMARK_DATABASE_URL;
    await database?.drop();
  });
}
