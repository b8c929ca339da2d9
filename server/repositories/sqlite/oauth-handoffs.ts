import type { Clock } from '../../clock.js';
import type { Db } from '../../db/open.js';
import { hashSecret, newSecret } from '../../domain/secrets.js';
import type { OAuthHandoffsRepository } from '../types/index.js';

/** OAuth consent hand-offs in the shared database file (migration 0007). */
export class SqliteOAuthHandoffsRepository implements OAuthHandoffsRepository {
  constructor(private db: Db, private clock: Clock) {}

  async create(input: { userId: number; location: string; ttlMs: number }): Promise<string> {
    const id = newSecret(18);
    const now = this.clock.now();
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM oauth_handoffs WHERE expires_at <= ?').run(now);
      this.db
        .prepare('INSERT INTO oauth_handoffs (id_hash, user_id, location, expires_at) VALUES (?, ?, ?, ?)')
        .run(hashSecret(id), input.userId, input.location, now + input.ttlMs);
    })();
    return id;
  }

  async take(id: string, userId: number): Promise<string | undefined> {
    const row = this.db
      .prepare('DELETE FROM oauth_handoffs WHERE id_hash = ? AND user_id = ? AND expires_at > ? RETURNING location')
      .get(hashSecret(id), userId, this.clock.now()) as { location: string } | undefined;
    return row?.location;
  }
}
