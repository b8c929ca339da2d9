import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing';
import { COMMON, SERVER_LANE, TIMEOUTS } from './vitest.config';

// The server suite again on the PostgreSQL backend (`npm run test:server-postgres`, which sets
// TIDEMARK_TEST_BACKEND=postgres): every server a test starts through tests/helpers/server.ts gets a
// fresh database copied from the run's migrated template, and so do the processes of a file that
// calls processesOnTestBackend() (tests/helpers/cli-database.ts) or opens its stores by onPostgres.
// Files that do none of these (parsers, SQLite's own durability) have nothing to run again.
const SERVER_TESTS = 'tests/server';

/** About SQLite itself, each for its reason. */
const SQLITE_ONLY = new Set([
  'checkpoints.test.ts', // WAL checkpoints
  'read-cache.test.ts', // the PRAGMA data_version read cache (PostgreSQL has no cache to test)
  'backup.test.ts', // the SQLite online-backup archive (PostgreSQL: pg_dump, refused with a message)
  'migrate-data.test.ts', // its source is a SQLite installation by definition; its target is PostgreSQL on every run
  'database-outage.test.ts', // runs its own PostgreSQL cluster on every run already
  'health.test.ts', // /ready on PostgreSQL runs its own cluster (stopped by the test) on every run already
]);

const root = path.dirname(new URL(import.meta.url).pathname);
const include = fs
  .readdirSync(path.join(root, SERVER_TESTS))
  .filter((f) => f.endsWith('.test.ts') && !SQLITE_ONLY.has(f))
  .filter((f) => /startServer\(|processesOnTestBackend\(|onPostgres/.test(fs.readFileSync(path.join(root, SERVER_TESTS, f), 'utf8')))
  .map((f) => `${SERVER_TESTS}/${f}`);

export default defineConfig({
  plugins: [WxtVitest()],
  // Two files at a time, as the SQLite lane (each file gets its own database of the one cluster).
  test: { ...TIMEOUTS, ...COMMON, ...SERVER_LANE, pool: 'forks', include, maxWorkers: 2 },
});
