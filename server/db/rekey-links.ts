// Re-keying stored links (SQLite): when lib/api/url.ts's URL_KEY_VERSION differs from the version
// the stored `bookmarks.link_key` values were made with, every bookmark gets the key of today's code
// (one transaction; the link_changes triggers tell the extensions' saved-link indexes).
import type Database from 'better-sqlite3';
import { normalizeUrl, URL_KEY_VERSION } from '../../lib/api/url.js';

const BATCH = 5000;

/** Re-keys every bookmark when the stored key version is not this code's; answers how many keys changed. */
export function rekeyLinks(db: Database.Database, version = URL_KEY_VERSION, keyOf: (link: string) => string | null = normalizeUrl): number {
  let changed = 0;
  db.exec('BEGIN IMMEDIATE');
  try {
    const stored = (db.prepare('SELECT version FROM link_key_version WHERE id = 1').get() as { version: number } | undefined)?.version;
    if (stored !== version) {
      const read = db.prepare('SELECT id, link, link_key FROM bookmarks WHERE id > ? ORDER BY id LIMIT ?');
      const write = db.prepare('UPDATE bookmarks SET link_key = ? WHERE id = ?');
      for (let after = 0; ; ) {
        const rows = read.all(after, BATCH) as { id: number; link: string; link_key: string }[];
        for (const r of rows) {
          // A link no key can be made for (never stored: links are checked on the way in) keeps its key.
          const key = keyOf(r.link) ?? r.link_key;
          if (key !== r.link_key) {
            write.run(key, r.id);
            changed++;
          }
        }
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1].id;
      }
      db.prepare('INSERT INTO link_key_version (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version').run(version);
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw new Error(`Re-keying saved links for URL key version ${version} failed: ${(err as Error).message}`);
  }
  return changed;
}
