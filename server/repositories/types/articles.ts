// A saved page's readable text: one row per bookmark (made by a trigger when the bookmark is
// inserted, so every bookmark has one), its full-text index, and the queue of the server's text job.
import type { Article, ArticleStatus } from '../../../lib/api/schemas/article.js';

/** Who extracted the text: the page as the user saw it, or the server's own fetch. */
export type ArticleSource = 'extension' | 'server';

/** How long after its creation a new bookmark's row waits for the extension's upload before the job fetches the page. */
export const ARTICLE_PENDING_GRACE_MS = 15_000;

/** An `article_texts` row with its html and text decompressed. */
export interface ArticleRow {
  bookmark_id: number;
  status: ArticleStatus;
  /** why there is no text, for a person ("the site answered 403"); '' when indexed or pending */
  error: string;
  title: string;
  byline: string;
  site_name: string;
  html: string;
  text: string;
  /** characters of `text` */
  length: number;
  truncated: 0 | 1;
  page_count: number | null;
  source: ArticleSource | '';
  /** fetches the job has started on this row since its text was last stored */
  attempts: number;
  /** epoch ms the job may next take the row; null when it has nothing to do */
  next_attempt_at: number | null;
  /** ISO time of the last change of status or text; null when never */
  updated_at: string | null;
}

/**
 * What an extraction found (server/services/parse/): the article's own fields, its html sanitised,
 * its text capped (`truncated` when cut), `pageCount` for a PDF.
 */
export type ExtractedArticle = Pick<Article, 'title' | 'byline' | 'siteName' | 'html' | 'text' | 'truncated' | 'pageCount'>;

/** A bookmark whose text the server's job should fetch now. */
export interface DueArticle {
  bookmarkId: number;
  link: string;
  /** the bookmark's owner */
  userId: number;
  /** fetches started on it so far, this one included */
  attempts: number;
}

/** The state shown on a bookmark (`article` field of Bookmark). */
export interface ArticleState {
  status: ArticleStatus;
  error: string;
}

/**
 * Page text storage, its search index and the text job's queue. Names are stable: the text job
 * (services/article-text) and the article routes depend on them.
 *
 * The queue: a row is due when `next_attempt_at <= now` and no live lease holds it; `claimDue`
 * takes due rows with a lease (`locked_until`), so job runners in several server instances never
 * fetch the same page at once. There is no separate backfill: the migration gave every existing
 * bookmark a pending row due at once, and new bookmarks get one from the insert trigger.
 */
export interface ArticlesRepository {
  /** The row of a bookmark, text and html decompressed, or null when the bookmark does not exist. */
  get(bookmarkId: number): Promise<ArticleRow | null>;
  /** Status and error of each of these bookmarks that has a row (for `article` on listed bookmarks). */
  states(bookmarkIds: number[]): Promise<Map<number, ArticleState>>;
  /**
   * The page text of those of `bookmarkIds` whose text holds any of `terms` (each a phrase, as its
   * words folded by domain/search/page-text-terms.ts), decompressed: the texts search snippets are
   * cut from, read only for the results on the page.
   */
  matchingTexts(bookmarkIds: number[], terms: string[][]): Promise<Map<number, string>>;
  /**
   * Stores an extraction: status indexed, text and html replaced, index rewritten, the queue
   * cleared (attempts 0, no lease), all in one transaction. Text from the server's fetch never
   * replaces text the extension uploaded unless the row was asked for again (pending or failed):
   * returns false when it was skipped for that, or when the bookmark is gone.
   */
  store(bookmarkId: number, extracted: ExtractedArticle, source: ArticleSource): Promise<boolean>;
  /** No text to be had (an image, a binary file): status none with `reason`; stored text and index dropped. */
  markNone(bookmarkId: number, reason: string): Promise<void>;
  /**
   * The fetch failed: status failed with `reason`, lease released. With `nextAttemptAt` (epoch ms)
   * the job takes it again then; null means failed for good (until someone retries). Stored text
   * stays (and stays searchable): a failed refetch does not lose what was read before.
   */
  markFailed(bookmarkId: number, reason: string, nextAttemptAt: number | null): Promise<void>;
  /** Asks for these bookmarks' text again (retry, link changed): pending, due now, attempts 0, lease released. */
  markPending(bookmarkIds: number[]): Promise<void>;
  /**
   * Takes up to `limit` due rows (oldest due first) for the job, counting an attempt and leasing
   * each until `now + leaseMs`. Bookmarks in the Trash are left for later. Rows whose lease ran
   * out (a runner stopped mid-fetch) are due again.
   */
  claimDue(limit: number, now: number, leaseMs?: number): Promise<DueArticle[]>;
  /** Gives claimed rows back without counting the attempt (the runner is stopping). */
  release(bookmarkIds: number[]): Promise<void>;
  /** Epoch ms when the next row falls due (to sleep until then), or null when nothing is queued. */
  nextDueAt(): Promise<number | null>;
}

/** Lease a claimed row is held for when claimDue is given no `leaseMs`. */
export const ARTICLE_LEASE_MS = 5 * 60_000;
