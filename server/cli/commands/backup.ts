import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../../db/open.js';
import { CliError, dataDirOf, parseFlags, printJson, required } from '../args.js';
import { refusePostgres } from '../backup-common.js';
import { TarWriter } from '../tar.js';

/** The archive's first entry: what it holds and how it was made. */
export const MANIFEST = 'tidemark-backup.json';

/**
 * `backup --out FILE [--data DIR]`: a consistent copy of the service's data while `serve` may be
 * running, as one tar archive: the SQLite database copied with SQLite's online backup API (all
 * pages in one step, inside one read transaction, so it is the database as of one moment), then
 * every other file of the data directory (uploaded files, covers, permanent copies, the outbox).
 * Prints `{out, bytes, files, database}` as JSON.
 */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, { out: { type: 'string' }, database: { type: 'string' } });
  refusePostgres(flags.database, 'backup');
  const out = path.resolve(required(flags, 'out'));
  const dataDir = dataDirOf(flags);
  const dbPath = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(dbPath)) throw new CliError(`There is no Tidemark database in ${dataDir} (no ${DB_FILE}). Give the data directory with --data.`);
  if (out.startsWith(dataDir + path.sep)) throw new CliError('--out must be outside the data directory (the backup would contain itself).');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-backup-'));
  const snapshot = path.join(work, DB_FILE);
  try {
    const source = new Database(dbPath, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      // After the first step, everything left in one step: writers in other processes cannot
      // restart a copy that never finishes, and the copy is one moment of the database.
      await source.backup(snapshot, { progress: () => 0x7fffffff });
    } finally {
      source.close();
    }
    const check = new Database(snapshot, { readonly: true });
    let integrity: string;
    let bookmarks: number;
    try {
      integrity = String(check.pragma('integrity_check', { simple: true }));
      bookmarks = Number((check.prepare('SELECT count(*) AS n FROM bookmarks').get() as { n: number }).n);
    } finally {
      check.close();
    }
    if (integrity !== 'ok') throw new CliError(`The database copy failed its integrity check (${integrity}); nothing was written.`, 1);

    const partial = `${out}.partial`;
    const tar = new TarWriter(partial);
    let files = 0;
    try {
      tar.bytes(MANIFEST, Buffer.from(JSON.stringify({ format: 'tidemark-backup', version: 1, created: new Date().toISOString(), database: DB_FILE, bookmarks }, null, 2)));
      tar.file(DB_FILE, snapshot);
      files = addDirectory(tar, dataDir, '');
      tar.close();
    } catch (err) {
      fs.rmSync(partial, { force: true });
      throw err;
    }
    fs.renameSync(partial, out);
    printJson({ out, bytes: fs.statSync(out).size, files, database: { bookmarks, integrity } });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The database's own files, written by SQLite itself; the snapshot replaces them. */
function isDatabaseFile(name: string): boolean {
  return name === DB_FILE || name.startsWith(`${DB_FILE}-`);
}

/** Adds every file below `dir` (skipping the database and temporary uploads); answers how many. */
function addDirectory(tar: TarWriter, root: string, rel: string): number {
  let count = 0;
  const stack = [rel];
  while (stack.length) {
    const current = stack.pop()!;
    const entries = fs.readdirSync(path.join(root, current), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const name = current ? `${current}/${entry.name}` : entry.name;
      if (!current && isDatabaseFile(entry.name)) continue;
      if (name === 'files/tmp') continue;
      if (entry.isDirectory()) {
        tar.directory(name);
        stack.push(name);
      } else if (entry.isFile()) {
        try {
          tar.file(name, path.join(root, name));
          count++;
        } catch (err) {
          // Removed while the backup ran (a bookmark deleted meanwhile): it is not in the copy either.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
    }
  }
  return count;
}
