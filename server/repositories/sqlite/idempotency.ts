import type { Db } from '../../db/open.js';
import { type IdempotencyStart, type IdempotencyRepository } from '../types/index.js';

/** Stored first answers for `Idempotency-Key` (migration 0005). Used by plugins/idempotency.ts. */
export class SqliteIdempotencyRepository implements IdempotencyRepository {
  private readonly select;
  private readonly insert;
  private readonly takeOver;
  private readonly finishStmt;
  private readonly abandonStmt;
  private readonly pruneStmt;
  private readonly startTx;

  constructor(db: Db) {
    this.select = db.prepare('SELECT fingerprint, state, status, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?');
    this.insert = db.prepare(
      "INSERT INTO idempotency_keys (user_id, key, fingerprint, state, created_at) VALUES (?, ?, ?, 'pending', ?)",
    );
    this.takeOver = db.prepare("UPDATE idempotency_keys SET created_at = ? WHERE user_id = ? AND key = ? AND state = 'pending'");
    this.finishStmt = db.prepare("UPDATE idempotency_keys SET state = 'done', status = ?, body = ? WHERE user_id = ? AND key = ?");
    this.abandonStmt = db.prepare("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND state = 'pending'");
    this.pruneStmt = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
    this.startTx = db.transaction((userId: number, key: string, fingerprint: string, now: number, staleMs: number): IdempotencyStart => {
      const row = this.select.get(userId, key) as
        | { fingerprint: string; state: string; status: number | null; body: string | null; created_at: number }
        | undefined;
      if (!row) {
        this.insert.run(userId, key, fingerprint, now);
        return { kind: 'run' };
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done') return { kind: 'replay', status: row.status ?? 200, body: row.body ?? '' };
      // A pending row whose request never finished (the process died mid-request) is taken over.
      if (now - row.created_at > staleMs) {
        this.takeOver.run(now, userId, key);
        return { kind: 'run' };
      }
      return { kind: 'in-progress' };
    });
  }

  /** Claims the key for this request, or says how the earlier request with it went. Atomic. */
  async start(userId: number, key: string, fingerprint: string, now: number, staleMs: number): Promise<IdempotencyStart> {
    return this.startTx.immediate(userId, key, fingerprint, now, staleMs);
  }

  /** Stores the answer to replay. */
  async finish(userId: number, key: string, status: number, body: string): Promise<void> {
    this.finishStmt.run(status, body, userId, key);
  }

  /** Forgets a claimed key whose request failed in a way worth retrying (5xx, 429). */
  async abandon(userId: number, key: string): Promise<void> {
    this.abandonStmt.run(userId, key);
  }

  /** Drops stored answers older than `before` (epoch ms). */
  async prune(before: number): Promise<number> {
    return this.pruneStmt.run(before).changes;
  }
}
