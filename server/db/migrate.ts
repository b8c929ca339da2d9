import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
}

/**
 * Why the database's schema is behind this code (a migration file not applied yet), or undefined
 * when it is not. A database migrated by newer code counts as ready: migrations only add.
 */
export function pendingMigration(db: Database.Database): string | undefined {
  const files = migrationFiles();
  const latest = files.length ? Number(files[files.length - 1]!.slice(0, 4)) : 0;
  const row = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number | null } | undefined;
  const applied = row?.version ?? 0;
  return applied < latest ? `database migrations are not applied yet (schema version ${applied}, this server needs ${latest})` : undefined;
}

/**
 * Applies `migrations/NNNN_name.sql` files in order, each in its own transaction, recording the
 * applied versions in `schema_migrations`. Safe to run from several processes: the write lock
 * taken by BEGIN IMMEDIATE serialises them and applied versions are skipped.
 */
export function migrate(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const files = migrationFiles();
  for (const file of files) {
    const version = Number(file.slice(0, 4));
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    db.exec('BEGIN IMMEDIATE');
    try {
      const done = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version);
      if (!done) {
        db.exec(sql);
        db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          version,
          file,
          new Date().toISOString(),
        );
      }
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw new Error(`Migration ${file} failed: ${(err as Error).message}`);
    }
  }
}
