import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { type ConnectionRow, type OAuthConnectionsRepository } from '../types/index.js';
import { inTransaction } from './transaction.js';

/** Which storage providers mirror their connection onto the user record (`dropbox.enabled`, `gdrive.enabled`). */
const USER_FLAG: Record<string, string> = { dropbox: 'dropbox_enabled', gdrive: 'gdrive_enabled' };

/** Outside accounts (sign-in providers, storage) connected to a user, on PostgreSQL. */
export class PgOAuthConnectionsRepository implements OAuthConnectionsRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async connect(userId: number, provider: string, accountId: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO user_connections (user_id, provider, account_id, connected_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, provider) DO UPDATE SET account_id = EXCLUDED.account_id, connected_at = EXCLUDED.connected_at`,
        [userId, provider, accountId, this.clock.now()],
      );
      const flag = USER_FLAG[provider];
      if (flag) await client.query(`UPDATE users SET ${flag} = 1 WHERE id = $1`, [userId]);
    });
  }

  async disconnect(userId: number, provider: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const gone = await client.query('DELETE FROM user_connections WHERE user_id = $1 AND provider = $2', [userId, provider]);
      const flag = USER_FLAG[provider];
      if (flag) await client.query(`UPDATE users SET ${flag} = 0 WHERE id = $1`, [userId]);
      return (gone.rowCount ?? 0) > 0;
    });
  }

  async listForUser(userId: number): Promise<ConnectionRow[]> {
    return (await this.pool.query<ConnectionRow>('SELECT * FROM user_connections WHERE user_id = $1 ORDER BY provider', [userId])).rows;
  }
}
