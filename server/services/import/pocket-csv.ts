import type { CsvTable } from './csv-table.js';
import { epochToIso, splitTagList, type ImportBuilder } from './import-builder.js';
import { ImportFormatError } from './types.js';

/** Pocket's `status` values and the folder names its HTML export uses for them. */
const STATUS_FOLDERS: Record<string, string> = {
  unread: 'Unread',
  archive: 'Read Archive',
  archived: 'Read Archive',
};

/**
 * Reads Pocket's CSV export (title,url,time_added,tags,status; tags separated by "|"). Rows are
 * grouped into top-level folders by status, named as in Pocket's HTML export.
 */
export function readPocketCsv(table: CsvTable, builder: ImportBuilder): void {
  for (const row of table.rows) {
    const link = row.cell('url');
    if (!link) throw new ImportFormatError(`CSV row ${row.rowNumber} has no URL`);
    const status = row.cell('status').toLowerCase();
    const name = STATUS_FOLDERS[status] ?? (status ? capitalise(status) : 'Unread');
    const folder = builder.topFolder(name);
    builder.addBookmark(folder, {
      link,
      title: row.cell('title'),
      tags: splitTagList(row.cell('tags'), ['|', ',']),
      created: epochToIso(row.cell('time_added')),
    });
  }
}

function capitalise(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
