// Polls a condition until it holds, for tests that wait on background work (jobs, file clean-up).

/** Calls `check` every 20 ms until it returns a truthy value, and resolves with that value; throws after `ms`. */
export async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
