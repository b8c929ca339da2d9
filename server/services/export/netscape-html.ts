import type { ExportEvent } from './walk.js';

/** Text for HTML element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const seconds = (iso: string): string => String(Math.floor(Date.parse(iso) / 1000));

/**
 * A Netscape bookmark file, the format every browser imports: collections become nested
 * `<H3>` folders, each bookmark a `<DT><A HREF ADD_DATE LAST_MODIFIED TAGS>` with its note as the
 * following `<DD>` (line breaks as `<BR>`). Tidemark's own fields ride along as `DATA-EXCERPT`
 * and `DATA-FAVOURITE`; the importer reads them back, and the `DATA-EXCERPT` attribute (written on
 * every bookmark, even empty) tells it that `<DD>` holds a note (other browsers put a description
 * there). Bookmarks outside any collection (Unsorted, Trash) are written loose in the outermost
 * list, where browsers file them under their own root; Tidemark's importer puts loose bookmarks
 * carrying `DATA-EXCERPT` back in Unsorted (see server/services/import/netscape.ts).
 */
export async function* netscapeHtml(events: AsyncIterable<ExportEvent>, title: string): AsyncGenerator<string> {
  yield '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n' +
    '<!-- This is an automatically generated file. It will be read and overwritten. DO NOT EDIT! -->\n' +
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n' +
    `<TITLE>${escapeHtml(title)}</TITLE>\n<H1>${escapeHtml(title)}</H1>\n<DL><p>\n`;
  for await (const e of events) {
    const pad = '    '.repeat(e.depth + 1);
    if (e.kind === 'open') {
      yield `${pad}<DT><H3>${escapeHtml(e.folder.title)}</H3>\n${pad}<DL><p>\n`;
    } else if (e.kind === 'close') {
      yield `${pad}</DL><p>\n`;
    } else {
      let out = '';
      for (const b of e.items) {
        const attrs = [
          `HREF="${escapeHtml(b.link)}"`,
          `ADD_DATE="${seconds(b.created)}"`,
          `LAST_MODIFIED="${seconds(b.lastUpdate)}"`,
        ];
        if (b.tags.length) attrs.push(`TAGS="${escapeHtml(b.tags.join(','))}"`);
        attrs.push(`DATA-EXCERPT="${escapeHtml(b.excerpt)}"`);
        if (b.important) attrs.push('DATA-FAVOURITE="1"');
        out += `${pad}<DT><A ${attrs.join(' ')}>${escapeHtml(b.title)}</A>\n`;
        if (b.note) out += `${pad}<DD>${escapeHtml(b.note).replace(/\r?\n/g, '<BR>')}\n`;
      }
      yield out;
    }
  }
  yield '</DL><p>\n';
}
