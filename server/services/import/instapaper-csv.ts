import type { CsvTable } from './csv-table.js';
import { epochToIso, splitTagList, type ImportBuilder } from './import-builder.js';
import { ImportFormatError } from './types.js';

const STARRED = 'starred';

/**
 * Reads Instapaper's CSV export (URL,Title,Selection,Folder,Timestamp and, in newer exports,
 * Tags). Each Folder value (Unread, Archive, Starred or a folder of the user's) becomes a
 * top-level folder; Starred entries are also marked important. Selection becomes the excerpt.
 */
export function readInstapaperCsv(table: CsvTable, builder: ImportBuilder): void {
  for (const row of table.rows) {
    const link = row.cell('url');
    if (!link) throw new ImportFormatError(`CSV row ${row.rowNumber} has no URL`);
    const name = row.cell('folder') || 'Unread';
    const folder = builder.topFolder(name);
    builder.addBookmark(folder, {
      link,
      title: row.cell('title'),
      excerpt: row.cell('selection'),
      tags: instapaperTags(row.cell('tags')),
      created: epochToIso(row.cell('timestamp')),
      important: name.toLowerCase() === STARRED,
    });
  }
}

/** Tags are written as a JSON array (["a","b"]) by Instapaper; plain "a,b" is accepted too. */
function instapaperTags(value: string): string[] {
  if (!value) return [];
  if (value.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) {
        return parsed.flatMap((tag): string[] => {
          if (typeof tag === 'string') return [tag];
          if (tag && typeof tag === 'object' && typeof (tag as { name?: unknown }).name === 'string') {
            return [(tag as { name: string }).name];
          }
          return [];
        });
      }
    } catch {
      // not JSON after all: fall through to the comma-separated form
    }
  }
  return splitTagList(value);
}
