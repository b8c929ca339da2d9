import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { Repositories } from '../types.js';
import { PgFilesRepository } from './files.js';
import { PgIdempotencyRepository } from './idempotency.js';
import { PgImportRunsRepository } from './import-runs.js';
import { PgJobsRepository } from './jobs.js';
import { PgLinksRepository } from './links.js';
import { createPgOAuthRepositories } from './oauth.js';
import { PgRateWindowsRepository } from './rate-windows.js';
import { PgSharingRepository } from './sharing.js';
import { PgSignInFailuresRepository } from './sign-in-failures.js';
import { PgTokensRepository } from './tokens.js';
import { PgUsersRepository } from './users.js';

/** The repositories still without a PostgreSQL implementation (empty once issue #13's backend is complete). */
export const NOT_YET_ON_POSTGRES: string[] = [];

/**
 * A repository whose PostgreSQL implementation has not landed yet: every call fails with a message
 * saying so (answered as a 500 and logged). Replaced one by one as the implementations land.
 */
function notYetOnPostgres<T extends object>(name: string): T {
  if (!NOT_YET_ON_POSTGRES.includes(name)) NOT_YET_ON_POSTGRES.push(name);
  return new Proxy({} as T, {
    get(_target, method) {
      if (typeof method !== 'string' || method === 'then') return undefined;
      return () => Promise.reject(new Error(`${name}.${method} is not available on PostgreSQL yet (issue #13): run on SQLite (--data) for now.`));
    },
  });
}

/** The PostgreSQL implementation of every repository, on one connection pool shared by all of them. */
export function createPostgresRepositories(pool: pg.Pool, clock: Clock): Repositories {
  return {
    users: new PgUsersRepository(pool, clock),
    tokens: new PgTokensRepository(pool, clock),
    access: notYetOnPostgres('access'),
    collections: notYetOnPostgres('collections'),
    bookmarks: notYetOnPostgres('bookmarks'),
    bookmarkQueries: notYetOnPostgres('bookmarkQueries'),
    bookmarkExport: notYetOnPostgres('bookmarkExport'),
    highlights: notYetOnPostgres('highlights'),
    tags: notYetOnPostgres('tags'),
    stats: notYetOnPostgres('stats'),
    sharing: new PgSharingRepository(pool, clock),
    oauth: createPgOAuthRepositories(pool, clock),
    files: new PgFilesRepository(pool, clock),
    jobs: new PgJobsRepository(pool, clock),
    links: new PgLinksRepository(pool),
    idempotency: new PgIdempotencyRepository(pool),
    importRuns: new PgImportRunsRepository(pool, clock),
    rateWindows: new PgRateWindowsRepository(pool, clock),
    signInFailures: new PgSignInFailuresRepository(pool),
  };
}
