// Re-keying stored links (PostgreSQL): when lib/api/url.ts's URL_KEY_VERSION differs from the version
// the stored `bookmarks.link_key` values were made with, every bookmark gets the key of today's code,
// in one transaction. Instances starting at once: the row lock on link_key_version lets one re-key;
// the others then find the new version. The bookmarks_link_changes trigger tells the extensions' indexes.
import type pg from 'pg';
import { normalizeUrl, URL_KEY_VERSION } from '../../../lib/api/url.js';

const BATCH = 5000;

/**
 * Re-keys every bookmark when the stored key version is not this code's; answers how many keys
 * changed. `db`: a pool, or the connection that holds the migration lock (a second connection from a
 * one-connection pool would never come).
 */
export async function rekeyLinksPostgres(
  db: pg.Pool | pg.PoolClient,
  version = URL_KEY_VERSION,
  keyOf: (link: string) => string | null = normalizeUrl,
): Promise<number> {
  const own = 'release' in db ? null : await db.connect();
  const client = own ?? (db as pg.PoolClient);
  let changed = 0;
  try {
    await client.query('BEGIN');
    try {
      const stored = (await client.query<{ version: number }>('SELECT version FROM link_key_version WHERE id = 1 FOR UPDATE')).rows[0]?.version;
      if (stored !== version) {
        for (let after = 0; ; ) {
          const rows = (
            await client.query<{ id: number; link: string; link_key: string }>(
              'SELECT id, link, link_key FROM bookmarks WHERE id > $1 ORDER BY id LIMIT $2',
              [after, BATCH],
            )
          ).rows;
          const ids: number[] = [];
          const keys: string[] = [];
          for (const r of rows) {
            // A link no key can be made for (never stored: links are checked on the way in) keeps its key.
            const key = keyOf(r.link) ?? r.link_key;
            if (key !== r.link_key) {
              ids.push(Number(r.id));
              keys.push(key);
            }
          }
          if (ids.length) {
            await client.query(
              'UPDATE bookmarks b SET link_key = k.key FROM unnest($1::bigint[], $2::text[]) AS k(id, key) WHERE b.id = k.id',
              [ids, keys],
            );
            changed += ids.length;
          }
          if (rows.length < BATCH) break;
          after = Number(rows[rows.length - 1].id);
        }
        await client.query(
          'INSERT INTO link_key_version (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version',
          [version],
        );
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw new Error(`Re-keying saved links for URL key version ${version} failed: ${(err as Error).message}`);
    }
  } finally {
    own?.release();
  }
  return changed;
}
