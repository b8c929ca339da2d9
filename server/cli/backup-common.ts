import { CliError } from './args.js';

/** backup/restore work on the SQLite data directory; a PostgreSQL database has its own tools. */
export function refusePostgres(database: unknown, command: 'backup' | 'restore'): void {
  const url = typeof database === 'string' ? database : process.env.TIDEMARK_DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//i.test(url)) {
    throw new CliError(
      `${command} copies the SQLite database and the files directory. For a PostgreSQL database use its own tools: ` +
        (command === 'backup' ? '`pg_dump --format=custom --file=tidemark.dump <url>`' : '`pg_restore --dbname=<url> tidemark.dump`') +
        ' (and copy the files directory or S3 bucket alongside).',
    );
  }
}
