// Background jobs nobody awaits (index sync, queue drain, collection refresh, content-script
// registration) report their failures here instead of swallowing them.

/** A `.catch()` handler for the background job `job`: logs the failure with the job's name. */
export function reportError(job: string): (err: unknown) => void {
  return (err) => {
    console.error(`Tidemark: ${job} failed:`, err);
  };
}
