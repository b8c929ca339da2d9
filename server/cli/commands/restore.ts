import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../../db/open.js';
import { CliError, parseFlags, printJson, required } from '../args.js';
import { refusePostgres } from '../backup-common.js';
import { readTar } from '../tar.js';
import { MANIFEST } from './backup.js';

/** A name restore writes: relative, no `..`, no odd characters. */
function safeName(name: string): boolean {
  return !path.isAbsolute(name) && !name.split('/').some((part) => part === '..' || part === '') && !/[\\\0]/.test(name);
}

/**
 * `restore --from FILE --data DIR`: unpacks a backup archive into an empty (or new) data directory
 * and checks the database (`PRAGMA integrity_check`). A directory that holds anything is refused,
 * so a restore never mixes with or overwrites live data. Prints `{data, files, database}` as JSON.
 */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, { from: { type: 'string' }, database: { type: 'string' } });
  refusePostgres(flags.database, 'restore');
  const from = path.resolve(required(flags, 'from'));
  const dataDir = path.resolve(required(flags, 'data'));
  if (!fs.existsSync(from)) throw new CliError(`There is no backup file ${from}.`);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new CliError(`${dataDir} is not empty. Restore into a new or empty directory, then point serve --data at it.`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  let files = 0;
  let sawManifest = false;
  let sawDatabase = false;
  try {
    for (const entry of readTar(from)) {
      const name = entry.name.replace(/\/$/, '');
      if (!safeName(name)) throw new CliError(`The backup holds an unsafe path (${entry.name}); it was not restored.`, 1);
      const target = path.join(dataDir, name);
      if (entry.type === 'directory') {
        fs.mkdirSync(target, { recursive: true });
        continue;
      }
      if (name === MANIFEST) {
        sawManifest = true;
        continue;
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      entry.extractTo(target);
      if (name === DB_FILE) sawDatabase = true;
      else files++;
    }
    if (!sawManifest || !sawDatabase) throw new CliError(`${from} is not a Tidemark backup (made by \`backup --out\`).`, 1);
    const db = new Database(path.join(dataDir, DB_FILE), { fileMustExist: true });
    let integrity: string;
    let bookmarks: number;
    try {
      integrity = String(db.pragma('integrity_check', { simple: true }));
      bookmarks = Number((db.prepare('SELECT count(*) AS n FROM bookmarks').get() as { n: number }).n);
    } finally {
      db.close();
    }
    if (integrity !== 'ok') throw new CliError(`The restored database failed its integrity check (${integrity}).`, 1);
    printJson({ data: dataDir, files, database: { bookmarks, integrity } });
  } catch (err) {
    // Leave no half-restored directory behind that a later `serve` could start on.
    for (const name of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    if (err instanceof CliError) throw err;
    throw new CliError(`Restore failed: ${(err as Error).message}`, 1);
  }
}
