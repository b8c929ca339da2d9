// Highlights listed across bookmarks (their writes go through the bookmark).
import type { HighlightListItem } from '../../../lib/api/types.js';
import type { BookmarkScope } from './bookmarks.js';

/** Highlight listings across bookmarks. (Writes go through PUT /bookmark/{id}, see bookmarks.ts.) */
export interface HighlightsRepository {
  /** One page of the highlights on the scope's bookmarks, newest first. */
  list(scope: BookmarkScope, page: number, perpage: number): Promise<HighlightListItem[]>;
}
