// Background jobs nobody awaits (index sync, queue drain, collection refresh, content-script
// registration) report their failures here instead of swallowing them: once each, to the log and as
// the last background error, which the options page shows (lib/storage/items.ts lastBackgroundErrorItem).
import { lastBackgroundErrorItem } from '../storage/items.js';

/** A `.catch()` handler for the background job `job`: logs the failure and keeps it as the last one. */
export function reportError(job: string): (err: unknown) => Promise<void> {
  return async (err) => {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`Tidemark: ${job} failed: ${message}`, err);
    try {
      await lastBackgroundErrorItem.setValue({ job, message, at: Date.now() });
    } catch (storageErr) {
      // Storage itself failing: the log above is all that can be done.
      console.error('Tidemark: could not keep the last background error', storageErr);
    }
  };
}
