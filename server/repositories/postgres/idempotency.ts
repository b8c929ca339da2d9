import type pg from 'pg';
import { type IdempotencyStart, type IdempotencyRepository } from '../types/index.js';
import { inTransaction } from './transaction.js';

/** Stored first answers for `Idempotency-Key` on PostgreSQL, shared by every instance. Used by plugins/idempotency.ts. */
export class PgIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Claims the key for this request, or says how the earlier request with it went. Atomic across
   * instances: the claim is one insert, and a key already there is read under a row lock.
   */
  async start(userId: number, key: string, fingerprint: string, now: number, staleMs: number): Promise<IdempotencyStart> {
    return inTransaction(this.pool, async (client) => {
      const claimed = await client.query(
        `INSERT INTO idempotency_keys (user_id, key, fingerprint, state, created_at) VALUES ($1, $2, $3, 'pending', $4)
         ON CONFLICT (user_id, key) DO NOTHING`,
        [userId, key, fingerprint, now],
      );
      if (claimed.rowCount === 1) return { kind: 'run' };
      const row = (
        await client.query<{ fingerprint: string; state: string; status: number | null; body: string | null; created_at: number }>(
          'SELECT fingerprint, state, status, body, created_at FROM idempotency_keys WHERE user_id = $1 AND key = $2 FOR UPDATE',
          [userId, key],
        )
      ).rows[0];
      if (!row) {
        // Abandoned between our insert attempt and this read: claim it now.
        await client.query(
          `INSERT INTO idempotency_keys (user_id, key, fingerprint, state, created_at) VALUES ($1, $2, $3, 'pending', $4)`,
          [userId, key, fingerprint, now],
        );
        return { kind: 'run' };
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done') return { kind: 'replay', status: row.status ?? 200, body: row.body ?? '' };
      // A pending row whose request never finished (its instance died mid-request) is taken over.
      if (now - row.created_at > staleMs) {
        await client.query("UPDATE idempotency_keys SET created_at = $1 WHERE user_id = $2 AND key = $3 AND state = 'pending'", [now, userId, key]);
        return { kind: 'run' };
      }
      return { kind: 'in-progress' };
    });
  }

  async finish(userId: number, key: string, status: number, body: string): Promise<void> {
    await this.pool.query("UPDATE idempotency_keys SET state = 'done', status = $1, body = $2 WHERE user_id = $3 AND key = $4", [status, body, userId, key]);
  }

  async abandon(userId: number, key: string): Promise<void> {
    await this.pool.query("DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND state = 'pending'", [userId, key]);
  }

  async prune(before: number): Promise<number> {
    return (await this.pool.query('DELETE FROM idempotency_keys WHERE created_at < $1', [before])).rowCount ?? 0;
  }
}
