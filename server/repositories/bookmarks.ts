import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { FullTextIndex } from './fts.js';

/** Bookmark writes: create, update (incl. highlights), move, remove, bulk. (Filled in by the bookmarks work.) */
export class BookmarksRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}
}
