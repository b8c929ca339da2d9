import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import { type CacheRow, type FileRow, type NewFile, QuotaExceededError, type FilesRepository } from '../types/index.js';
import { inTransaction } from './transaction.js';

/**
 * Files, covers and permanent copies as rows, on PostgreSQL. The bytes are in the file storage
 * (services/files/storage.ts); triggers keep `users.files_used` equal to the sum of the owner's file
 * sizes and list the paths of removed rows in `file_garbage` for the job runner to delete.
 */
export class PgFilesRepository implements FilesRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async usage(userId: number): Promise<{ used: number; quota: number } | undefined> {
    return (await this.pool.query<{ used: number; quota: number }>('SELECT files_used AS used, files_size AS quota FROM users WHERE id = $1', [userId]))
      .rows[0];
  }

  async setQuota(userId: number, bytes: number): Promise<void> {
    await this.pool.query('UPDATE users SET files_size = $1 WHERE id = $2', [bytes, userId]);
  }

  /**
   * Records a stored file against its owner's quota, or throws QuotaExceededError writing nothing.
   * The owner's row is locked for the check and the insert, so two uploads on any instances cannot
   * both squeeze into the last free bytes.
   */
  async add(file: NewFile, freeing = 0): Promise<FileRow> {
    return inTransaction(this.pool, async (client) => {
      const usage = (
        await client.query<{ used: number; quota: number }>('SELECT files_used AS used, files_size AS quota FROM users WHERE id = $1 FOR UPDATE', [file.userId])
      ).rows[0];
      if (!usage) throw new Error(`no user ${file.userId}`);
      if (usage.used - freeing + file.size > usage.quota) throw new QuotaExceededError(usage.used, usage.quota, file.size);
      const { rows } = await client.query<FileRow>(
        `INSERT INTO files (id, user_id, kind, bookmark_id, collection_id, name, mime, size, sha256, path, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
        [
          file.id,
          file.userId,
          file.kind,
          file.bookmarkId ?? null,
          file.collectionId ?? null,
          file.name,
          file.mime,
          file.size,
          file.sha256,
          file.path,
          isoNow(this.clock),
        ],
      );
      return rows[0];
    });
  }

  async get(id: string): Promise<FileRow | undefined> {
    return (await this.pool.query<FileRow>('SELECT * FROM files WHERE id = $1', [id])).rows[0];
  }

  async remove(id: string): Promise<void> {
    await this.pool.query('DELETE FROM files WHERE id = $1', [id]);
  }

  async attachToBookmark(fileId: string, bookmarkId: number): Promise<void> {
    await this.pool.query('UPDATE files SET bookmark_id = $1 WHERE id = $2', [bookmarkId, fileId]);
  }

  async ofBookmark(bookmarkId: number, kind: FileRow['kind']): Promise<FileRow[]> {
    return (await this.pool.query<FileRow>('SELECT * FROM files WHERE bookmark_id = $1 AND kind = $2 ORDER BY created, id', [bookmarkId, kind])).rows;
  }

  async coverBytes(target: { bookmarkId?: number; collectionId?: number }): Promise<number> {
    const column = target.bookmarkId !== undefined ? 'bookmark_id' : 'collection_id';
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT coalesce(sum(size), 0)::bigint AS n FROM files WHERE ${column} = $1 AND kind = 'cover'`,
      [target.bookmarkId ?? target.collectionId],
    );
    return rows[0].n;
  }

  async dropOtherCovers(target: { bookmarkId?: number; collectionId?: number }, keepId: string): Promise<void> {
    const column = target.bookmarkId !== undefined ? 'bookmark_id' : 'collection_id';
    await this.pool.query(`DELETE FROM files WHERE ${column} = $1 AND kind = 'cover' AND id <> $2`, [target.bookmarkId ?? target.collectionId, keepId]);
  }

  async cacheOf(bookmarkId: number): Promise<CacheRow | undefined> {
    return (await this.pool.query<CacheRow>('SELECT * FROM bookmark_caches WHERE bookmark_id = $1', [bookmarkId])).rows[0];
  }

  /** Records (or replaces) a permanent copy; false, writing nothing, when the bookmark is gone (its row is held meanwhile). */
  async saveCache(copy: Omit<CacheRow, 'created'>): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const exists = await client.query('SELECT 1 FROM bookmarks WHERE id = $1 FOR KEY SHARE', [copy.bookmark_id]);
      if (exists.rowCount === 0) return false;
      await client.query(
        `INSERT INTO bookmark_caches (bookmark_id, user_id, source, size, sha256, path, page_url, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (bookmark_id) DO UPDATE SET user_id = EXCLUDED.user_id, source = EXCLUDED.source, size = EXCLUDED.size,
           sha256 = EXCLUDED.sha256, path = EXCLUDED.path, page_url = EXCLUDED.page_url, created = EXCLUDED.created`,
        [copy.bookmark_id, copy.user_id, copy.source, copy.size, copy.sha256, copy.path, copy.page_url, isoNow(this.clock)],
      );
      return true;
    });
  }

  async garbage(limit = 100): Promise<string[]> {
    return (await this.pool.query<{ path: string }>('SELECT path FROM file_garbage LIMIT $1', [limit])).rows.map((r) => r.path);
  }

  async forgetGarbage(path: string): Promise<void> {
    await this.pool.query('DELETE FROM file_garbage WHERE path = $1', [path]);
  }

  async dropOrphans(ageMs: number): Promise<number> {
    const before = new Date(this.clock.now() - ageMs).toISOString();
    const res = await this.pool.query('DELETE FROM files WHERE bookmark_id IS NULL AND collection_id IS NULL AND created < $1', [before]);
    return res.rowCount ?? 0;
  }
}
