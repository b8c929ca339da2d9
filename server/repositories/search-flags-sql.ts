// SQL both search compilers share: the flag conditions and LIKE escaping are plain SQL that SQLite
// and PostgreSQL read alike (the bookmark row is `b`).
import type { FlagName } from '../domain/search/ast.js';

/** SQL true when the flag holds. */
export const FLAG_SQL: Record<FlagName, string> = {
  important: 'b.important = 1',
  notag: 'NOT EXISTS (SELECT 1 FROM bookmark_tags bt WHERE bt.bookmark_id = b.id)',
  note: "b.note <> ''",
  highlights: 'EXISTS (SELECT 1 FROM highlights h WHERE h.bookmark_id = b.id)',
  // A bookmark made from an uploaded file (PUT /bookmark/file) owns a `files` row of kind 'file';
  // covers are kind 'cover' and do not count.
  file: "EXISTS (SELECT 1 FROM files f WHERE f.bookmark_id = b.id AND f.kind = 'file')",
  broken: 'b.broken = 1',
  duplicate:
    'EXISTS (SELECT 1 FROM bookmarks d WHERE d.user_id = b.user_id AND d.link_key = b.link_key AND d.id <> b.id AND d.removed = 0)',
};

/** Escapes LIKE's wildcards for a pattern used with `ESCAPE '\'`. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);
