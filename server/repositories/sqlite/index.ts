import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { SqliteAccessRepository } from './access.js';
import { SqliteArticlesRepository } from './articles.js';
import { SqliteBookmarkExportRepository } from './bookmark-export.js';
import { SqliteBookmarkQueriesRepository } from './bookmark-queries.js';
import { SqliteBookmarksRepository } from './bookmarks.js';
import { SqliteCollectionsRepository } from './collections.js';
import { SqliteFilesRepository } from './files.js';
import { FullTextIndex } from './fts.js';
import { SqliteHighlightsRepository } from './highlights.js';
import { SqliteIdempotencyRepository } from './idempotency.js';
import { SqliteImportRunsRepository } from './import-runs.js';
import { SqliteJobsRepository } from './jobs.js';
import { SqliteLinksRepository } from './links.js';
import { createOAuthRepositories } from './oauth.js';
import { MemoryRateWindowsRepository } from './rate-windows.js';
import { MemorySignInFailuresRepository } from './sign-in-failures.js';
import type { Repositories } from '../types/index.js';
import { SqliteSharingRepository } from './sharing.js';
import { SqliteStatsRepository } from './stats.js';
import { SqliteTagsRepository } from './tags.js';
import { SqliteTokensRepository } from './tokens.js';
import { SqliteUsersRepository } from './users.js';

/** The SQLite implementation of every repository, on one open connection. */
export function createSqliteRepositories(db: Db, clock: Clock): Repositories {
  const fts = new FullTextIndex(db);
  return {
    users: new SqliteUsersRepository(db, clock),
    tokens: new SqliteTokensRepository(db, clock),
    access: new SqliteAccessRepository(db),
    collections: new SqliteCollectionsRepository(db, clock, fts),
    bookmarks: new SqliteBookmarksRepository(db, clock, fts),
    bookmarkQueries: new SqliteBookmarkQueriesRepository(db, clock, fts),
    bookmarkExport: new SqliteBookmarkExportRepository(db),
    highlights: new SqliteHighlightsRepository(db, clock, fts),
    tags: new SqliteTagsRepository(db, clock, fts),
    stats: new SqliteStatsRepository(db),
    sharing: new SqliteSharingRepository(db, clock),
    oauth: createOAuthRepositories(db, clock),
    files: new SqliteFilesRepository(db, clock),
    jobs: new SqliteJobsRepository(db, clock, fts),
    links: new SqliteLinksRepository(db),
    idempotency: new SqliteIdempotencyRepository(db),
    importRuns: new SqliteImportRunsRepository(db, clock),
    rateWindows: new MemoryRateWindowsRepository(clock),
    signInFailures: new MemorySignInFailuresRepository(),
    articles: new SqliteArticlesRepository(db, clock),
  };
}
