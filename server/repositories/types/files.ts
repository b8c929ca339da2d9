// Uploaded files, covers and permanent page copies, and the error of a full storage quota.

/** A `files` row: an uploaded file or cover. `path` is relative to <dataDir>/files/. */
export interface FileRow {
  id: string;
  user_id: number;
  kind: 'file' | 'cover';
  bookmark_id: number | null;
  collection_id: number | null;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  path: string;
  created: string;
}

/** A `bookmark_caches` row: the permanent copy of a bookmark's page. */
export interface CacheRow {
  bookmark_id: number;
  user_id: number;
  source: 'server' | 'upload';
  size: number;
  sha256: string;
  path: string;
  page_url: string;
  created: string;
}

export interface NewFile {
  id: string;
  userId: number;
  kind: FileRow['kind'];
  bookmarkId?: number | null;
  collectionId?: number | null;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  path: string;
}

/** The upload does not fit in the owner's storage. */
export class QuotaExceededError extends Error {
  constructor(
    readonly used: number,
    readonly quota: number,
    readonly needed: number,
  ) {
    super('file storage quota exceeded');
  }
}

/**
 * Files, covers and permanent copies as rows. The bytes are on disk (services/files/storage.ts);
 * triggers keep `users.files_used` equal to the sum of the owner's file sizes and list the paths
 * of removed rows in `file_garbage` for the job runner to delete.
 */
export interface FilesRepository {
  /** Bytes used and the quota, or undefined for an unknown user. */
  usage(userId: number): Promise<{
    used: number;
    quota: number;
  } | undefined>;
  /** Sets a user's storage quota in bytes. */
  setQuota(userId: number, bytes: number): Promise<void>;
  /**
   * Records a stored file against its owner's quota. Throws QuotaExceededError (nothing written)
   * when it does not fit; `freeing` names bytes this upload replaces (an old cover), which count
   * as free. Check and insert are one transaction, so two uploads cannot both squeeze in.
   */
  add(file: NewFile, freeing?: number): Promise<FileRow>;
  get(id: string): Promise<FileRow | undefined>;
  /** Removes the row (its bytes are queued for deletion and the quota freed by triggers). */
  remove(id: string): Promise<void>;
  /** Links an uploaded file to the bookmark made for it. */
  attachToBookmark(fileId: string, bookmarkId: number): Promise<void>;
  /** The bookmark's files of one kind, oldest first. */
  ofBookmark(bookmarkId: number, kind: FileRow['kind']): Promise<FileRow[]>;
  /** Size of the cover files a new cover of this bookmark or collection would replace. */
  coverBytes(target: {
    bookmarkId?: number;
    collectionId?: number;
  }): Promise<number>;
  /** Removes the older cover files of the bookmark or collection that `keepId` now covers. */
  dropOtherCovers(target: {
    bookmarkId?: number;
    collectionId?: number;
  }, keepId: string): Promise<void>;
  /** The bookmark's permanent copy, or undefined. */
  cacheOf(bookmarkId: number): Promise<CacheRow | undefined>;
  /**
   * Records (or replaces) a bookmark's permanent copy. Returns false, writing nothing, when the
   * bookmark is gone; the caller then deletes the bytes it stored.
   */
  saveCache(copy: Omit<CacheRow, 'created'>): Promise<boolean>;
  /** Up to `limit` paths of removed files still on disk. */
  garbage(limit?: number): Promise<string[]>;
  forgetGarbage(path: string): Promise<void>;
  /** Removes uploads that never got their bookmark (the process stopped in between), older than `ageMs`. */
  dropOrphans(ageMs: number): Promise<number>;
}
