import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { FullTextIndex } from './fts.js';

/** Collections: tree, counts, ordering, merge, clean. (Filled in by the collections work.) */
export class CollectionsRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}
}
