import { systemClock, type Clock } from '../clock.js';
import { openStore } from '../db/open-store.js';
import type { Store } from '../db/store.js';
import { dataDirOf } from './args.js';

/** The database a command works on: the one `--data` (or TIDEMARK_DATA) names, as `serve` would open it. */
export async function openCliStore(flags: { data?: unknown }, clock: Clock = systemClock): Promise<Store> {
  return openStore({ dataDir: dataDirOf(flags), clock });
}
