import { readCsvTable } from './csv-table.js';
import { decodeImportText } from './decode-text.js';
import { detectImportFormat } from './detect-format.js';
import { ImportBuilder } from './import-builder.js';
import { readInstapaperCsv } from './instapaper-csv.js';
import { readNetscape } from './netscape.js';
import { readPocketCsv } from './pocket-csv.js';
import { readPocketHtml } from './pocket-html.js';
import { ImportFormatError, type ConvertOptions, type ImportFormat, type ImportResult } from './types.js';

/**
 * Converts an uploaded bookmark export (Netscape bookmark HTML, Pocket HTML or CSV, Instapaper
 * CSV) into the POST /import/file shape. The format is detected from the content; `filename` is
 * only used to word errors. Nothing is saved: `options.isSaved` lets the caller count links the
 * user already has. Throws ImportFormatError for unknown or damaged files.
 */
export function convertImportFile(buf: Buffer, filename?: string, options: ConvertOptions = {}): ImportResult {
  try {
    const text = decodeImportText(buf);
    const format = detectImportFormat(text);
    const builder = new ImportBuilder(options.now, options.limits);
    readFormat(format, text, builder);
    return builder.finish(options);
  } catch (error) {
    if (error instanceof ImportFormatError && filename) {
      throw new ImportFormatError(`${filename}: ${error.message}`);
    }
    throw error;
  }
}

function readFormat(format: ImportFormat, text: string, builder: ImportBuilder): void {
  switch (format) {
    case 'netscape':
      return readNetscape(text, builder);
    case 'pocket-html':
      return readPocketHtml(text, builder);
    case 'pocket-csv':
      return readPocketCsv(readCsvTable(text), builder);
    case 'instapaper-csv':
      return readInstapaperCsv(readCsvTable(text), builder);
  }
}
