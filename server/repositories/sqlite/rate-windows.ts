import type { Clock } from '../../clock.js';
import type { RateWindowCount, RateWindowsRepository } from '../types/index.js';

/** Windows are forgotten this often (ms of the clock) once they have ended. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Rate-limit windows for the embedded backend: in this process's memory (a write per request to
 * the SQLite file would cost more than the limit protects). One `serve` per data directory is the
 * SQLite deployment; several instances share their windows on PostgreSQL.
 */
export class MemoryRateWindowsRepository implements RateWindowsRepository {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(private readonly clock: Clock) {}

  hit(key: string, windowMs: number): RateWindowCount {
    const now = this.clock.now();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      for (const [k, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(k);
    }
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { start: w.start, count: w.count };
  }
}
