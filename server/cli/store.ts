import { systemClock, type Clock } from '../clock.js';
import { openStore, UnsupportedDatabaseError, type StoreOptions } from '../db/open-store.js';
import { DatabaseUnreachableError } from '../db/postgres/pool.js';
import type { Store } from '../db/store.js';
import { CliError, dataDirOf, databaseUrlOf } from './args.js';

/** Opens the database as a command: a wrong or unreachable `--database` is the operator's to fix, said in one message. */
export async function openStoreForCommand(opts: StoreOptions): Promise<Store> {
  try {
    return await openStore(opts);
  } catch (err) {
    if (err instanceof UnsupportedDatabaseError) throw new CliError(err.message);
    if (err instanceof DatabaseUnreachableError) throw new CliError(err.message, 1);
    throw err;
  }
}

/** The database a command works on: `--database` (or TIDEMARK_DATABASE_URL), else SQLite under `--data`, as `serve` would open it. */
export async function openCliStore(flags: { data?: unknown; database?: unknown }, clock: Clock = systemClock): Promise<Store> {
  return openStoreForCommand({ dataDir: dataDirOf(flags), databaseUrl: databaseUrlOf(flags), clock });
}
