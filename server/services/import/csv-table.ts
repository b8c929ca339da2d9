import { parse } from 'csv-parse/sync';
import { ImportFormatError } from './types.js';

/** A CSV export read into data rows whose cells are looked up by the header's column names. */
export interface CsvTable {
  /** data rows; `rowNumber` counts the header as row 1, as a spreadsheet shows it */
  rows: CsvRow[];
}

interface CsvRow {
  rowNumber: number;
  /** the trimmed cell of the named column (case and surrounding space ignored); '' when the file has no such column */
  cell(name: string): string;
}

/** Reads the whole file as CSV. Blank lines are kept out of `rows` but still counted. */
export function readCsvTable(text: string): CsvTable {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (error) {
    throw new ImportFormatError(`CSV file cannot be read: ${describeCsvError(error)}`);
  }
  return toTable(records);
}

/** Only the header row, for detecting the format without reading everything. */
export function readCsvHeader(text: string): string[] | null {
  try {
    const records = parse(text, {
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      to_line: 1,
    }) as string[][];
    return records[0] ?? null;
  } catch {
    return null;
  }
}

function toTable(records: string[][]): CsvTable {
  const header = (records[0] ?? []).map((name) => name.trim());
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const key = name.toLowerCase();
    if (!index.has(key)) index.set(key, i);
  });
  const rows: CsvRow[] = [];
  for (let i = 1; i < records.length; i++) {
    const cells = records[i]!;
    if (cells.every((cell) => cell.trim() === '')) continue;
    rows.push({
      rowNumber: i + 1,
      cell(name: string) {
        const column = index.get(name.toLowerCase());
        return column === undefined ? '' : (cells[column] ?? '').trim();
      },
    });
  }
  return { rows };
}

function describeCsvError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
