import type { Db } from '../../db/open.js';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import type { UserConfig, UserGroup } from '../../../lib/api/types.js';
import { DuplicateEmailError, type NewUser, type UserRow, type UsersRepository } from '../types/index.js';
import { NEW_USER_COLUMNS, newUserValues } from '../user-records.js';

export class SqliteUsersRepository implements UsersRepository {
  constructor(private db: Db, private clock: Clock) {}

  async create(input: NewUser): Promise<UserRow> {
    try {
      const info = this.db
        .prepare(`INSERT INTO users (${NEW_USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(...newUserValues(input, this.clock));
      return (await this.byId(Number(info.lastInsertRowid)))!;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateEmailError(input.email);
      throw err;
    }
  }

  async byId(id: number): Promise<UserRow | undefined> {
    return this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  }

  async byEmail(email: string): Promise<UserRow | undefined> {
    return this.db.prepare('SELECT * FROM users WHERE email = ?').get(email.trim()) as UserRow | undefined;
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  }

  async update(
    id: number,
    changes: { fullName?: string; config?: Partial<UserConfig>; groups?: UserGroup[]; email?: string; passwordHash?: string },
  ): Promise<UserRow> {
    const tx = this.db.transaction(() => {
      const row = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow;
      const config = changes.config ? { ...JSON.parse(row.config), ...changes.config } : JSON.parse(row.config);
      try {
        this.db
          .prepare(
            `UPDATE users SET full_name = ?, config = ?, groups_json = ?, email = ?, password_hash = ? WHERE id = ?`,
          )
          .run(
            changes.fullName ?? row.full_name,
            JSON.stringify(config),
            changes.groups ? JSON.stringify(changes.groups) : row.groups_json,
            changes.email ?? row.email,
            changes.passwordHash ?? row.password_hash,
            id,
          );
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateEmailError(changes.email!);
        throw err;
      }
    });
    tx();
    return (await this.byId(id))!;
  }

  /** Records that the user's bookmarks changed (shown as `changedBookmarksDate` in stats). */
  async touchBookmarks(id: number): Promise<void> {
    this.db.prepare('UPDATE users SET changed_bookmarks_at = ? WHERE id = ?').run(isoNow(this.clock), id);
  }
}
