import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { FullTextIndex } from './fts.js';

/** Tags: counts, rename, merge, remove, suggestions. */
export class TagsRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}
}
