// The repository contract: the records, inputs and errors every database backend's repositories
// use, and the interface of each repository, one file per resource. Routes, services, plugins and
// commands see only these (through `app.repos`); the implementations live in ../sqlite and
// ../postgres. Field names follow the stored columns; flags are 0/1 numbers and list-valued columns
// JSON text, the same on every backend.
import type { AccessRepository } from './access.js';
import type { ArticlesRepository } from './articles.js';
import type { BookmarkQueriesRepository, BookmarksRepository } from './bookmarks.js';
import type { CollectionsRepository } from './collections.js';
import type { BookmarkExportRepository } from './export.js';
import type { FilesRepository } from './files.js';
import type { HighlightsRepository } from './highlights.js';
import type { IdempotencyRepository } from './idempotency.js';
import type { ImportRunsRepository } from './import-runs.js';
import type { JobsRepository } from './jobs.js';
import type { LinksRepository } from './links.js';
import type { OAuthRepositories } from './oauth.js';
import type { RateWindowsRepository, SignInFailuresRepository } from './rate-limits.js';
import type { SharingRepository } from './sharing.js';
import type { TagsRepository } from './tags.js';
import type { TokensRepository } from './tokens.js';
import type { StatsRepository, UsersRepository } from './users.js';

export * from './articles.js';
export * from './bookmarks.js';
export * from './highlights.js';
export * from './links.js';
export * from './export.js';
export * from './collections.js';
export * from './access.js';
export * from './files.js';
export * from './idempotency.js';
export * from './import-runs.js';
export * from './jobs.js';
export * from './oauth.js';
export * from './sessions.js';
export * from './sharing.js';
export * from './tokens.js';
export * from './users.js';
export * from './tags.js';
export * from './rate-limits.js';

/** Every data access the service makes, on whichever backend was opened (repositories/open.ts). */
export interface Repositories {
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
  rateWindows: RateWindowsRepository;
  signInFailures: SignInFailuresRepository;
  articles: ArticlesRepository;
}
