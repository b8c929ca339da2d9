import type { Db } from '../../db/open.js';

/**
 * Keeps `bookmarks_fts` in step with bookmarks, their tags and highlights. Synchronous on purpose:
 * repositories call it inside the same transaction as the write it follows.
 */
export class FullTextIndex {
  private readonly select;
  private readonly highlightText;
  private readonly remove;
  private readonly insert;

  constructor(private db: Db) {
    this.select = db.prepare('SELECT id, title, excerpt, note, link, domain, tags FROM bookmarks WHERE id = ?');
    this.highlightText = db.prepare(
      "SELECT group_concat(text || ' ' || note, ' ') AS t FROM highlights WHERE bookmark_id = ?",
    );
    this.remove = db.prepare('DELETE FROM bookmarks_fts WHERE rowid = ?');
    this.insert = db.prepare(
      'INSERT INTO bookmarks_fts (rowid, title, excerpt, note, link, domain, tags, highlights) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** Re-reads the bookmarks and rewrites their index rows; ids that no longer exist are dropped. */
  reindex(ids: Iterable<number>): void {
    for (const id of ids) {
      this.remove.run(id);
      const row = this.select.get(id) as
        | { id: number; title: string; excerpt: string; note: string; link: string; domain: string; tags: string }
        | undefined;
      if (!row) continue;
      const tags = (JSON.parse(row.tags) as string[]).join(' ');
      const highlights = (this.highlightText.get(id) as { t: string | null }).t ?? '';
      this.insert.run(id, row.title, row.excerpt, row.note, linkWords(row.link), row.domain, tags, highlights);
    }
  }

  /** Indexes a bookmark inserted in this transaction, from the values just written (no re-read). */
  add(id: number, doc: { title: string; excerpt: string; note: string; link: string; domain: string; tags: string[]; highlights: { text: string; note?: string }[] }): void {
    const highlights = doc.highlights.map((h) => `${h.text} ${h.note ?? ''}`).join(' ');
    this.insert.run(id, doc.title, doc.excerpt, doc.note, linkWords(doc.link), doc.domain, doc.tags.join(' '), highlights);
  }

  drop(ids: Iterable<number>): void {
    for (const id of ids) this.remove.run(id);
  }
}

/** Splits a URL into words so `link:` and plain words match path segments. */
function linkWords(link: string): string {
  return link.replace(/^https?:\/\//, '').replace(/[/?#&=._-]+/g, ' ');
}
