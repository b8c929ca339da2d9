import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { type ConnectionRow, type OAuthConnectionsRepository } from '../types/index.js';

/** Which storage providers mirror their connection onto the user record (`dropbox.enabled`, `gdrive.enabled`). */
const USER_FLAG: Record<string, string> = { dropbox: 'dropbox_enabled', gdrive: 'gdrive_enabled' };

/** Outside accounts (sign-in providers, storage) connected to a user. */
export class SqliteOAuthConnectionsRepository implements OAuthConnectionsRepository {
  constructor(private db: Db, private clock: Clock) {}

  async connect(userId: number, provider: string, accountId: string): Promise<void> {
    const tx = this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO user_connections (user_id, provider, account_id, connected_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (user_id, provider) DO UPDATE SET account_id = excluded.account_id, connected_at = excluded.connected_at`,
        )
        .run(userId, provider, accountId, this.clock.now());
      const flag = USER_FLAG[provider];
      if (flag) this.db.prepare(`UPDATE users SET ${flag} = 1 WHERE id = ?`).run(userId);
    });
    tx();
  }

  /** Removes the connection; true when there was one. */
  async disconnect(userId: number, provider: string): Promise<boolean> {
    const tx = this.db.transaction(() => {
      const changes = this.db.prepare('DELETE FROM user_connections WHERE user_id = ? AND provider = ?').run(userId, provider).changes;
      const flag = USER_FLAG[provider];
      if (flag) this.db.prepare(`UPDATE users SET ${flag} = 0 WHERE id = ?`).run(userId);
      return changes > 0;
    });
    return tx();
  }

  async listForUser(userId: number): Promise<ConnectionRow[]> {
    return this.db.prepare('SELECT * FROM user_connections WHERE user_id = ? ORDER BY provider').all(userId) as ConnectionRow[];
  }
}
