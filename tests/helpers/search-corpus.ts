// One bookmark of a search test corpus, written straight into a SQLite database (user 1, Unsorted),
// with its tags and highlights: the search compilers' tests on both backends read the same rows.
import type { Db } from '../../server/db/open.js';

export interface SearchRow {
  title: string;
  tags?: string[];
  link?: string;
  excerpt?: string;
  note?: string;
  type?: string;
  important?: boolean;
  broken?: boolean;
  lang?: string | null;
  created?: string;
  lastUpdate?: string;
  highlights?: string[];
}

/** Inserts the row and records its id under `name` in `ids`. */
export function seedSearchRow(db: Db, ids: Record<string, number>, name: string, r: SearchRow): void {
  const link = r.link ?? `https://${name}.example.org/page`;
  const host = new URL(link).hostname.replace(/^www\./, '');
  const created = r.created ?? '2024-05-10T10:00:00.000Z';
  const info = db
    .prepare(
      `INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, title, excerpt, note, type, tags,
         important, broken, lang, created, last_update)
       VALUES (1, 1, -1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      link, link.replace(/^https?:\/\/(www\.)?/, '').toLowerCase(), host, r.title, r.excerpt ?? '', r.note ?? '',
      r.type ?? 'link', JSON.stringify(r.tags ?? []), r.important ? 1 : 0, r.broken ? 1 : 0, r.lang ?? null, created,
      r.lastUpdate ?? created,
    );
  const id = Number(info.lastInsertRowid);
  for (const t of r.tags ?? []) db.prepare('INSERT INTO bookmark_tags VALUES (?, 1, ?)').run(id, t);
  (r.highlights ?? []).forEach((text, i) =>
    db
      .prepare("INSERT INTO highlights (id, bookmark_id, user_id, text, created, last_update) VALUES (?, ?, 1, ?, ?, ?)")
      .run(`${String(id).padStart(12, '0')}${String(i).padStart(12, '0')}`, id, text, created, created),
  );
  ids[name] = id;
}
