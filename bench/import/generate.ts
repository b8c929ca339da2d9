// The synthetic Netscape bookmark file the import and export benchmarks use.

/**
 * A Chrome/Firefox-like export: 10 top folders x 10 subfolders x 10 leaf folders, bookmarks
 * spread over all of them, a third with tags, a tenth with descriptions, some bookmarklets.
 */
export function generateNetscape(total: number): string {
  const parts: string[] = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n',
    '<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n',
  ];
  const folderCount = 10 + 100 + 1000;
  const perFolder = Math.ceil(total / folderCount);
  let made = 0;
  const epoch = 1_600_000_000;
  const bookmarks = (indent: string) => {
    for (let i = 0; i < perFolder && made < total; i++, made++) {
      const n = made;
      const tags = n % 3 === 0 ? ` TAGS="topic${n % 97},area${n % 13}"` : '';
      const href = n % 500 === 0 ? 'javascript:void(0)' : `https://site${n % 5000}.example.com/articles/${n}?ref=bench&amp;page=${n % 7}`;
      parts.push(
        `${indent}<DT><A HREF="${href}" ADD_DATE="${epoch + n}" LAST_MODIFIED="${epoch + n + 60}"${tags}>Article number ${n} &amp; friends</A>\n`,
      );
      if (n % 10 === 0) parts.push(`${indent}<DD>Description of article ${n}, with &lt;markup&gt; in it\n`);
    }
  };
  for (let a = 0; a < 10; a++) {
    parts.push(`    <DT><H3 ADD_DATE="${epoch}" LAST_MODIFIED="${epoch}">Folder ${a}</H3>\n    <DL><p>\n`);
    bookmarks('        ');
    for (let b = 0; b < 10; b++) {
      parts.push(`        <DT><H3 ADD_DATE="${epoch}">Folder ${a}.${b}</H3>\n        <DL><p>\n`);
      bookmarks('            ');
      for (let c = 0; c < 10; c++) {
        parts.push(`            <DT><H3 ADD_DATE="${epoch}">Folder ${a}.${b}.${c}</H3>\n            <DL><p>\n`);
        bookmarks('                ');
        parts.push('            </DL><p>\n');
      }
      parts.push('        </DL><p>\n');
    }
    parts.push('    </DL><p>\n');
  }
  parts.push('</DL><p>\n');
  return parts.join('');
}
