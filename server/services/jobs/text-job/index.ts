import pino, { type Logger } from 'pino';
import type { ServerConfig } from '../../../config.js';
import type { DueArticle, ExtractedArticle, Repositories } from '../../../repositories/index.js';
import { ARTICLE_TEXT_MAX_CHARS } from '../../parse/article-text.js';
import { ParseRefused, type ParsePool } from '../../parse-pool/index.js';
import type { TextFailure } from './failure-reason.js';
import type { FileStorage } from '../../files/storage.js';
import { PoliteFetcher, type FetchedDocument } from './polite-fetch.js';
import { uploadedFile } from './uploaded-file.js';
import { backoffDelay, createPollingLoop } from '../polling-loop.js';

// The text job: reads the page of every bookmark the extension did not send text for, and stores
// its readable text for search and the reader. It is its own loop over `articles.claimDue`, not a
// kind of row in the `jobs` table: each bookmark's text row already is its queue entry (due time,
// attempts, a lease for several instances), made by the database for every new bookmark and, by the
// migration, for every existing one (the backfill). Job rows beside them would be a second copy of
// that state to keep in step.

export interface TextJob {
  start(): void;
  /** Stops claiming, cancels fetches and extractions in progress (their rows go back uncounted), and waits for them. */
  stop(): Promise<void>;
}

/** Who the parse pool charges the job's extractions to: all of them share one user's share of the workers. */
const POOL_OWNER = 'text-job';

/** A refused extraction as a reason; too slow may pass on a quieter server, the others stay so. */
function refusalFailure(error: ParseRefused): TextFailure {
  switch (error.code) {
    case 'too_slow':
      return { status: 'failed', reason: `the page took too long to read: ${error.message}`, retry: true };
    case 'too_much_memory':
      return { status: 'failed', reason: `the page is too large to read: ${error.message}`, retry: false };
    case 'too_deep':
      return { status: 'failed', reason: `the page cannot be read: ${error.message}`, retry: false };
    default:
      return { status: 'failed', reason: error.message, retry: false };
  }
}

export function createTextJob(config: ServerConfig, repos: Repositories, store: FileStorage, parsePool: ParsePool, log?: Logger): TextJob {
  const settings = config.textJob;
  const clock = config.clock;
  const logger = log ?? pino({ level: config.logLevel, name: 'text-job' });
  const articles = repos.articles;
  const fetcher = new PoliteFetcher({
    hostDelayMs: settings.hostDelayMs,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxBytes,
    allowPrivateNetwork: config.allowPrivateNetwork,
  });

  /** The readable text of what was fetched, worked out in the parse pool (never on this thread). */
  async function extract(document: FetchedDocument, signal: AbortSignal): Promise<ExtractedArticle> {
    const bytes = new Uint8Array(document.bytes.buffer, document.bytes.byteOffset, document.bytes.byteLength);
    const { contentType, finalUrl: url } = document;
    // A body that owns its whole buffer moves to the worker instead of being copied (megabytes, on this thread).
    const transfer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [];
    const extracted =
      document.kind === 'html'
        ? await parsePool.run(POOL_OWNER, 'article-text', { html: { bytes, contentType }, url }, { signal, transfer })
        : await parsePool.run(POOL_OWNER, 'document-text', { bytes, contentType, kind: document.kind, url, maxChars: ARTICLE_TEXT_MAX_CHARS }, { signal, transfer });
    return { ...extracted, truncated: extracted.truncated || document.truncated };
  }

  async function recordFailure(due: DueArticle, failure: TextFailure): Promise<void> {
    if (failure.status === 'none') {
      await articles.markNone(due.bookmarkId, failure.reason);
      return;
    }
    const again = failure.retry && due.attempts < settings.maxAttempts;
    const wait = Math.max(backoffDelay(due.attempts, settings.backoffMs, settings.maxBackoffMs), Math.min(failure.retryAfterMs ?? 0, settings.maxBackoffMs));
    await articles.markFailed(due.bookmarkId, failure.reason, again ? clock.now() + wait : null);
    logger.info({ bookmark: due.bookmarkId, attempt: due.attempts, reason: failure.reason, retryInMs: again ? wait : null }, 'page text not read');
  }

  async function readText(due: DueArticle, signal: AbortSignal): Promise<void> {
    // An uploaded file is read from the storage; its link is never fetched.
    const fetched = (await uploadedFile(repos.files, store, due.bookmarkId, settings.maxBytes)) ?? (await fetcher.fetch(due.link, signal));
    if (!fetched.ok) return recordFailure(due, fetched.failure);
    let extracted;
    try {
      extracted = await extract(fetched.document, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof ParseRefused) return recordFailure(due, refusalFailure(error));
      throw error;
    }
    if (!extracted.text.trim()) {
      return recordFailure(due, {
        status: 'none',
        reason: 'the page shows no text without running its scripts; saving it from the browser extension keeps what you see',
        retry: false,
      });
    }
    const stored = await articles.store(due.bookmarkId, extracted, 'server');
    logger.debug({ bookmark: due.bookmarkId, stored, length: extracted.text.length }, 'page text read');
  }

  function launch(due: DueArticle): void {
    const signal = loop.signal;
    const running = readText(due, signal)
      .catch(async (error) => {
        if (signal.aborted) {
          // Stopping: the row goes back uncounted; the next start (or another instance) reads it.
          await articles.release([due.bookmarkId]);
          return;
        }
        // A fault in this code or the task: said on the bookmark, tried again after a backoff.
        logger.error({ err: error, bookmark: due.bookmarkId }, 'reading page text failed');
        await recordFailure(due, { status: 'failed', reason: 'the page could not be read because of an error on the server; it is tried again later', retry: true });
      })
      .catch((error) => logger.error({ err: error, bookmark: due.bookmarkId }, 'text job bookkeeping failed'));
    loop.track(due.bookmarkId, running);
  }

  async function look(): Promise<void> {
    // Bounded batches: never more rows in hand than the concurrency, so a backfill of thousands
    // waits in the table, not in memory, and the rest of the server is never starved.
    while (!loop.stopping && loop.running < settings.concurrency) {
      const claimed = await articles.claimDue(settings.concurrency - loop.running, clock.now(), settings.leaseMs);
      for (const due of claimed) {
        if (loop.stopping) await articles.release([due.bookmarkId]);
        else launch(due);
      }
      if (claimed.length === 0) break;
    }
  }

  const loop = createPollingLoop(settings.pollMs, look, (error) => logger.error({ err: error }, 'text job tick failed'));
  return {
    start() {
      if (settings.enabled) loop.start();
    },
    stop: () => loop.stop(),
  };
}
