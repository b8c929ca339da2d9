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

type StoredRow = Omit<ArticleRow, 'html' | 'text'> & { content: Buffer | null };

/** Page text on SQLite: `article_texts` rows and the contentless `article_fts` index (rowid = bookmark id). */
export class SqliteArticlesRepository implements ArticlesRepository {
  private readonly stmt;

  constructor(private db: Db, private clock: Clock) {
    this.stmt = {
      get: db.prepare(
        `SELECT bookmark_id, status, error, title, byline, site_name, content, length, truncated, page_count,
                source, attempts, next_attempt_at, updated_at FROM article_texts WHERE bookmark_id = ?`,
      ),
      current: db.prepare('SELECT status, source FROM article_texts WHERE bookmark_id = ?'),
      bookmarkExists: db.prepare('SELECT 1 FROM bookmarks WHERE id = ?'),
      upsert: db.prepare(
        `INSERT INTO article_texts (bookmark_id, status, error, title, byline, site_name, content, length, truncated,
                                    page_count, source, attempts, next_attempt_at, locked_until, updated_at)
         VALUES (@id, 'indexed', '', @title, @byline, @siteName, @content, @length, @truncated,
                 @pageCount, @source, 0, NULL, NULL, @now)
         ON CONFLICT (bookmark_id) DO UPDATE SET
           status = 'indexed', error = '', title = excluded.title, byline = excluded.byline,
           site_name = excluded.site_name, content = excluded.content, length = excluded.length,
           truncated = excluded.truncated, page_count = excluded.page_count, source = excluded.source,
           attempts = 0, next_attempt_at = NULL, locked_until = NULL, updated_at = excluded.updated_at`,
      ),
      unindex: db.prepare('DELETE FROM article_fts WHERE rowid = ?'),
      index: db.prepare('INSERT INTO article_fts (rowid, text) VALUES (?, ?)'),
      none: db.prepare(
        `UPDATE article_texts SET status = 'none', error = ?, title = '', byline = '', site_name = '', content = NULL,
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
    const stored = this.stmt.get.get(bookmarkId) as StoredRow | undefined;
    if (!stored) return null;
    const { content, ...row } = stored;
    return { ...row, ...(await unpackArticle(content)) };
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
    const rows = this.db
      .prepare(
        `SELECT a.bookmark_id AS id, a.content FROM article_texts a
          WHERE a.bookmark_id IN (SELECT f.rowid FROM article_fts f WHERE article_fts MATCH ? AND f.rowid IN (SELECT value FROM json_each(?)))`,
      )
      .all(match, JSON.stringify(bookmarkIds)) as { id: number; content: Buffer | null }[];
    const articles = await Promise.all(rows.map((r) => unpackArticle(r.content)));
    rows.forEach((r, i) => out.set(r.id, articles[i]!.text));
    return out;
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
        content,
        length: extracted.text.length,
        truncated: extracted.truncated ? 1 : 0,
        pageCount: extracted.pageCount ?? null,
        source,
        now: isoNow(this.clock),
      });
      this.stmt.unindex.run(bookmarkId);
      if (extracted.text !== '') this.stmt.index.run(bookmarkId, extracted.text);
      return true;
    });
    return tx.immediate();
  }

  async markNone(bookmarkId: number, reason: string): Promise<void> {
    this.db.transaction(() => {
      this.stmt.none.run(reason, isoNow(this.clock), bookmarkId);
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
