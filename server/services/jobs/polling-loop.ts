/**
 * The loop both background workers share (the job runner and the text job): look for work every
 * `pollMs` when idle and at once when a piece of work finishes, never two looks at a time, and on
 * stop cancel what runs (through `signal`) and wait for it. Timers are unref'd: a loop never keeps a
 * process alive on its own. What to claim and how to run it stays with the caller's `look`.
 */
export interface PollingLoop {
  start(): void;
  /** Stops looking, aborts `signal` and waits for the look in progress and every tracked piece of work. */
  stop(): Promise<void>;
  /** True from stop() until the next start(): claim nothing more. */
  readonly stopping: boolean;
  /** Aborted by stop(); work started in this run listens to it. */
  readonly signal: AbortSignal;
  /** How many tracked pieces of work have not settled. */
  readonly running: number;
  /** Keeps `work` until it settles; then the loop looks for more at once. It must not reject. */
  track(key: number, work: Promise<void>): void;
}

/** Wait before retry number `attempt` (1 = first retry): doubling each time, capped. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

export function createPollingLoop(pollMs: number, look: () => Promise<void>, lookFailed: (error: unknown) => void): PollingLoop {
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let controller = new AbortController();
  const active = new Map<number, Promise<void>>();
  let looking: Promise<void> | null = null;
  let lookAgain = false;

  const schedule = (ms: number) => {
    if (!started || stopping) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  };

  async function tick(): Promise<void> {
    // A look asked for while one runs (work finished meanwhile) runs right after it, not beside it.
    if (looking) {
      lookAgain = true;
      return;
    }
    do {
      lookAgain = false;
      looking = look().catch(lookFailed);
      await looking;
      looking = null;
    } while (lookAgain && !stopping);
    schedule(pollMs);
  }

  return {
    get stopping() {
      return stopping;
    },
    get signal() {
      return controller.signal;
    },
    get running() {
      return active.size;
    },
    track(key, work) {
      active.set(
        key,
        work.finally(() => {
          active.delete(key);
          schedule(0);
        }),
      );
    },
    start() {
      if (started) return;
      started = true;
      stopping = false;
      controller = new AbortController();
      schedule(0);
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      controller.abort();
      if (looking) await looking;
      await Promise.allSettled([...active.values()]);
      started = false;
    },
  };
}
