import fs from 'node:fs';
import path from 'node:path';
import { DB_FILE, openDatabase } from '../../db/open.js';
import { copySqliteToPostgres, countSqlite, sqliteTables, TargetNotEmptyError } from '../../db/postgres/copy-from-sqlite.js';
import { migratePostgres } from '../../db/postgres/migrate.js';
import { connectPool, DatabaseUnreachableError, describeDatabaseUrl, isPostgresUrl } from '../../db/postgres/pool.js';
import { CliError, parseFlags, printJson, required } from '../args.js';

/**
 * `migrate-data --from ./data --to postgres://...`: copies a whole SQLite installation (users,
 * tokens, apps, collections, bookmarks, highlights, sharing, jobs, files metadata, import progress,
 * the /links change log) into an empty PostgreSQL database, migrating its schema first, and checks
 * that every table holds as many rows as the source. Refuses a target that holds any data. Uploaded
 * files stay where they are (`<data>/files`): point the new instances' file storage at them.
 * Stop `serve` on the SQLite installation first, so nothing changes during the copy.
 * Prints `{"from", "to", "tables": {name: rows}, "verified": true}`.
 */
export async function run(args: string[]): Promise<void> {
  const flags = parseFlags(args, { from: { type: 'string' }, to: { type: 'string' } });
  const from = path.resolve(required(flags, 'from'));
  const to = required(flags, 'to');
  if (!isPostgresUrl(to)) throw new CliError(`--to must be a PostgreSQL URL (postgres://user:password@host:5432/database); got "${to}".`);
  if (!fs.existsSync(path.join(from, DB_FILE))) {
    throw new CliError(`--from ${from} holds no Tidemark database (${DB_FILE}): give the data directory \`serve --data\` uses.`);
  }

  let pool;
  try {
    pool = await connectPool(to, { max: 2 });
  } catch (err) {
    if (err instanceof DatabaseUnreachableError) throw new CliError(err.message, 1);
    throw err;
  }
  const db = openDatabase(from);
  try {
    await migratePostgres(pool);
    const tables = sqliteTables(db);
    const source = countSqlite(db, tables);
    process.stderr.write(`Copying ${from} to ${describeDatabaseUrl(to)}...\n`);
    let copied;
    try {
      copied = await copySqliteToPostgres(db, pool, (table, rows) => process.stderr.write(`  ${table}: ${rows}\n`));
    } catch (err) {
      if (err instanceof TargetNotEmptyError) throw new CliError(err.message, 1);
      throw err;
    }
    const wrong = tables.filter((t) => copied[t] !== source[t]);
    if (wrong.length) {
      throw new CliError(
        `The copy does not match the source: ${wrong.map((t) => `${t} ${copied[t]} of ${source[t]}`).join(', ')}. Do not use the target; drop it and run migrate-data again.`,
        1,
      );
    }
    process.stderr.write(`Done: every table of the source has the same number of rows in PostgreSQL. Uploaded files stay in ${path.join(from, 'files')}.\n`);
    printJson({ from, to: describeDatabaseUrl(to), tables: copied, verified: true });
  } finally {
    db.close();
    await pool.end();
  }
}
