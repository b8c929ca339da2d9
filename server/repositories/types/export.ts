// Reads for exports: folders and bookmarks in keyset-paged batches.
import type { Bookmark } from '../../../lib/api/types.js';
import type { BookmarkScope } from './bookmarks.js';

/** A collection as an export folder: its id, title and parent (null at the top of the export). */
export interface ExportFolder {
  id: number;
  title: string;
  parentId: number | null;
}

/** Reads for exports (GET /bookmarks/{id}/export.*), in keyset-paged batches. */
export interface BookmarkExportRepository {
  /**
   * The collections the scope covers, in listing order (sort descending, then id), each with its
   * parent when that parent is in the scope too (otherwise null: a top folder of the export).
   */
  folders(scope: BookmarkScope): Promise<ExportFolder[]>;
  /**
   * The bookmarks of one collection of the scope matching `search`, newest first, in batches of
   * `batchSize`, each batch with highlights and attachments. `collectionId` is a collection id
   * from `folders`, or -1 / -99 for the owner's Unsorted / Trash (then `ownerId` is required).
   */
  bookmarksOf(collectionId: number, opts: { ownerId?: number; search?: string; batchSize?: number }): AsyncGenerator<Bookmark[]>;
}
