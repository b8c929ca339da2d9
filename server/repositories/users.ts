import type { Db } from '../db/open.js';
import type { Clock } from '../clock.js';
import { isoNow } from '../clock.js';
import type { PublicUser, User, UserConfig, UserGroup } from '../../lib/api/types.js';
import { DEFAULT_BOOKMARK_SORT } from '../../lib/api/constants.js';
import { md5 } from '../services/secrets.js';

export const DEFAULT_USER_CONFIG: UserConfig = {
  broken_level: 'default',
  font_color: '',
  font_size: 0,
  lang: 'en',
  last_collection: -1,
  bookmarks_sort: DEFAULT_BOOKMARK_SORT,
  bookmarks_view: 'list',
};

/** Default storage quota for uploads: 100 MB for everyone, 10 GB on the paid plan. */
export const FILE_QUOTA = { free: 100 * 1024 * 1024, pro: 10 * 1024 * 1024 * 1024 };

export interface UserRow {
  id: number;
  email: string;
  password_hash: string | null;
  full_name: string;
  pro: number;
  pro_expire: string | null;
  config: string;
  groups_json: string;
  files_used: number;
  files_size: number;
  files_checkpoint: string;
  dropbox_enabled: number;
  gdrive_enabled: number;
  registered: string;
  changed_bookmarks_at: string | null;
}

export function toUser(row: UserRow): User {
  const user: User = {
    _id: row.id,
    config: { ...DEFAULT_USER_CONFIG, ...JSON.parse(row.config) },
    dropbox: { enabled: !!row.dropbox_enabled },
    email: row.email,
    email_MD5: md5(row.email),
    files: { used: row.files_used, size: row.files_size, lastCheckPoint: row.files_checkpoint },
    fullName: row.full_name,
    gdrive: { enabled: !!row.gdrive_enabled },
    groups: JSON.parse(row.groups_json),
    password: !!row.password_hash,
    pro: !!row.pro,
    registered: row.registered,
  };
  if (row.pro_expire) user.proExpire = row.pro_expire;
  return user;
}

export function toPublicUser(row: UserRow): PublicUser {
  return { _id: row.id, fullName: row.full_name, email_MD5: md5(row.email), pro: !!row.pro, registered: row.registered };
}

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists. Sign in instead, or use another email.`);
  }
}

export class UsersRepository {
  constructor(private db: Db, private clock: Clock) {}

  async create(input: { email: string; passwordHash: string | null; fullName?: string; pro?: boolean }): Promise<UserRow> {
    const now = isoNow(this.clock);
    try {
      const info = this.db
        .prepare(
          `INSERT INTO users (email, password_hash, full_name, pro, config, files_size, files_checkpoint, registered)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.email.trim(),
          input.passwordHash,
          input.fullName ?? '',
          input.pro ? 1 : 0,
          JSON.stringify(DEFAULT_USER_CONFIG),
          input.pro ? FILE_QUOTA.pro : FILE_QUOTA.free,
          now,
          now,
        );
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
