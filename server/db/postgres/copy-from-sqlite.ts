import type pg from 'pg';
import type { Db } from '../open.js';

/**
 * SQLite tables that are not data to move: the search index (PostgreSQL builds its own) and
 * bookkeeping (both sides' migrations record their own; link keys are this code's version on both).
 */
const NOT_COPIED = new Set([
  'bookmarks_fts',
  'schema_migrations',
  'link_key_version',
  'sqlite_sequence',
  'sqlite_stat1',
  'sqlite_stat4',
  // Page text is fetched again on PostgreSQL: its bookmark insert trigger queues every copied bookmark.
  'article_texts',
  'article_content',
  'article_fts',
]);

/**
 * Tables in an order that satisfies every foreign key (collections' own parent links are set in
 * a second pass). Any other table found in the SQLite file stops the copy: the two schemas must
 * have been changed together.
 */
const ORDER = [
  'users',
  'server_keys',
  'tokens',
  'sessions',
  'oauth_clients',
  'oauth_redirect_uris',
  'oauth_codes',
  'oauth_grants',
  'oauth_refresh_tokens',
  'user_connections',
  'oauth_handoffs',
  'collections',
  'collaborators',
  'invitations',
  'bookmarks',
  'bookmark_tags',
  'highlights',
  'files',
  'bookmark_caches',
  'file_garbage',
  'jobs',
  'import_runs',
  'import_run_folders',
  'link_changes',
  'idempotency_keys',
];

/** Triggers that would add rows or counts the copy brings along itself; off while copying. */
const QUIET_TRIGGERS: [table: string, trigger: string][] = [
  ['bookmarks', 'bookmarks_copy_job'],
  ['bookmarks', 'bookmarks_link_changes'],
  ['highlights', 'highlights_reindex'],
  ['files', 'files_usage'],
  ['bookmark_caches', 'bookmark_caches_garbage'],
  // Copied change rows keep their numbers (the extension's cursors stay valid).
  ['link_changes', 'link_changes_number'],
];

const ROWS_PER_INSERT = 500;

type TableCounts = Record<string, number>;

export class TargetNotEmptyError extends Error {}

/** The data tables of the SQLite file, in copy order; throws on a table PostgreSQL has no place for. */
export function sqliteTables(db: Db): string[] {
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
    .map((r) => r.name)
    .filter((n) => !NOT_COPIED.has(n) && !n.startsWith('bookmarks_fts_') && !n.startsWith('article_fts_'));
  const unknown = names.filter((n) => !ORDER.includes(n));
  if (unknown.length) throw new Error(`The SQLite database has tables this version cannot move: ${unknown.join(', ')}.`);
  return ORDER.filter((n) => names.includes(n));
}

export function countSqlite(db: Db, tables: string[]): TableCounts {
  const out: TableCounts = {};
  for (const t of tables) out[t] = (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n;
  return out;
}

async function countPostgres(client: pg.PoolClient | pg.Pool, tables: string[]): Promise<TableCounts> {
  const out: TableCounts = {};
  for (const t of tables) out[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n);
  return out;
}

/**
 * Copies every row of every data table from SQLite into the (migrated, empty) PostgreSQL
 * database, in one transaction: a failure leaves the target as empty as it was. Ids are kept,
 * identity sequences moved past them, the search column is filled by its trigger, and the
 * `/links` change log keeps its sequence numbers (so the extension's cursors stay valid).
 */
export async function copySqliteToPostgres(
  db: Db,
  pool: pg.Pool,
  onTable: (table: string, rows: number) => void = () => undefined,
): Promise<TableCounts> {
  const tables = sqliteTables(db);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Nobody else may write while we check for emptiness and copy.
    await client.query(`LOCK TABLE ${tables.map((t) => `"${t}"`).join(', ')} IN EXCLUSIVE MODE`);
    const before = await countPostgres(client, tables);
    const held = Object.entries(before).filter(([, n]) => n > 0);
    if (held.length) {
      throw new TargetNotEmptyError(
        `The target database is not empty (${held.map(([t, n]) => `${n} ${t}`).join(', ')}). migrate-data only copies into an empty database: create a new one (createdb) and run it again.`,
      );
    }
    for (const [table, trigger] of QUIET_TRIGGERS) await client.query(`ALTER TABLE "${table}" DISABLE TRIGGER ${trigger}`);

    for (const table of tables) {
      const pgColumns = new Set(
        (
          await client.query<{ column_name: string }>(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
            [table],
          )
        ).rows.map((r) => r.column_name),
      );
      const columns = (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name);
      const missing = columns.filter((c) => !pgColumns.has(c));
      if (missing.length) throw new Error(`PostgreSQL table ${table} lacks the columns ${missing.join(', ')} the SQLite one has.`);
      // Collections first without their parents: a parent may have a larger id than its child.
      const selfRef = table === 'collections';
      const list = columns.map((c) => `"${c}"`).join(', ');
      let copied = 0;
      let batch: unknown[][] = [];
      const flush = async () => {
        if (!batch.length) return;
        const params: unknown[] = [];
        const values = batch.map((row) => `(${row.map((v) => `$${params.push(v)}`).join(', ')})`).join(', ');
        await client.query(`INSERT INTO "${table}" (${list}) VALUES ${values}`, params);
        copied += batch.length;
        batch = [];
      };
      const rowsPerInsert = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(60_000 / columns.length)));
      for (const row of db.prepare(`SELECT ${list} FROM "${table}"`).raw().iterate() as IterableIterator<unknown[]>) {
        const values = row.map((v) => (typeof v === 'bigint' ? Number(v) : v));
        if (selfRef) values[columns.indexOf('parent_id')] = null;
        batch.push(values);
        if (batch.length >= rowsPerInsert) await flush();
      }
      await flush();
      if (selfRef) {
        const parents = db.prepare('SELECT id, parent_id FROM collections WHERE parent_id IS NOT NULL').all() as { id: number; parent_id: number }[];
        for (let i = 0; i < parents.length; i += 5000) {
          const part = parents.slice(i, i + 5000);
          await client.query(
            'UPDATE collections c SET parent_id = p.parent_id FROM unnest($1::bigint[], $2::bigint[]) AS p(id, parent_id) WHERE c.id = p.id',
            [part.map((p) => p.id), part.map((p) => p.parent_id)],
          );
        }
      }
      onTable(table, copied);
    }

    // Copied change rows are committed history, not this transaction's changes waiting for numbers.
    if (tables.includes('link_changes')) await client.query('UPDATE link_changes SET tx = NULL');
    // Search documents that include highlight text (the highlight trigger was off).
    await client.query('UPDATE bookmarks SET title = title WHERE id IN (SELECT DISTINCT bookmark_id FROM highlights)');
    for (const [table, trigger] of QUIET_TRIGGERS) await client.query(`ALTER TABLE "${table}" ENABLE TRIGGER ${trigger}`);
    // New rows continue after the copied ids.
    const identities = await client.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
    );
    for (const { table_name, column_name } of identities.rows) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max("${column_name}") FROM "${table_name}"), 0) + 1, false)`,
        [`"${table_name}"`, column_name],
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    // The error that made us roll back is the one to report; a failed ROLLBACK ends with the connection.
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  return countPostgres(pool, tables);
}
