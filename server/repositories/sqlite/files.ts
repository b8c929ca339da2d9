import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import { type CacheRow, type FileRow, type NewFile, QuotaExceededError, type FilesRepository } from '../types/index.js';

/**
 * Files, covers and permanent copies as rows. The bytes are on disk (services/files/storage.ts);
 * triggers keep `users.files_used` equal to the sum of the owner's file sizes and list the paths
 * of removed rows in `file_garbage` for the job runner to delete.
 */
export class SqliteFilesRepository implements FilesRepository {
  private readonly stmt;

  constructor(private db: Db, private clock: Clock) {
    this.stmt = {
      usage: db.prepare('SELECT files_used AS used, files_size AS quota FROM users WHERE id = ?'),
      insert: db.prepare(
        `INSERT INTO files (id, user_id, kind, bookmark_id, collection_id, name, mime, size, sha256, path, created)
         VALUES (@id, @user_id, @kind, @bookmark_id, @collection_id, @name, @mime, @size, @sha256, @path, @created)`,
      ),
      byId: db.prepare('SELECT * FROM files WHERE id = ?'),
      remove: db.prepare('DELETE FROM files WHERE id = ?'),
      attach: db.prepare('UPDATE files SET bookmark_id = ? WHERE id = ?'),
      ofBookmark: db.prepare('SELECT * FROM files WHERE bookmark_id = ? AND kind = ? ORDER BY created, id'),
      coversOfBookmark: db.prepare(`SELECT id FROM files WHERE bookmark_id = ? AND kind = 'cover' AND id <> ?`),
      coversOfCollection: db.prepare(`SELECT id FROM files WHERE collection_id = ? AND kind = 'cover' AND id <> ?`),
      cache: db.prepare('SELECT * FROM bookmark_caches WHERE bookmark_id = ?'),
      upsertCache: db.prepare(
        `INSERT INTO bookmark_caches (bookmark_id, user_id, source, size, sha256, path, page_url, created)
         VALUES (@bookmark_id, @user_id, @source, @size, @sha256, @path, @page_url, @created)
         ON CONFLICT (bookmark_id) DO UPDATE SET user_id = excluded.user_id, source = excluded.source, size = excluded.size,
           sha256 = excluded.sha256, path = excluded.path, page_url = excluded.page_url, created = excluded.created`,
      ),
      bookmarkExists: db.prepare('SELECT 1 FROM bookmarks WHERE id = ?'),
      garbage: db.prepare('SELECT path FROM file_garbage LIMIT ?'),
      forget: db.prepare('DELETE FROM file_garbage WHERE path = ?'),
      orphans: db.prepare(`SELECT id FROM files WHERE bookmark_id IS NULL AND collection_id IS NULL AND created < ?`),
      setQuota: db.prepare('UPDATE users SET files_size = ? WHERE id = ?'),
    };
  }

  /** Bytes used and the quota, or undefined for an unknown user. */
  async usage(userId: number): Promise<{ used: number; quota: number } | undefined> {
    return this.stmt.usage.get(userId) as { used: number; quota: number } | undefined;
  }

  /** Sets a user's storage quota in bytes. */
  async setQuota(userId: number, bytes: number): Promise<void> {
    this.stmt.setQuota.run(bytes, userId);
  }

  /**
   * Records a stored file against its owner's quota. Throws QuotaExceededError (nothing written)
   * when it does not fit; `freeing` names bytes this upload replaces (an old cover), which count
   * as free. Check and insert are one transaction, so two uploads cannot both squeeze in.
   */
  async add(file: NewFile, freeing = 0): Promise<FileRow> {
    const tx = this.db.transaction(() => {
      const usage = this.stmt.usage.get(file.userId) as { used: number; quota: number } | undefined;
      if (!usage) throw new Error(`no user ${file.userId}`);
      if (usage.used - freeing + file.size > usage.quota) {
        throw new QuotaExceededError(usage.used, usage.quota, file.size);
      }
      this.stmt.insert.run({
        id: file.id,
        user_id: file.userId,
        kind: file.kind,
        bookmark_id: file.bookmarkId ?? null,
        collection_id: file.collectionId ?? null,
        name: file.name,
        mime: file.mime,
        size: file.size,
        sha256: file.sha256,
        path: file.path,
        created: isoNow(this.clock),
      });
      return this.stmt.byId.get(file.id) as FileRow;
    });
    return tx.immediate();
  }

