// Background jobs (reading a saved page) and what they fill in.
import type { Media } from '../../../lib/api/types.js';
import type { BookmarkRow } from './bookmarks.js';

/** A `jobs` row. */
export interface JobRow {
  id: number;
  kind: string;
  payload: string;
  dedupe_key: string | null;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  next_run_at: number;
  locked_until: number | null;
  last_error: string | null;
  outcome: string | null;
  created_at: number;
  finished_at: number | null;
}

/** Payload of a 'page' job. */
export interface PageJobPayload {
  bookmarkId: number;
  /** fill empty fields from the page (pleaseParse); without it only the permanent copy is made */
  parse: boolean;
  on: 'create' | 'update';
}

/** What a page reading found, to fill in where the bookmark still has its default. */
export interface PageFill {
  title?: string;
  excerpt?: string;
  type?: string;
  cover?: string;
  media?: Media[];
}

/**
 * The durable job table: claim due work with a lease, finish, retry with backoff, and write a
 * page reading's results into a bookmark without overwriting what its owner set.
 */
export interface JobsRepository {
  /**
   * Takes the next due job (queued and due, or running with an expired lease) and marks it running
   * until `now + leaseMs`, counting the attempt. One transaction, so two runners never take the same job.
   */
  claim(leaseMs: number): Promise<JobRow | undefined>;
  /** Lists jobs (newest first), optionally of one state; for tools and tests. */
  list(state?: JobRow['state']): Promise<JobRow[]>;
  /** Finished; `note` says what was done, or why nothing was (e.g. the bookmark is gone). */
  complete(id: number, note?: string | null): Promise<void>;
  /**
   * Records a failure: back to the queue after `retryInMs`, or failed for good when `retryInMs` is
   * null (no attempts left, or an error retrying cannot fix). A queued twin (same dedupe key, queued
   * while this one ran) makes a retry pointless: it will do the same work.
   */
  fail(id: number, error: string, retryInMs: number | null): Promise<'retry' | 'failed'>;
  /**
   * Gives a running job back without counting the attempt (the runner is stopping). If a twin got
   * queued meanwhile, this one is simply dropped as done: the twin covers it.
   */
  release(id: number): Promise<void>;
  /** Forgets finished jobs older than `ageMs`. */
  prune(ageMs: number): Promise<number>;
  /** The bookmark a page job works on, or undefined when it is gone. */
  bookmark(id: number): Promise<BookmarkRow | undefined>;
  /** Marks a bookmark's link broken (the page answered 404/410) or working again. */
  setBroken(bookmarkId: number, broken: boolean): Promise<void>;
  /**
   * Writes what the page reading found into fields that still hold their default, re-reading the
   * row in the same transaction so an edit made while the page was fetched is never overwritten:
   * title only when it is empty or the link itself, excerpt and cover only when empty (a cover of
   * `<screenshot>` is a request the owner made and stays), type only when `link`, media only when
   * there is none. Returns the names of the fields written.
   */
  fillFromPage(bookmarkId: number, fill: PageFill): Promise<string[]>;
}
