// One request at a time to each host, with a pause after each: the text job reads many bookmarks
// of the same site after an upgrade or an import, and must not look like an attack on it. A host is
// the address's host and port ("example.org", "127.0.0.1:8080"). State is per process; several
// instances each keep their own, which at worst multiplies the rate by the number of instances.

interface HostState {
  busy: boolean;
  /** when the next request may start (ms since epoch, this process's timers) */
  freeAt: number;
  waiters: (() => void)[];
}

export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  /** `delayMs`: the pause between the end of one request to a host and the start of the next. */
  constructor(private readonly delayMs: number) {}

  /** Hosts with a request running or waiting; idle hosts past their pause are forgotten. */
  get size(): number {
    return this.hosts.size;
  }

  /**
   * Runs `work` when `host` is free and its pause is over; rejects with the signal's reason if it
   * aborts while waiting. The host's pause starts when `work` settles, whichever way.
   */
  async run<T>(host: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(host, signal);
    try {
      return await work();
    } finally {
      this.release(host);
    }
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { busy: false, freeAt: 0, waiters: [] };
      this.hosts.set(host, state);
    }
    return state;
  }

  private acquire(host: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const state = this.state(host);
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const onAbort = () => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        const at = state.waiters.indexOf(attempt);
        if (at >= 0) state.waiters.splice(at, 1);
        // The head of the line left: the next one in line tries in its place.
        if (at === 0 && !state.busy) state.waiters[0]?.();
        reject(signal!.reason);
      };
      const attempt = () => {
        if (settled) return;
        if (timer) clearTimeout(timer);
        timer = undefined;
        if (state.busy) return; // woken again by release()
        const wait = state.freeAt - Date.now();
        if (wait > 0) {
          timer = setTimeout(attempt, wait);
          timer.unref();
          return;
        }
        const at = state.waiters.indexOf(attempt);
        if (at >= 0) state.waiters.splice(at, 1);
        state.busy = true;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!state.busy && state.waiters.length === 0) {
        attempt();
        if (settled) return;
      }
      state.waiters.push(attempt);
    });
  }

  private release(host: string): void {
    const state = this.hosts.get(host);
    if (!state) return;
    state.busy = false;
    state.freeAt = Date.now() + this.delayMs;
    const next = state.waiters[0];
    if (next) {
      next();
      return;
    }
    // Nothing waits: forget the host once its pause is over, so the map holds busy hosts only.
    if (this.delayMs <= 0) {
      this.hosts.delete(host);
      return;
    }
    const forget = setTimeout(() => {
      const current = this.hosts.get(host);
      if (current === state && !state.busy && state.waiters.length === 0) this.hosts.delete(host);
    }, this.delayMs);
    forget.unref();
  }
}