  async get(id: string): Promise<FileRow | undefined> {
    return this.stmt.byId.get(id) as FileRow | undefined;
  }

  /** Removes the row (its bytes are queued for deletion and the quota freed by triggers). */
  async remove(id: string): Promise<void> {
    this.stmt.remove.run(id);
  }

  /** Links an uploaded file to the bookmark made for it. */
  async attachToBookmark(fileId: string, bookmarkId: number): Promise<void> {
    this.stmt.attach.run(bookmarkId, fileId);
  }

  /** The bookmark's files of one kind, oldest first. */
  async ofBookmark(bookmarkId: number, kind: FileRow['kind']): Promise<FileRow[]> {
    return this.stmt.ofBookmark.all(bookmarkId, kind) as FileRow[];
  }

  /** Size of the cover files a new cover of this bookmark or collection would replace. */
  async coverBytes(target: { bookmarkId?: number; collectionId?: number }): Promise<number> {
    const sql = target.bookmarkId !== undefined
      ? `SELECT coalesce(sum(size), 0) AS n FROM files WHERE bookmark_id = ? AND kind = 'cover'`
      : `SELECT coalesce(sum(size), 0) AS n FROM files WHERE collection_id = ? AND kind = 'cover'`;
    return (this.db.prepare(sql).get(target.bookmarkId ?? target.collectionId) as { n: number }).n;
  }

  /** Removes the older cover files of the bookmark or collection that `keepId` now covers. */
  async dropOtherCovers(target: { bookmarkId?: number; collectionId?: number }, keepId: string): Promise<void> {
    const tx = this.db.transaction(() => {
      const rows = (target.bookmarkId !== undefined
        ? this.stmt.coversOfBookmark.all(target.bookmarkId, keepId)
        : this.stmt.coversOfCollection.all(target.collectionId, keepId)) as { id: string }[];
      for (const r of rows) this.stmt.remove.run(r.id);
    });
    tx();
  }

  /** The bookmark's permanent copy, or undefined. */
  async cacheOf(bookmarkId: number): Promise<CacheRow | undefined> {
    return this.stmt.cache.get(bookmarkId) as CacheRow | undefined;
  }

  /**
   * Records (or replaces) a bookmark's permanent copy. Returns false, writing nothing, when the
   * bookmark is gone; the caller then deletes the bytes it stored.
   */
  async saveCache(copy: Omit<CacheRow, 'created'>): Promise<boolean> {
    const tx = this.db.transaction(() => {
      if (!this.stmt.bookmarkExists.get(copy.bookmark_id)) return false;
      this.stmt.upsertCache.run({ ...copy, created: isoNow(this.clock) });
      return true;
    });
    return tx.immediate();
  }

  /** Up to `limit` paths of removed files still on disk. */
  async garbage(limit = 100): Promise<string[]> {
    return (this.stmt.garbage.all(limit) as { path: string }[]).map((r) => r.path);
  }

  async forgetGarbage(path: string): Promise<void> {
    this.stmt.forget.run(path);
  }

  /** Removes uploads that never got their bookmark (the process stopped in between), older than `ageMs`. */
  async dropOrphans(ageMs: number): Promise<number> {
    const before = new Date(this.clock.now() - ageMs).toISOString();
    const tx = this.db.transaction(() => {
      const rows = this.stmt.orphans.all(before) as { id: string }[];
      for (const r of rows) this.stmt.remove.run(r.id);
      return rows.length;
    });
    return tx();
  }
}
