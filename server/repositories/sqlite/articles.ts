import type { Db } from '../../db/open.js';
import { isoNow, type Clock } from '../../clock.js';
import { TRASH } from '../../../lib/api/constants.js';
import { packArticle, unpackArticle } from '../article-codec.js';
import {
  ARTICLE_LEASE_MS,
  type ArticleRow,
  type ArticleSource,
  type ArticleState,
  type ArticlesRepository,
  type DueArticle,
  type ExtractedArticle,
} from '../types/index.js';

type StoredRow = Omit<ArticleRow, 'html' | 'text'>;

/**
 * Bytes of packed article per `article_content` row: with its key, a part stays under the 1,002
 * bytes a WITHOUT ROWID row may keep in a 4 KB page before spilling, so four share a page.
 */
const PART_BYTES = 960;

/** Page text on SQLite: `article_texts` rows and the contentless `article_fts` index (rowid = bookmark id). */
export class SqliteArticlesRepository implements ArticlesRepository {
  private readonly stmt;

  constructor(private db: Db, private clock: Clock) {
    this.stmt = {
      get: db.prepare(
        `SELECT bookmark_id, status, error, title, byline, site_name, length, truncated, page_count,
                source, attempts, next_attempt_at, updated_at FROM article_texts WHERE bookmark_id = ?`,
      ),
      parts: db.prepare('SELECT data FROM article_content WHERE bookmark_id = ? ORDER BY part').pluck(),
      dropParts: db.prepare('DELETE FROM article_content WHERE bookmark_id = ?'),
      addPart: db.prepare('INSERT INTO article_content (bookmark_id, part, data) VALUES (?, ?, ?)'),
      current: db.prepare('SELECT status, source FROM article_texts WHERE bookmark_id = ?'),
      bookmarkExists: db.prepare('SELECT 1 FROM bookmarks WHERE id = ?'),
      upsert: db.prepare(
        `INSERT INTO article_texts (bookmark_id, status, error, title, byline, site_name, length, truncated,
                                    page_count, source, attempts, next_attempt_at, locked_until, updated_at)
         VALUES (@id, 'indexed', '', @title, @byline, @siteName, @length, @truncated,
                 @pageCount, @source, 0, NULL, NULL, @now)
         ON CONFLICT (bookmark_id) DO UPDATE SET
           status = 'indexed', error = '', title = excluded.title, byline = excluded.byline,
           site_name = excluded.site_name, length = excluded.length,
           truncated = excluded.truncated, page_count = excluded.page_count, source = excluded.source,
           attempts = 0, next_attempt_at = NULL, locked_until = NULL, updated_at = excluded.updated_at`,
      ),
      unindex: db.prepare('DELETE FROM article_fts WHERE rowid = ?'),
      index: db.prepare('INSERT INTO article_fts (rowid, text) VALUES (?, ?)'),
      none: db.prepare(
        `UPDATE article_texts SET status = 'none', error = ?, title = '', byline = '', site_name = '',
                length = 0, truncated = 0, page_count = NULL, next_attempt_at = NULL, locked_until = NULL,
                updated_at = ? WHERE bookmark_id = ?`,
      ),
      failed: db.prepare(
        `UPDATE article_texts SET status = 'failed', error = ?, next_attempt_at = ?, locked_until = NULL, updated_at = ?
          WHERE bookmark_id = ?`,
      ),
      pending: db.prepare(
        `UPDATE article_texts SET status = 'pending', error = '', attempts = 0, next_attempt_at = ?, locked_until = NULL,
                updated_at = ? WHERE bookmark_id = ?`,
      ),
      due: db.prepare(
        `SELECT a.bookmark_id AS bookmarkId, b.link AS link, b.user_id AS userId, a.attempts + 1 AS attempts
           FROM article_texts a JOIN bookmarks b ON b.id = a.bookmark_id
          WHERE a.next_attempt_at IS NOT NULL AND a.next_attempt_at <= @now
            AND (a.locked_until IS NULL OR a.locked_until <= @now) AND b.collection_id <> ${TRASH}
          ORDER BY a.next_attempt_at, a.bookmark_id LIMIT @limit`,
      ),
      lease: db.prepare('UPDATE article_texts SET attempts = attempts + 1, locked_until = ? WHERE bookmark_id = ?'),
      release: db.prepare(
        'UPDATE article_texts SET attempts = max(0, attempts - 1), locked_until = NULL WHERE bookmark_id = ? AND locked_until IS NOT NULL',
      ),
      nextDue: db.prepare(
        `SELECT min(max(a.next_attempt_at, coalesce(a.locked_until, 0))) AS at
           FROM article_texts a JOIN bookmarks b ON b.id = a.bookmark_id
          WHERE a.next_attempt_at IS NOT NULL AND b.collection_id <> ${TRASH}`,
      ),
    };
  }

