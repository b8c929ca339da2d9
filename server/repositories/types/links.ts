// The saved-link index (GET /links): what the extension matches pages against.
import type { LinkEntry } from '../../../lib/api/types.js';

/**
 * Reads for the saved-link index (GET /links). The change log `link_changes` is written by
 * triggers on `bookmarks` (migration 0005), so this repository only reads.
 */
export interface LinksRepository {
  /**
   * The newest change sequence number among `userId`'s own changes: a cursor that sees every later
   * change of theirs, and does not move when somebody else saves.
   */
  cursor(userId: number): Promise<number>;
  /** Saved (not removed) bookmarks of `userId` with an id above `afterId`, by id. */
  list(userId: number, afterId: number, limit: number): Promise<LinkEntry[]>;
  /**
   * Changes after `since`, oldest first: present ones as entries, the others as removed ids, and the
   * cursor to continue from. Read in one synchronous step, so no write can fall between the rows and
   * the cursor: when nothing is left for this user the cursor is their newest change.
   */
  changes(userId: number, since: number, limit: number): Promise<{
    items: LinkEntry[];
    removed: number[];
    cursor: number;
    more: boolean;
  }>;
}
