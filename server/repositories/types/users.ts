// Accounts: the stored row, its API forms, defaults, and the users and stats repositories.
import type { UserGroup, PublicUser, User, UserConfig } from '../../../lib/api/types.js';
import { DEFAULT_BOOKMARK_SORT } from '../../../lib/api/constants.js';
import { md5 } from '../../domain/secrets.js';

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
  return { _id: row.id, fullName: row.full_name };
}

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists. Sign in instead, or use another email.`);
  }
}

/** Counts behind `GET /user/stats`. */
export interface StatsRepository {
  systemCounts(userId: number): Promise<{
    all: number;
    unsorted: number;
    trash: number;
    duplicates: number;
    broken: number;
  }>;
}

/** What a new account is made from. */
export interface NewUser {
  email: string;
  passwordHash: string | null;
  fullName?: string;
  pro?: boolean;
}

export interface UsersRepository {
  create(input: NewUser): Promise<UserRow>;
  byId(id: number): Promise<UserRow | undefined>;
  byEmail(email: string): Promise<UserRow | undefined>;
  count(): Promise<number>;
  update(id: number, changes: {
    fullName?: string;
    config?: Partial<UserConfig>;
    groups?: UserGroup[];
    email?: string;
    passwordHash?: string;
  }): Promise<UserRow>;
  /** Records that the user's bookmarks changed (shown as `changedBookmarksDate` in stats). */
  touchBookmarks(id: number): Promise<void>;
}
