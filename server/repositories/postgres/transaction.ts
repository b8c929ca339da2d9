import type pg from 'pg';

/**
 * SQLSTATEs after which PostgreSQL has rolled the whole transaction back and running it again is
 * expected to work: `40P01` deadlock detected (two writers took the same rows in opposite orders;
 * PostgreSQL aborts one of them) and `40001` serialization failure.
 */
const RETRYABLE = new Set(['40P01', '40001']);
/** Attempts in all, the first included: contention that outlasts this is reported, not hidden. */
const MAX_ATTEMPTS = 4;

function isRetryable(err: unknown): boolean {
  return RETRYABLE.has((err as { code?: string } | null)?.code ?? '');
}

/** A short random pause, growing with each attempt, so the two aborted writers do not collide again. */
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
}

async function runOnce<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // The error that made us roll back is the one to report; a failed ROLLBACK ends with the connection.
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled back
 * when it throws. A transaction PostgreSQL aborted for a deadlock or a serialization failure is run
 * again from the start (nothing of the aborted attempt was kept), up to MAX_ATTEMPTS times, so a
 * caller sees the write done rather than a 500. `work` must therefore keep its effects inside the
 * transaction, as every repository's does.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(pool, work);
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(err)) throw err;
      await pause(attempt);
    }
  }
}
