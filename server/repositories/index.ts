import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import { AccessRepository } from './access.js';
import { BookmarkExportRepository } from './bookmark-export.js';
import { BookmarkQueriesRepository } from './bookmark-queries.js';
import { BookmarksRepository } from './bookmarks.js';
import { CollectionsRepository } from './collections.js';
import { FilesRepository } from './files.js';
import { FullTextIndex } from './fts.js';
import { HighlightsRepository } from './highlights.js';
import { IdempotencyRepository } from './idempotency.js';
import { ImportRunsRepository } from './import-runs.js';
import { JobsRepository } from './jobs.js';
import { LinksRepository } from './links.js';
import { createOAuthRepositories, type OAuthRepositories } from './oauth.js';
import { SharingRepository } from './sharing.js';
import { StatsRepository } from './stats.js';
import { TagsRepository } from './tags.js';
import { TokensRepository } from './tokens.js';
import { UsersRepository } from './users.js';

/**
 * Every data access the service makes. SQL lives only in these modules, so another backend
 * (PostgreSQL) can be added by implementing them again without touching routes.
 */
export interface Repositories {
  db: Db;
  fts: FullTextIndex;
  users: UsersRepository;
  tokens: TokensRepository;
  access: AccessRepository;
  collections: CollectionsRepository;
  bookmarks: BookmarksRepository;
  bookmarkQueries: BookmarkQueriesRepository;
  bookmarkExport: BookmarkExportRepository;
  highlights: HighlightsRepository;
  tags: TagsRepository;
  stats: StatsRepository;
  sharing: SharingRepository;
  oauth: OAuthRepositories;
  files: FilesRepository;
  jobs: JobsRepository;
  links: LinksRepository;
  idempotency: IdempotencyRepository;
  importRuns: ImportRunsRepository;
}

export function createRepositories(db: Db, clock: Clock): Repositories {
  const fts = new FullTextIndex(db);
  return {
    db,
    fts,
    users: new UsersRepository(db, clock),
    tokens: new TokensRepository(db, clock),
    access: new AccessRepository(db),
    collections: new CollectionsRepository(db, clock, fts),
    bookmarks: new BookmarksRepository(db, clock, fts),
    bookmarkQueries: new BookmarkQueriesRepository(db, clock, fts),
    bookmarkExport: new BookmarkExportRepository(db),
    highlights: new HighlightsRepository(db, clock, fts),
    tags: new TagsRepository(db, clock, fts),
    stats: new StatsRepository(db),
    sharing: new SharingRepository(db, clock),
    oauth: createOAuthRepositories(db, clock),
    files: new FilesRepository(db, clock),
    jobs: new JobsRepository(db, clock, fts),
    links: new LinksRepository(db),
    idempotency: new IdempotencyRepository(db),
    importRuns: new ImportRunsRepository(db, clock),
  };
}
