import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { FullTextIndex } from './fts.js';

/** Bookmark reads: listing, search, sorting, paging. (Filled in by the listing/search work.) */
export class BookmarkQueriesRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}
}
