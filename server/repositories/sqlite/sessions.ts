import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import { type SessionRow, type SessionsRepository } from '../types/index.js';

/** Web sign-in sessions. The cookie carries a random secret; only its hash is stored. */
export class SqliteSessionsRepository implements SessionsRepository {
  constructor(private db: Db, private clock: Clock) {}

  async create(input: { userId: number; ttlMs: number; userAgent?: string }): Promise<{ token: string; row: SessionRow }> {
    const token = newSecret();
    const now = this.clock.now();
    const info = this.db
      .prepare('INSERT INTO sessions (token_hash, user_id, user_agent, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(hashSecret(token), input.userId, (input.userAgent ?? '').slice(0, 300), now, now + input.ttlMs);
    const row = this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(info.lastInsertRowid) as SessionRow;
    return { token, row };
  }

  /** The live session for a cookie secret, or undefined when unknown, ended or expired. */
  async findValid(token: string): Promise<SessionRow | undefined> {
    const row = this.db.prepare('SELECT * FROM sessions WHERE token_hash = ?').get(hashSecret(token)) as SessionRow | undefined;
    if (!row || row.revoked_at !== null || row.expires_at <= this.clock.now()) return undefined;
    return row;
  }

  async revoke(id: number): Promise<void> {
    this.db.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.clock.now(), id);
  }

  /** Ends every session of the user except `keepId`. Returns how many were ended. */
  async revokeAllForUser(userId: number, keepId?: number): Promise<number> {
    return this.db
      .prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND id IS NOT ?')
      .run(this.clock.now(), userId, keepId ?? null).changes;
  }

  /**
   * A random key the server generates once and keeps in the database (so it survives restarts and
   * is shared by every process on the same data), e.g. for signing CSRF tokens.
   */
  async serverKey(name: string): Promise<string> {
    this.db.prepare('INSERT OR IGNORE INTO server_keys (name, value) VALUES (?, ?)').run(name, newSecret(32));
    return (this.db.prepare('SELECT value FROM server_keys WHERE name = ?').get(name) as { value: string }).value;
  }
}
