import type pg from 'pg';
import { isoNow, type Clock } from '../../clock.js';
import { TRASH } from '../../../lib/api/constants.js';
import { CACHE_NEUTRAL } from '../../db/postgres/change-feed.js';
import { packHtml, unpackHtml } from '../article-codec.js';
import { holdsAnyTerm } from '../../domain/search/snippet.js';
import {
  ARTICLE_LEASE_MS,
  type ArticleRow,
  type ArticleSource,
  type ArticleState,
  type ArticlesRepository,
  type DueArticle,
  type ExtractedArticle,
} from '../types/index.js';

type StoredRow = Omit<ArticleRow, 'html' | 'text'> & { html: Buffer | null; text: string | null };

/** The text's words as the GIN index article_texts_search holds them (the same expression, so the index serves it). */
export const ARTICLE_WORDS = "to_tsvector('tidemark', tidemark_words(text))";

/** bigint columns come back as strings from pg; the row's numbers are numbers on both backends. */
function num(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

/**
 * Page text on PostgreSQL. Every statement is CACHE_NEUTRAL: no read cache holds page text or its
 * state (the `article` field is read fresh), and the text job's polling must not empty them.
 * The text's words are indexed by an expression GIN index (migration 0011), not a stored tsvector.
 */
export class PgArticlesRepository implements ArticlesRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async get(bookmarkId: number): Promise<ArticleRow | null> {
    const { rows } = await this.pool.query<StoredRow>(
      `SELECT bookmark_id, status, error, title, byline, site_name, html, text, length, truncated, page_count,
              source, attempts, next_attempt_at, updated_at FROM article_texts WHERE bookmark_id = $1`,
      [bookmarkId],
    );
    const row = rows[0];
    if (!row) return null;
    const text = row.text ?? '';
    const html = await unpackHtml(row.html, text);
    return {
      ...row,
      bookmark_id: Number(row.bookmark_id),
      next_attempt_at: num(row.next_attempt_at),
      truncated: row.truncated ? 1 : 0,
      html,
      text,
    };
  }

  async states(bookmarkIds: number[]): Promise<Map<number, ArticleState>> {
    const out = new Map<number, ArticleState>();
    if (bookmarkIds.length === 0) return out;
    const { rows } = await this.pool.query<{ bookmark_id: string; status: ArticleState['status']; error: string }>(
      'SELECT bookmark_id, status, error FROM article_texts WHERE bookmark_id = ANY($1::bigint[])',
      [bookmarkIds],
    );
    for (const r of rows) out.set(Number(r.bookmark_id), { status: r.status, error: r.error });
    return out;
  }

  async matchingTexts(bookmarkIds: number[], terms: string[][]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (bookmarkIds.length === 0 || terms.length === 0) return out;
    // Checked here rather than with the index: for a page of results, reading their texts costs
    // less than PostgreSQL turning each into a tsvector again to confirm the match.
    const { rows } = await this.pool.query<{ id: string; text: string }>(
      "SELECT bookmark_id AS id, text FROM article_texts WHERE bookmark_id = ANY($1::bigint[]) AND status = 'indexed' AND text IS NOT NULL",
      [bookmarkIds],
    );
    for (const r of rows) if (holdsAnyTerm(r.text, terms)) out.set(Number(r.id), r.text);
    return out;
  }

  async store(bookmarkId: number, extracted: ExtractedArticle, source: ArticleSource): Promise<boolean> {
    const html = await packHtml(extracted.html, extracted.text);
    // One statement: the insert-or-update and its guard are atomic without an explicit transaction.
    // Server text never replaces text the extension uploaded unless the row was asked for again.
    const { rowCount } = await this.pool.query(
      `${CACHE_NEUTRAL} INSERT INTO article_texts AS a (bookmark_id, status, error, title, byline, site_name, html, text, length,
              truncated, page_count, source, attempts, next_attempt_at, locked_until, updated_at)
       SELECT b.id, 'indexed', '', $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, NULL, NULL, $11
         FROM bookmarks b WHERE b.id = $1
       ON CONFLICT (bookmark_id) DO UPDATE SET
         status = 'indexed', error = '', title = excluded.title, byline = excluded.byline, site_name = excluded.site_name,
         html = excluded.html, text = excluded.text, length = excluded.length, truncated = excluded.truncated,
         page_count = excluded.page_count, source = excluded.source, attempts = 0, next_attempt_at = NULL,
         locked_until = NULL, updated_at = excluded.updated_at
       WHERE excluded.source = 'extension' OR a.source <> 'extension' OR a.status <> 'indexed'`,
      [
        bookmarkId,
        extracted.title,
        extracted.byline,
        extracted.siteName,
        html,
        extracted.text === '' ? null : extracted.text,
        extracted.text.length,
        extracted.truncated ? 1 : 0,
        extracted.pageCount ?? null,
        source,
        isoNow(this.clock),
      ],
    );
    return (rowCount ?? 0) > 0;
  }

  async markNone(bookmarkId: number, reason: string): Promise<void> {
    await this.pool.query(
      `${CACHE_NEUTRAL} UPDATE article_texts SET status = 'none', error = $1, title = '', byline = '', site_name = '',
              html = NULL, text = NULL, length = 0, truncated = 0, page_count = NULL,
              next_attempt_at = NULL, locked_until = NULL, updated_at = $2
        WHERE bookmark_id = $3`,
      [reason, isoNow(this.clock), bookmarkId],
    );
  }

  async markFailed(bookmarkId: number, reason: string, nextAttemptAt: number | null): Promise<void> {
    await this.pool.query(
      `${CACHE_NEUTRAL} UPDATE article_texts SET status = 'failed', error = $1, next_attempt_at = $2, locked_until = NULL,
              updated_at = $3 WHERE bookmark_id = $4`,
      [reason, nextAttemptAt, isoNow(this.clock), bookmarkId],
    );
  }

  async markPending(bookmarkIds: number[]): Promise<void> {
    if (bookmarkIds.length === 0) return;
    const now = this.clock.now();
    await this.pool.query(
      `${CACHE_NEUTRAL} UPDATE article_texts SET status = 'pending', error = '', attempts = 0, next_attempt_at = $1,
              locked_until = NULL, updated_at = $2 WHERE bookmark_id = ANY($3::bigint[])`,
      [now, new Date(now).toISOString(), bookmarkIds],
    );
  }

  async claimDue(limit: number, now: number, leaseMs = ARTICLE_LEASE_MS): Promise<DueArticle[]> {
    // SKIP LOCKED: instances claiming at the same moment take different rows and never wait on each other.
    const { rows } = await this.pool.query<{ bookmark_id: string; link: string; user_id: string; attempts: number }>(
      `${CACHE_NEUTRAL} UPDATE article_texts a SET attempts = a.attempts + 1, locked_until = $2
         FROM bookmarks b
        WHERE b.id = a.bookmark_id AND a.bookmark_id IN (
              SELECT d.bookmark_id FROM article_texts d JOIN bookmarks db ON db.id = d.bookmark_id
               WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $1
                 AND (d.locked_until IS NULL OR d.locked_until <= $1) AND db.collection_id <> ${TRASH}
               ORDER BY d.next_attempt_at, d.bookmark_id LIMIT $3
               FOR UPDATE OF d SKIP LOCKED)
        RETURNING a.bookmark_id, b.link, b.user_id, a.attempts`,
      [now, now + leaseMs, limit],
    );
    return rows
      .map((r) => ({ bookmarkId: Number(r.bookmark_id), link: r.link, userId: Number(r.user_id), attempts: r.attempts }))
      .sort((x, y) => x.bookmarkId - y.bookmarkId);
  }

  async release(bookmarkIds: number[]): Promise<void> {
    if (bookmarkIds.length === 0) return;
    await this.pool.query(
      `${CACHE_NEUTRAL} UPDATE article_texts SET attempts = greatest(0, attempts - 1), locked_until = NULL
        WHERE bookmark_id = ANY($1::bigint[]) AND locked_until IS NOT NULL`,
      [bookmarkIds],
    );
  }

  async nextDueAt(): Promise<number | null> {
    const { rows } = await this.pool.query<{ at: string | null }>(
      `SELECT min(greatest(a.next_attempt_at, coalesce(a.locked_until, 0))) AS at
         FROM article_texts a JOIN bookmarks b ON b.id = a.bookmark_id
        WHERE a.next_attempt_at IS NOT NULL AND b.collection_id <> ${TRASH}`,
    );
    return num(rows[0]?.at);
  }
}
