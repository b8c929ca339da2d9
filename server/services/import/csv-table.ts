import { parse } from 'csv-parse/sync';
import { ImportFormatError } from './types.js';

/** A CSV export read into rows, with a case-insensitive lookup of the header's columns. */
export interface CsvTable {
  /** header names as written in the file */
  header: string[];
  /** data rows; `rowNumber` counts the header as row 1, as a spreadsheet shows it */
  rows: { rowNumber: number; cells: string[] }[];
  /** index of a column by name (case and surrounding space ignored), or -1 */
  column(name: string): number;
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
  const rows: CsvTable['rows'] = [];
  for (let i = 1; i < records.length; i++) {
    const cells = records[i]!;
    if (cells.every((cell) => cell.trim() === '')) continue;
    rows.push({ rowNumber: i + 1, cells });
  }
  return {
    header,
    rows,
    column: (name: string) => index.get(name.toLowerCase()) ?? -1,
  };
}

function describeCsvError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
