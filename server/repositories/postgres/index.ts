import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { noCaches, type CacheSignals } from '../../db/read-cache.js';
import type { Repositories } from '../types/index.js';
import { PgAccessRepository } from './access.js';
import { PgArticlesRepository } from './articles.js';
import { PgBookmarkExportRepository } from './bookmark-export.js';
import { PgBookmarkQueriesRepository } from './bookmark-queries.js';
import { PgBookmarksRepository } from './bookmarks.js';
import { PgCollectionsRepository } from './collections.js';
import { PgFilesRepository } from './files.js';
import { PgHighlightsRepository } from './highlights.js';
import { PgIdempotencyRepository } from './idempotency.js';
import { PgImportRunsRepository } from './import-runs.js';
import { PgJobsRepository } from './jobs.js';
import { PgLinksRepository } from './links.js';
import { createPgOAuthRepositories } from './oauth.js';
import { PgRateWindowsRepository } from './rate-windows.js';
import { PgSharingRepository } from './sharing.js';
import { PgSignInFailuresRepository } from './sign-in-failures.js';
import { PgStatsRepository } from './stats.js';
import { PgTagsRepository } from './tags.js';
import { PgTokensRepository } from './tokens.js';
import { PgUsersRepository } from './users.js';

/**
 * The PostgreSQL implementation of every repository, on one connection pool shared by all of them.
 * `signals` (a PgChangeFeed's) turns the read caches on; without it every read goes to the database.
 */
export function createPostgresRepositories(pool: pg.Pool, clock: Clock, signals: CacheSignals = noCaches): Repositories {
  return {
    users: new PgUsersRepository(pool, clock),
    tokens: new PgTokensRepository(pool, clock, signals),
    access: new PgAccessRepository(pool, signals),
    collections: new PgCollectionsRepository(pool, clock),
    bookmarks: new PgBookmarksRepository(pool, clock, signals),
    bookmarkQueries: new PgBookmarkQueriesRepository(pool),
    bookmarkExport: new PgBookmarkExportRepository(pool),
    highlights: new PgHighlightsRepository(pool),
    tags: new PgTagsRepository(pool, clock),
    stats: new PgStatsRepository(pool),
    sharing: new PgSharingRepository(pool, clock),
    oauth: createPgOAuthRepositories(pool, clock),
    files: new PgFilesRepository(pool, clock),
    jobs: new PgJobsRepository(pool, clock),
    links: new PgLinksRepository(pool),
    idempotency: new PgIdempotencyRepository(pool),
    importRuns: new PgImportRunsRepository(pool, clock),
    rateWindows: new PgRateWindowsRepository(pool, clock),
    signInFailures: new PgSignInFailuresRepository(pool),
    articles: new PgArticlesRepository(pool, clock),
  };
}
