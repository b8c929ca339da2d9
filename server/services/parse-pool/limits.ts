import type { TaskName } from './tasks.js';

/** The limits every parse of untrusted input runs under (docs/operations.md, "Parse limits", states them). */
export interface ParsePoolLimits {
  /** worker threads at most */
  workers: number;
  /** workers one user's tasks may hold at once; the others stay free for everyone else */
  perUser: number;
  /** each worker's JavaScript heap; a task needing more fails as too_much_memory */
  heapMb: number;
  /** longest a task may run, per task, from the moment its worker starts it */
  timeoutMs: Record<TaskName, number>;
  /** an idle worker beyond the first is ended after this long (the first stays) */
  idleMs: number;
  /** a worker whose heap holds more than this after a task is ended rather than kept */
  retireHeapMb: number;
}

export const DEFAULT_PARSE_LIMITS: ParsePoolLimits = {
  workers: 2,
  perUser: 1,
  heapMb: 1024,
  timeoutMs: {
    // a 5 MB page reads in about 2 s
    'page-metadata': 15_000,
    // includes fetching up to 100 images and the stylesheets, each under the fetch timeout
    'archive-copy': 60_000,
    // a 50 MB export (260,000 bookmarks) converts in 10 to 30 s, more on a busy machine
    'import-convert': 120_000,
    // pdf.js reads a 20 MB PDF of text in a few seconds; one built to be slow stops here
    'document-text': 60_000,
    // Readability and the sanitiser on a 5 MB page take a few seconds
    'article-text': 30_000,
  },
  idleMs: 10_000,
  retireHeapMb: 256,
};
