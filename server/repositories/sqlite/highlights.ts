import type { HighlightListItem } from '../../../lib/api/types.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import type { FullTextIndex } from './fts.js';
import { toHighlightListItem, type HighlightRow } from '../bookmark-records.js';
import { TRASH } from '../../../lib/api/constants.js';
import { scopeSql } from './bookmark-queries.js';
import { type BookmarkScope, type HighlightsRepository } from '../types/index.js';

/**
 * The scope as a condition over `highlights h JOIN bookmarks b`. A user's own highlights are
 * found through `highlights.user_id` (the bookmark owner, kept in step by the bookmark writes), so
 * SQLite walks the (user_id, created) index newest first and stops after one page.
 */
function highlightScope(scope: BookmarkScope): { sql: string; params: unknown[] } {
  if (scope.kind === 'user' && !scope.sharedCollectionIds?.length) {
    return { sql: scope.includeTrash ? 'h.user_id = ?' : `h.user_id = ? AND +b.collection_id <> ${TRASH}`, params: [scope.userId] };
  }
  if (scope.kind === 'system') {
    return { sql: 'h.user_id = ? AND b.user_id = ? AND b.collection_id = ?', params: [scope.userId, scope.userId, scope.collectionId] };
  }
  return scopeSql(scope);
}

/** Highlight listings across bookmarks. (Writes go through PUT /bookmark/{id}, see bookmarks.ts.) */
export class SqliteHighlightsRepository implements HighlightsRepository {
  constructor(protected db: Db, protected clock: Clock, protected fts: FullTextIndex) {}

  /** One page of the highlights on the scope's bookmarks, newest first. */
  async list(scope: BookmarkScope, page: number, perpage: number): Promise<HighlightListItem[]> {
    const s = highlightScope(scope);
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
