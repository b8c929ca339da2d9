// A new account's stored values, the same on every backend: the columns an INSERT names and their
// values in that order (each backend writes its own placeholders).
import type { Clock } from '../clock.js';
import { isoNow } from '../clock.js';
import { DEFAULT_USER_CONFIG, FILE_QUOTA, type NewUser } from './types/index.js';

export const NEW_USER_COLUMNS = 'email, password_hash, full_name, pro, config, files_size, files_checkpoint, registered';

/** The values for NEW_USER_COLUMNS: trimmed email, default settings, the plan's file quota, created now. */
export function newUserValues(input: NewUser, clock: Clock): [string, string | null, string, number, string, number, string, string] {
  const now = isoNow(clock);
  return [
    input.email.trim(),
    input.passwordHash,
    input.fullName ?? '',
    input.pro ? 1 : 0,
    JSON.stringify(DEFAULT_USER_CONFIG),
    input.pro ? FILE_QUOTA.pro : FILE_QUOTA.free,
    now,
    now,
  ];
}