  async get(bookmarkId: number): Promise<ArticleRow | null> {
    const row = this.stmt.get.get(bookmarkId) as StoredRow | undefined;
    if (!row) return null;
    return { ...row, ...(await unpackArticle(this.packed(bookmarkId))) };
  }

  async states(bookmarkIds: number[]): Promise<Map<number, ArticleState>> {
    const out = new Map<number, ArticleState>();
    if (bookmarkIds.length === 0) return out;
    const rows = this.db
      .prepare(`SELECT bookmark_id, status, error FROM article_texts WHERE bookmark_id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(bookmarkIds)) as { bookmark_id: number; status: ArticleState['status']; error: string }[];
    for (const r of rows) out.set(r.bookmark_id, { status: r.status, error: r.error });
    return out;
  }

  async matchingTexts(bookmarkIds: number[], terms: string[][]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (bookmarkIds.length === 0 || terms.length === 0) return out;
    // Folded words hold letters and digits only: quoting them as FTS5 strings is safe.
    const match = terms.map((t) => `"${t.join(' ')}"`).join(' OR ');
    const ids = this.db
      .prepare('SELECT rowid FROM article_fts WHERE article_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))')
      .pluck()
      .all(match, JSON.stringify(bookmarkIds)) as number[];
    const articles = await Promise.all(ids.map((id) => unpackArticle(this.packed(id))));
    ids.forEach((id, i) => out.set(id, articles[i]!.text));
    return out;
  }

  /** The packed article of a bookmark, its parts joined; null when none is stored. */
  private packed(bookmarkId: number): Buffer | null {
    const parts = this.stmt.parts.all(bookmarkId) as Buffer[];
    return parts.length === 0 ? null : Buffer.concat(parts);
  }

  async store(bookmarkId: number, extracted: ExtractedArticle, source: ArticleSource): Promise<boolean> {
    // Compressed before the write transaction opens, off the event loop.
    const content = await packArticle(extracted.html, extracted.text);
    const tx = this.db.transaction((): boolean => {
      if (!this.stmt.bookmarkExists.get(bookmarkId)) return false;
      const current = this.stmt.current.get(bookmarkId) as { status: string; source: string } | undefined;
      if (source === 'server' && current?.source === 'extension' && current.status === 'indexed') return false;
      this.stmt.upsert.run({
        id: bookmarkId,
        title: extracted.title,
        byline: extracted.byline,
        siteName: extracted.siteName,
        length: extracted.text.length,
        truncated: extracted.truncated ? 1 : 0,
        pageCount: extracted.pageCount ?? null,
        source,
        now: isoNow(this.clock),
      });
      this.stmt.dropParts.run(bookmarkId);
      for (let at = 0, part = 0; content && at < content.length; at += PART_BYTES, part++) {
        this.stmt.addPart.run(bookmarkId, part, content.subarray(at, at + PART_BYTES));
      }
      this.stmt.unindex.run(bookmarkId);
      if (extracted.text !== '') this.stmt.index.run(bookmarkId, extracted.text);
      return true;
    });
    return tx.immediate();
  }

  async markNone(bookmarkId: number, reason: string): Promise<void> {
    this.db.transaction(() => {
      this.stmt.none.run(reason, isoNow(this.clock), bookmarkId);
      this.stmt.dropParts.run(bookmarkId);
      this.stmt.unindex.run(bookmarkId);
    }).immediate();
  }

  async markFailed(bookmarkId: number, reason: string, nextAttemptAt: number | null): Promise<void> {
    this.stmt.failed.run(reason, nextAttemptAt, isoNow(this.clock), bookmarkId);
  }

  async markPending(bookmarkIds: number[]): Promise<void> {
    const now = this.clock.now();
    const iso = new Date(now).toISOString();
    this.db.transaction(() => {
      for (const id of bookmarkIds) this.stmt.pending.run(now, iso, id);
    }).immediate();
  }

  async claimDue(limit: number, now: number, leaseMs = ARTICLE_LEASE_MS): Promise<DueArticle[]> {
    const tx = this.db.transaction(() => {
      const rows = this.stmt.due.all({ now, limit }) as DueArticle[];
      for (const r of rows) this.stmt.lease.run(now + leaseMs, r.bookmarkId);
      return rows;
    });
    return tx.immediate();
  }

  async release(bookmarkIds: number[]): Promise<void> {
    this.db.transaction(() => {
      for (const id of bookmarkIds) this.stmt.release.run(id);
    }).immediate();
  }

  async nextDueAt(): Promise<number | null> {
    return (this.stmt.nextDue.get() as { at: number | null }).at;
  }
}
