import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { CACHE_NEUTRAL } from '../../db/postgres/change-feed.js';
import type { RateWindowCount, RateWindowsRepository } from '../types/index.js';

/** About one update in this many also deletes ended windows, so the table stays small without a timer. */
const PRUNE_ONE_IN = 500;
/** The most counts one instance reserves in one update. */
export const MAX_BLOCK = 64;
/** An instance reserves at most this fraction (1/n) of what is left of the limit. */
export const SHARE_OF_REMAINING = 64;
/** How often this process forgets its ended windows (ms of the clock). */
const SWEEP_EVERY_MS = 60_000;

/** Numbers of one window this instance holds: `next` up to `last` are its to hand out. */
interface Block {
  start: number;
  next: number;
  last: number;
  /** The window's count was over the limit: every later request of the window is refused without asking. */
  over: boolean;
}

/**
 * Rate-limit windows shared by every instance, in the `rate_windows` table.
 *
 * Every request gets a number in its window's count, and a number over the limit is refused. To
 * spare a locked-row update per request, an instance reserves numbers in blocks of
 * `clamp(floor((limit - count) / SHARE_OF_REMAINING), 1, MAX_BLOCK)` and hands them out from memory;
 * near the limit, and for the default limits, the block is 1, so counting there is exact.
 *
 * No more than `limit` requests a window are ever let through; numbers reserved and unused when the
 * window ends are lost, at most `instances * min(MAX_BLOCK, floor(limit / SHARE_OF_REMAINING))` a
 * window. Once a window's count is over the limit, the instance refuses the rest without asking.
 */
export class PgRateWindowsRepository implements RateWindowsRepository {
  private readonly blocks = new Map<string, Block>();
  private readonly pending = new Map<string, Promise<void>>();
  private lastSweep = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  hit(key: string, windowMs: number, limit: number): RateWindowCount | Promise<RateWindowCount> {
    return this.fromBlock(key, windowMs) ?? this.reserveAndHit(key, windowMs, limit);
  }

  /** The next number of this instance's block for `key`, when it holds one for the current window. */
  private fromBlock(key: string, windowMs: number): RateWindowCount | undefined {
    const now = this.clock.now();
    this.sweep(now, windowMs);
    const block = this.blocks.get(key);
    if (!block || now - block.start >= windowMs || (!block.over && block.next > block.last)) return undefined;
    const count = block.next++;
    block.last = Math.max(block.last, count);
    return { start: block.start, count };
  }

  /** Waits for a block (one update at a time per key), then takes its number from it. */
  private async reserveAndHit(key: string, windowMs: number, limit: number): Promise<RateWindowCount> {
    for (;;) {
      const hit = this.fromBlock(key, windowMs);
      if (hit) return hit;
      const now = this.clock.now();
      const pending = this.pending.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const reserving = this.reserve(key, now, windowMs, limit).finally(() => this.pending.delete(key));
      this.pending.set(key, reserving);
      await reserving;
    }
  }

  /** One update: a block of numbers for this instance, in the current window (a new one when it ended). */
  private async reserve(key: string, now: number, windowMs: number, limit: number): Promise<void> {
    const first = blockFor(limit, 0);
    const { rows } = await this.pool.query<{ start: number; count: number; granted: number }>(
      `${CACHE_NEUTRAL} INSERT INTO rate_windows AS w (key, start, count, granted) VALUES ($1, $2, $5, $5)
       ON CONFLICT (key) DO UPDATE SET
         start = CASE WHEN $2 - w.start >= $3 THEN $2 ELSE w.start END,
         granted = CASE WHEN $2 - w.start >= $3 THEN $5
                        ELSE GREATEST(1, LEAST($6, ($4::integer - w.count) / $7)) END,
         count = CASE WHEN $2 - w.start >= $3 THEN $5
                      ELSE w.count + GREATEST(1, LEAST($6, ($4::integer - w.count) / $7)) END
       RETURNING start, count, granted`,
      [key, now, windowMs, limit, first, MAX_BLOCK, SHARE_OF_REMAINING],
    );
    const { start, count, granted } = rows[0];
    const next = count - granted + 1;
    this.blocks.set(key, { start, next, last: count, over: next > limit });
    if (Math.random() * PRUNE_ONE_IN < 1) await this.pool.query(`${CACHE_NEUTRAL} DELETE FROM rate_windows WHERE start <= $1`, [now - windowMs]);
  }

  /** Forgets blocks of ended windows now and then, so memory holds only callers seen lately. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [k, b] of this.blocks) if (now - b.start >= windowMs) this.blocks.delete(k);
  }
}

/** The block one update reserves when `count` of `limit` are taken (the SQL above says the same). */
function blockFor(limit: number, count: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor((limit - count) / SHARE_OF_REMAINING)));
}
