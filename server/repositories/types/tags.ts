// Tags: counts, rename, merge, remove, suggestions.
import type { Tag, TagSuggestion } from '../../../lib/api/types.js';
import type { BookmarkScope } from './bookmarks.js';

/** Tags: counts, rename, merge, remove, suggestions. */
export interface TagsRepository {
  /**
   * Tags on the scope's bookmarks with how many bookmarks carry each, sorted by name. Spellings
   * that differ only in case are one entry, named by the most used spelling.
   */
  list(scope: BookmarkScope): Promise<Tag[]>;
  /**
   * Renames `from` (one tag) or merges them (several) into `to` on the scope's bookmarks. Spellings
   * of `to` that differ only in case become `to` too. Returns the ids of the bookmarks changed.
   */
  rename(scope: BookmarkScope, from: string[], to: string): Promise<number[]>;
  /** Removes the tags from the scope's bookmarks. Returns the ids of the bookmarks changed. */
  remove(scope: BookmarkScope, tags: string[]): Promise<number[]>;
  /**
   * Up to `limit` of the owner's existing tags that fit the bookmark, best first, none it already
   * has. Evidence: tags on the owner's other bookmarks of the same domain (strongest), a tag whose
   * words appear in the bookmark's title, excerpt or link path, and tags of the owner's bookmarks
   * most similar in text (full-text ranking on the title's words). No outside service is asked.
   *
   * `forUserId` is whose tags and bookmarks the evidence comes from (default: the bookmark's owner).
   * A collaborator asking about a bookmark in a shared collection gets suggestions from their own
   * library, so the owner's tags elsewhere are never shown to them.
   */
  suggest(bookmarkId: number, limit?: number, forUserId?: number): Promise<TagSuggestion[]>;
}
