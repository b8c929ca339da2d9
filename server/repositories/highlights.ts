import type { HighlightListItem } from '../../lib/api/types.js';
import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import type { FullTextIndex } from './fts.js';
import { toHighlightListItem, type HighlightRow } from './bookmark-rows.js';
import { scopeSql, type BookmarkScope } from './bookmark-queries.js';

/** Highlight listings across bookmarks. (Writes go through PUT /bookmark/{id}, see bookmarks.ts.) */
export class HighlightsRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}

  /** One page of the highlights on the scope's bookmarks, newest first. */
  async list(scope: BookmarkScope, page: number, perpage: number): Promise<HighlightListItem[]> {
    const s = scopeSql(scope);
    const rows = this.db
      .prepare(
        `SELECT h.*, b.link AS link, b.title AS title, b.tags AS tags
           FROM highlights h JOIN bookmarks b ON b.id = h.bookmark_id
          WHERE ${s.sql}
          ORDER BY h.created DESC, h.id DESC
          LIMIT ? OFFSET ?`,
      )
      .all(...s.params, perpage, page * perpage) as (HighlightRow & { link: string; title: string; tags: string })[];
    return rows.map(toHighlightListItem);
  }
}
