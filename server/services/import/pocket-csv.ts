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
  const col = {
    url: table.column('url'),
    title: table.column('title'),
    added: table.column('time_added'),
    tags: table.column('tags'),
    status: table.column('status'),
  };
  for (const { rowNumber, cells } of table.rows) {
    const link = cell(cells, col.url);
    if (!link) throw new ImportFormatError(`CSV row ${rowNumber} has no URL`);
    const status = cell(cells, col.status).toLowerCase();
    const name = STATUS_FOLDERS[status] ?? (status ? capitalise(status) : 'Unread');
    const folder = builder.topFolder(name);
    builder.addBookmark(folder, {
      link,
      title: cell(cells, col.title),
      tags: splitTagList(cell(cells, col.tags), ['|', ',']),
      created: epochToIso(cell(cells, col.added)),
    });
  }
}

function cell(cells: string[], index: number): string {
  return index >= 0 ? (cells[index] ?? '').trim() : '';
}

function capitalise(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
