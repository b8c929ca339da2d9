import type { Bookmark } from '../../../lib/api/types.js';
import type { ExportEvent } from './walk.js';

const CSV_COLUMNS = ['id', 'title', 'note', 'excerpt', 'url', 'folder path', 'tags', 'created', 'cover', 'highlights', 'favourite'] as const;

/**
 * Starts a value a spreadsheet may run as a formula: `=`, `+`, `-`, `@` (or their fullwidth forms,
 * which some spreadsheets read as the same), tab or a line break, also after leading spaces.
 */
const FORMULA_START = /^[\s\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r\n]/;

/**
 * One CSV field, always quoted (quotes doubled). A value a spreadsheet would run as a formula gets
 * a leading `'`, the usual guard against CSV formula injection; numbers we write ourselves are
 * left alone.
 */
function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Highlights as text: each quote on its own paragraph, its note after "Note: ". */
function highlightsText(b: Bookmark): string {
  return b.highlights.map((h) => (h.note ? `${h.text}\nNote: ${h.note}` : h.text)).join('\n\n');
}

/**
 * CSV (RFC 4180, CRLF rows, UTF-8 with a byte-order mark so spreadsheets read accents right):
 * id, title, note, excerpt, url, folder (path joined by " / "), tags (comma separated), created
 * (ISO 8601), cover, highlights, favourite (true/false).
 */
export async function* csv(events: AsyncIterable<ExportEvent>): AsyncGenerator<string> {
  yield `\uFEFF${CSV_COLUMNS.join(',')}\r\n`;
  for await (const e of events) {
    if (e.kind !== 'bookmarks') continue;
    const folder = e.path.join(' / ');
    let out = '';
    for (const b of e.items) {
      out += [
        String(b._id),
        csvField(b.title),
        csvField(b.note),
        csvField(b.excerpt),
        csvField(b.link),
        csvField(folder),
        csvField(b.tags.join(', ')),
        csvField(b.created),
        csvField(b.cover),
        csvField(highlightsText(b)),
        b.important ? 'true' : 'false',
      ].join(',') + '\r\n';
    }
    yield out;
  }
}
