// Finds the background job queued for a bookmark, for tests of the job runner.
import type { JobRow, JobsRepository } from '../../server/repositories/index.js';

/** The most recently queued job whose payload names `bookmarkId`, if any. */
export const latestJobFor = async (jobs: JobsRepository, bookmarkId: number): Promise<JobRow | undefined> =>
  (await jobs.list()).filter((j) => JSON.parse(j.payload).bookmarkId === bookmarkId).pop();
