import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { FullTextIndex } from './fts.js';

/** Highlight listings across bookmarks. (Writes go through PUT /bookmark/{id}, see bookmarks.ts.) */
export class HighlightsRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}
}
