import type pg from 'pg';
import type { HighlightListItem } from '../../../lib/api/types.js';
import { TRASH } from '../../../lib/api/constants.js';
import { toHighlightListItem, type HighlightRow } from '../bookmark-records.js';
import type { BookmarkScope, HighlightsRepository } from '../types/index.js';
import { scopeCondition } from './bookmark-queries.js';
import { all } from './query.js';

/**
 * The scope as a condition over `highlights h JOIN bookmarks b`. A user's own highlights are found
 * through `highlights.user_id` (the bookmark owner, kept in step by the bookmark writes), so the
 * (user_id, created) index gives the newest first.
 */
function highlightScope(scope: BookmarkScope): { sql: string; params: unknown[] } {
  if (scope.kind === 'user' && !scope.sharedCollectionIds?.length) {
    return { sql: scope.includeTrash ? 'h.user_id = ?' : `h.user_id = ? AND b.collection_id <> ${TRASH}`, params: [scope.userId] };
  }
  if (scope.kind === 'system') return { sql: 'h.user_id = ? AND b.user_id = ? AND b.collection_id = ?', params: [scope.userId, scope.userId, scope.collectionId] };
  return scopeCondition(scope);
}

/** Highlight listings across bookmarks on PostgreSQL. (Writes go through the bookmarks repository.) */
export class PgHighlightsRepository implements HighlightsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** One page of the highlights on the scope's bookmarks, newest first (ties: the larger id first, as on SQLite). */
  async list(scope: BookmarkScope, page: number, perpage: number): Promise<HighlightListItem[]> {
    const s = highlightScope(scope);
    const rows = await all<HighlightRow & { link: string; title: string; tags: string }>(
      this.pool,
      `SELECT h.id, h.bookmark_id, h.user_id, h.text, h.note, h.color, h.position, h.prefix, h.suffix, h.created, h.last_update,
              b.link AS link, b.title AS title, b.tags AS tags
         FROM highlights h JOIN bookmarks b ON b.id = h.bookmark_id
        WHERE ${s.sql}
        ORDER BY h.created COLLATE "C" DESC, h.id COLLATE "C" DESC
        LIMIT ? OFFSET ?`,
      [...s.params, perpage, page * perpage],
    );
    return rows.map(toHighlightListItem);
  }
}
