import pino, { type Logger } from 'pino';
import type { ServerConfig } from '../../config.js';
import type { Repositories } from '../../repositories/index.js';
import type { JobRow, PageJobPayload } from '../../repositories/index.js';
import type { FileStorage } from '../files/storage.js';
import type { ParsePool } from '../parse-pool/index.js';
import { runPageJob, type JobOutcome } from './page-job.js';
import { backoffDelay, createPollingLoop } from './polling-loop.js';

/** Background work (page parsing for `pleaseParse`, permanent copies): durable, retried, survives restarts. */
export interface JobRunner {
  start(): void;
  /** Stops taking jobs, cancels the running ones (they go back to the queue uncounted) and waits for them. */
  stop(): Promise<void>;
}

const HOUSEKEEPING_MS = 60_000;
const ORPHAN_AGE_MS = 3600_000;
const FINISHED_JOB_AGE_MS = 7 * 24 * 3600_000;

/**
 * Polls the `jobs` table (every `config.jobs.pollMs` when idle, at once when a job finishes), runs
 * up to `config.jobs.concurrency` jobs at a time, and records each outcome: done; back to the
 * queue after an exponential backoff; or failed for good after `maxAttempts` (with last_error).
 * Jobs are rows, so a restart picks up where the last process stopped; a job whose process died
 * mid-run is taken up again once its lease expires. Timers are unref'd: the runner never keeps
 * a process alive on its own. Also deletes the bytes of removed files from the file storage.
 */
export function createJobRunner(config: ServerConfig, repos: Repositories, store: FileStorage, parsePool: ParsePool, log?: Logger): JobRunner {
  const settings = config.jobs;
  const logger = log ?? pino({ level: config.logLevel, name: 'jobs' });
  const { jobs, files } = repos;
  const deps = {
    jobs,
    files,
    users: repos.users,
    store,
    parsePool,
    allowPrivateNetwork: config.allowPrivateNetwork,
    timeoutMs: config.fetchTimeoutMs,
  };

  let lastHousekeeping = 0;

  async function execute(job: JobRow, signal: AbortSignal): Promise<JobOutcome> {
    switch (job.kind) {
      case 'page':
        return runPageJob(deps, JSON.parse(job.payload) as PageJobPayload, signal);
      default:
        return { ok: false, error: `unknown job kind "${job.kind}"`, retry: false };
    }
  }

  async function runJob(job: JobRow): Promise<void> {
    const signal = loop.signal;
    let outcome: JobOutcome;
    try {
      outcome = await execute(job, signal);
    } catch (error) {
      outcome = { ok: false, error: (error as Error).message || String(error), retry: true };
    }
    if (signal.aborted) {
      // Stopping: give the job back uncounted; the next start (or another process) runs it.
      await jobs.release(job.id);
      return;
    }
    if (outcome.ok) {
      await jobs.complete(job.id, outcome.note ?? null);
      logger.debug({ job: job.id, kind: job.kind, note: outcome.note }, 'job done');
      return;
    }
    const retryIn =
      outcome.retry && job.attempts < settings.maxAttempts
        ? backoffDelay(job.attempts, settings.backoffMs, settings.maxBackoffMs)
        : null;
    const state = await jobs.fail(job.id, outcome.error, retryIn);
    logger.info({ job: job.id, kind: job.kind, attempt: job.attempts, error: outcome.error, state, retryInMs: retryIn }, 'job failed');
  }

  function launch(job: JobRow): void {
    loop.track(
      job.id,
      runJob(job).catch((error) => logger.error({ err: error, job: job.id }, 'job bookkeeping failed')),
    );
  }

  async function housekeeping(): Promise<void> {
    for (const relative of await files.garbage(100)) {
      await store.remove(relative);
      await files.forgetGarbage(relative);
    }
    const now = Date.now();
    if (now - lastHousekeeping < HOUSEKEEPING_MS) return;
    lastHousekeeping = now;
    await files.dropOrphans(ORPHAN_AGE_MS);
    await store.sweepTemp(ORPHAN_AGE_MS, now);
    await jobs.prune(FINISHED_JOB_AGE_MS);
  }

  async function look(): Promise<void> {
    while (!loop.stopping && loop.running < settings.concurrency) {
      const job = await jobs.claim(settings.leaseMs);
      if (!job) break;
      launch(job);
    }
    if (!loop.stopping) await housekeeping();
  }

  const loop = createPollingLoop(settings.pollMs, look, (error) => logger.error({ err: error }, 'job runner tick failed'));
  return { start: () => loop.start(), stop: () => loop.stop() };
}
