// Stored first answers for requests that carry an Idempotency-Key.

/** What to do with a request that carries an Idempotency-Key. */
export type IdempotencyStart =
  | { kind: 'run' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/** Stored first answers for `Idempotency-Key` (migration 0005). Used by plugins/idempotency.ts. */
export interface IdempotencyRepository {
  /** Claims the key for this request, or says how the earlier request with it went. Atomic. */
  start(userId: number, key: string, fingerprint: string, now: number, staleMs: number): Promise<IdempotencyStart>;
  /** Stores the answer to replay. */
  finish(userId: number, key: string, status: number, body: string): Promise<void>;
  /** Forgets a claimed key whose request failed in a way worth retrying (5xx, 429). */
  abandon(userId: number, key: string): Promise<void>;
  /** Drops stored answers older than `before` (epoch ms). */
  prune(before: number): Promise<number>;
}
