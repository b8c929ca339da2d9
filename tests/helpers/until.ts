// Polls a condition until it holds, for tests that wait on background work (jobs, file clean-up). The
// ceiling is generous: a job's first parse starts a worker thread, which loads the TypeScript sources
// through tsx and can take seconds on a busy machine; a condition that holds returns at once.

/** Calls `check` every 20 ms until it returns a truthy value, and resolves with that value; throws after `ms`. */
export async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
