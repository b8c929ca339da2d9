import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { rekeyLinksPostgres } from './rekey-links.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any number, the same in every process: the advisory lock that serialises migrations. */
const MIGRATION_LOCK = 7_301_913;

function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
}

/**
 * Why the database's schema is behind this code (a migration file not applied yet), or undefined
 * when it is not. A database migrated by a newer instance counts as ready: migrations only add.
 * Rejects when the database does not answer.
 */
export async function pendingMigrationPostgres(pool: pg.Pool): Promise<string | undefined> {
  const files = migrationFiles();
  const latest = files.length ? Number(files[files.length - 1]!.slice(0, 4)) : 0;
  const { rows } = await pool.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  const applied = rows[0]?.version ?? 0;
  return applied < latest ? `database migrations are not applied yet (schema version ${applied}, this server needs ${latest})` : undefined;
}

/**
 * Applies `migrations/NNNN_name.sql` in order, each in its own transaction, recording applied
 * versions in `schema_migrations`. Several instances starting at once are serialised by an
 * advisory lock; versions already applied are skipped. Then stored URL keys of another version are re-keyed.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      const files = migrationFiles();
      for (const file of files) {
        const version = Number(file.slice(0, 4));
        if (done.has(version)) continue;
        const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [version, file, new Date().toISOString()]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`PostgreSQL migration ${file} failed: ${(err as Error).message}`);
        }
      }
      // Stored URL keys of another version are re-keyed (still under the lock: one instance does it).
      await rekeyLinksPostgres(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
