import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import type { UserConfig, UserGroup } from '../../../lib/api/types.js';
import { DuplicateEmailError, type NewUser, type UserRow, type UsersRepository } from '../types/index.js';
import { NEW_USER_COLUMNS, newUserValues } from '../user-records.js';
import { inTransaction } from './transaction.js';
import { isUniqueViolation } from './pg-errors.js';

/** Accounts on PostgreSQL. Emails are unique and matched without regard to case (lower(email)), as SQLite's NOCASE does. */
export class PgUsersRepository implements UsersRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async create(input: NewUser): Promise<UserRow> {
    try {
      const { rows } = await this.pool.query<UserRow>(
        `INSERT INTO users (${NEW_USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        newUserValues(input, this.clock),
      );
      return rows[0];
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmailError(input.email);
      throw err;
    }
  }

  async byId(id: number): Promise<UserRow | undefined> {
    return (await this.pool.query<UserRow>('SELECT * FROM users WHERE id = $1', [id])).rows[0];
  }

  async byEmail(email: string): Promise<UserRow | undefined> {
    return (await this.pool.query<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1)', [email.trim()])).rows[0];
  }

  async count(): Promise<number> {
    return (await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM users')).rows[0].n;
  }

  async update(
    id: number,
    changes: { fullName?: string; config?: Partial<UserConfig>; groups?: UserGroup[]; email?: string; passwordHash?: string },
  ): Promise<UserRow> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const row = (await client.query<UserRow>('SELECT * FROM users WHERE id = $1 FOR UPDATE', [id])).rows[0];
        const config = changes.config ? { ...JSON.parse(row.config), ...changes.config } : JSON.parse(row.config);
        const { rows } = await client.query<UserRow>(
          'UPDATE users SET full_name = $1, config = $2, groups_json = $3, email = $4, password_hash = $5 WHERE id = $6 RETURNING *',
          [
            changes.fullName ?? row.full_name,
            JSON.stringify(config),
            changes.groups ? JSON.stringify(changes.groups) : row.groups_json,
            changes.email ?? row.email,
            changes.passwordHash ?? row.password_hash,
            id,
          ],
        );
        return rows[0];
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmailError(changes.email!);
      throw err;
    }
  }

  async touchBookmarks(id: number): Promise<void> {
    await this.pool.query('UPDATE users SET changed_bookmarks_at = $1 WHERE id = $2', [isoNow(this.clock), id]);
  }
}
