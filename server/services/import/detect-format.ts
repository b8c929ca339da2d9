import { Parser } from 'htmlparser2';
import { NestingGuard } from '../parse/nesting-depth.js';
import { readCsvHeader } from './csv-table.js';
import { UNSUPPORTED_FILE } from './decode-text.js';
import { ImportFormatError, type ImportFormat } from './types.js';

/** How much of an HTML file is looked at to tell Netscape from Pocket. */
const HTML_SNIFF_CHARS = 256 * 1024;

const POCKET_CSV_MARKERS = ['time_added', 'status'];
const INSTAPAPER_CSV_MARKERS = ['selection', 'folder', 'timestamp'];

/**
 * Tells the export format from the file's content (never its name). Throws ImportFormatError
 * naming what the file looks like instead.
 */
export function detectImportFormat(text: string): ImportFormat {
  const first = text.trimStart()[0];
  if (first === '<') return detectHtmlFormat(text.slice(0, HTML_SNIFF_CHARS));
  if (first === '{' || first === '[') {
    throw new ImportFormatError(`${UNSUPPORTED_FILE}: it looks like JSON`);
  }
  return detectCsvFormat(text);
}

function detectHtmlFormat(prefix: string): ImportFormat {
  let netscapeDoctype = false;
  let title = '';
  let inTitle = false;
  let dlDepth = 0;
  let entryInList = false;
  let pocketAnchor = false;
  // Past the nesting limit the sniff stops: what it saw decides, and the reader then refuses the file.
  const stop = new Error('deep enough');
  const nesting = new NestingGuard(() => stop);

  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (name === '!doctype' && data.toLowerCase().includes('netscape-bookmark-file')) {
          netscapeDoctype = true;
        }
      },
      onopentag(name, attribs) {
        nesting.enter();
        if (name === 'title') inTitle = true;
        else if (name === 'dl') dlDepth++;
        else if (name === 'a') {
          if ('time_added' in attribs) pocketAnchor = true;
          if (dlDepth > 0 && 'href' in attribs) entryInList = true;
        } else if (name === 'h3' && dlDepth > 0) entryInList = true;
      },
      ontext(data) {
        if (inTitle) title += data;
      },
      onclosetag(name) {
        nesting.leave();
        if (name === 'title') inTitle = false;
        else if (name === 'dl') dlDepth = Math.max(0, dlDepth - 1);
      },
    },
    { decodeEntities: true },
  );
  try {
    parser.write(prefix);
    parser.end();
  } catch (error) {
    if (error !== stop) throw error;
  }

  if (netscapeDoctype) return 'netscape';
  if (pocketAnchor || title.trim().toLowerCase() === 'pocket export') return 'pocket-html';
  if (entryInList) return 'netscape';
  const named = title.trim() ? ` ("${title.trim().slice(0, 80)}")` : '';
  throw new ImportFormatError(
    `${UNSUPPORTED_FILE}: it is an HTML page${named} without a bookmark list. Export bookmarks from your browser's bookmark manager ("Export bookmarks to HTML") and upload that file`,
  );
}

function detectCsvFormat(text: string): ImportFormat {
  const firstLine = text.slice(0, 4096).split(/\r?\n/, 1)[0] ?? '';
  if (!firstLine.includes(',')) {
    throw new ImportFormatError(`${UNSUPPORTED_FILE}: it is neither HTML nor CSV`);
  }
  const header = readCsvHeader(text);
  if (!header) {
    throw new ImportFormatError(`${UNSUPPORTED_FILE}: its first line cannot be read as a CSV header`);
  }
  const names = header.map((name) => name.trim().toLowerCase());
  if (!names.includes('url')) {
    throw new ImportFormatError(
      `CSV has no URL column: the first row names the columns (found: ${listColumns(header)}); a Pocket or Instapaper export has one called "url"`,
    );
  }
  if (POCKET_CSV_MARKERS.some((name) => names.includes(name))) return 'pocket-csv';
  if (INSTAPAPER_CSV_MARKERS.some((name) => names.includes(name))) return 'instapaper-csv';
  throw new ImportFormatError(
    `CSV is not a Pocket or Instapaper export: expected the columns title,url,time_added,tags,status (Pocket) or URL,Title,Selection,Folder,Timestamp (Instapaper), found ${listColumns(header)}`,
  );
}

function listColumns(header: string[]): string {
  const shown = header.slice(0, 12).map((name) => name.trim() || '(blank)');
  return shown.join(', ') + (header.length > 12 ? ', ...' : '');
}
