import { describe, expect, it } from 'vitest';
import { convertImportFile, type ImportFolder } from '../../server/services/import/index.js';
import { importFixture } from '../fixtures/import/read-fixture.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');

function folderTitles(folders: ImportFolder[]): unknown[] {
  return folders.map((f) => (f.folders.length ? [f.title, folderTitles(f.folders)] : f.title));
}

describe('Netscape bookmark file from Chrome', () => {
  const result = convertImportFile(importFixture('chrome-bookmarks.html'), 'bookmarks.html', { now: NOW });

  it('keeps the nested folder tree in document order', () => {
    expect(folderTitles(result.items)).toEqual([
      ['Bookmarks bar', [['Recipes', ['Baking']]]],
      'Other bookmarks',
    ]);
    expect(result.count.folders).toBe(4);
  });

  it('puts each bookmark in its folder with decoded title and link', () => {
    const [bar, other] = result.items;
    expect(bar!.bookmarks.map((b) => b.link)).toEqual(['https://news.example.org/']);
    const recipes = bar!.folders[0]!;
    expect(recipes.bookmarks[0]).toMatchObject({
      link: 'https://cook.example.com/pasta?id=7&lang=en',
      title: 'Pasta & Sauce',
    });
    expect(recipes.folders[0]!.bookmarks[0]!.title).toBe('Sourdough – a guide');
    expect(other!.bookmarks[0]!.link).toBe('http://plain-http.example.com/page');
  });

  it('turns ADD_DATE epoch seconds into ISO dates and fills the remaining fields', () => {
    const news = result.items[0]!.bookmarks[0]!;
    expect(news).toEqual({
      link: 'https://news.example.org/',
      title: 'Example News',
      excerpt: '',
      note: '',
      tags: [],
      created: new Date(1690000100 * 1000).toISOString(),
      lastUpdate: new Date(1690000100 * 1000).toISOString(),
      cover: '',
      media: [],
      important: false,
    });
  });

  it('skips the javascript: bookmarklet and the chrome:// link and counts them', () => {
    expect(result.count).toEqual({ bookmarks: 4, folders: 4, tags: 0, highlights: 0, duplicates: 0, skipped: 2 });
    const json = JSON.stringify(result);
    expect(json).not.toContain('javascript:');
    expect(json).not.toContain('chrome://');
  });
});

describe('Netscape bookmark file from Firefox', () => {
  const result = convertImportFile(importFixture('firefox-bookmarks.html'), undefined, { now: NOW });

  it('collects bookmarks lying in the outermost list into a folder named after the H1', () => {
    expect(folderTitles(result.items)).toEqual([
      'Bookmarks Menu',
      ['Bookmarks Toolbar', ['Work']],
      'Other Bookmarks',
    ]);
    expect(result.items[0]!.bookmarks.map((b) => b.title)).toEqual(['The Guide']);
  });

  it('reads TAGS, LAST_MODIFIED and DD descriptions', () => {
    const guide = result.items[0]!.bookmarks[0]!;
    expect(guide.tags).toEqual(['reference', 'docs']);
    expect(guide.excerpt).toBe('Everything about the <thing> & more');
    expect(guide.created).toBe('2020-09-13T12:26:40.000Z');
    expect(guide.lastUpdate).toBe(new Date(1650000000 * 1000).toISOString());

    const album = result.items[1]!.bookmarks[0]!;
    expect(album.tags).toEqual(['music', 'listen later']);
    expect(album.excerpt).toBe('');

    const issues = result.items[1]!.folders[0]!.bookmarks[0]!;
    expect(issues).toMatchObject({ title: 'Open issues', excerpt: 'Team tracker', tags: ['work'] });
  });

  it('does not attach a folder description to a bookmark', () => {
    for (const b of result.items.flatMap((f) => f.bookmarks)) {
      expect(b.excerpt).not.toContain('Bookmarks Toolbar');
    }
  });

  it('skips place: and data: links, keeps unicode, counts distinct tags', () => {
    expect(result.count).toMatchObject({ bookmarks: 4, folders: 4, tags: 5, skipped: 2 });
    expect(result.items[2]!.bookmarks[0]).toMatchObject({
      link: 'https://ünïcode.example.com/päge',
      title: 'Ünïcode title ✓',
    });
  });

  it('reads the same file saved as UTF-16 with a byte-order mark', () => {
    const text = importFixture('firefox-bookmarks.html').toString('utf8');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(convertImportFile(utf16, undefined, { now: NOW })).toEqual(result);
  });
});

describe('Netscape edge cases', () => {
  it('uses the conversion time for entries without dates, and LAST_MODIFIED alone for both', () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p>
      <DT><H3>F</H3><DL><p>
        <DT><A HREF="https://a.example/">no date</A>
        <DT><A HREF="https://b.example/" ADD_DATE="0" LAST_MODIFIED="1600000000">modified only</A>
        <DT><A HREF="https://c.example/" ADD_DATE="1600000000123">milliseconds</A>
      </DL><p></DL>`;
    const [a, b, c] = convertImportFile(Buffer.from(html), undefined, { now: NOW }).items[0]!.bookmarks;
    expect(a).toMatchObject({ created: NOW.toISOString(), lastUpdate: NOW.toISOString(), title: 'no date' });
    expect(b).toMatchObject({ created: '2020-09-13T12:26:40.000Z', lastUpdate: '2020-09-13T12:26:40.000Z' });
    expect(c!.created).toBe('2020-09-13T12:26:40.123Z');
  });

  it('is recognised without the DOCTYPE line, by its DL/DT structure', () => {
    const html = `<html><body><h1>Mine</h1><dl><dt><a href="https://x.example/">X</a></dt></dl></body></html>`;
    const result = convertImportFile(Buffer.from(html));
    expect(result.items).toEqual([{ title: 'Mine', folders: [], bookmarks: [expect.objectContaining({ link: 'https://x.example/' })] }]);
  });

  it('uses the link as title when the anchor has no text, and names untitled folders', () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p><DT><H3></H3><DL><p><DT><A HREF=" https://t.example/x "></A></DL></DL>`;
    const folder = convertImportFile(Buffer.from(html)).items[0]!;
    expect(folder.title).toBe('Untitled folder');
    expect(folder.bookmarks[0]).toMatchObject({ link: 'https://t.example/x', title: 'https://t.example/x' });
  });

  it('reads an old Windows-1252 export that is not valid UTF-8', () => {
    const html = Buffer.from('<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p><DT><H3>Caf\xe9s</H3><DL><p><DT><A HREF="https://cafe.example/">Caf\xe9 cr\xe8me</A></DL></DL>', 'latin1');
    const folder = convertImportFile(html).items[0]!;
    expect(folder.title).toBe('Cafés');
    expect(folder.bookmarks[0]!.title).toBe('Café crème');
  });

  it('accepts a bookmark file with no bookmarks at all', () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1><TITLE>Bookmarks</TITLE><H1>Bookmarks</H1><DL><p></DL><p>`;
    expect(convertImportFile(Buffer.from(html))).toEqual({
      items: [],
      count: { bookmarks: 0, folders: 0, tags: 0, highlights: 0, duplicates: 0, skipped: 0 },
    });
  });
});

describe('loose bookmarks: a browser file\'s versus a Tidemark export\'s', () => {
  it('a browser file\'s loose bookmarks go into a folder named after its <H1>, with no `unsorted` flag', () => {
    const result = convertImportFile(importFixture('firefox-bookmarks.html'), undefined, { now: NOW });
    expect(result.items[0]!.title).toBe('Bookmarks Menu');
    expect(result.items.some((f) => 'unsorted' in f)).toBe(false);
  });

  it('a file mixing both: Tidemark\'s (DATA-EXCERPT) go to the folder flagged unsorted, the others to the <H1> folder', () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<TITLE>Tidemark bookmarks</TITLE><H1>Tidemark bookmarks</H1>
<DL><p>
    <DT><H3>Reading</H3>
    <DL><p>
        <DT><A HREF="https://in.example/folder" ADD_DATE="1600000000" DATA-EXCERPT="">In a folder</A>
    </DL><p>
    <DT><A HREF="https://browser.example/loose" ADD_DATE="1600000000">Pasted from a browser</A>
    <DD>A browser's description
    <DT><A HREF="https://tidemark.example/unsorted" ADD_DATE="1600000000" TAGS="a,b" DATA-EXCERPT="Its excerpt" DATA-FAVOURITE="1">From Unsorted</A>
    <DD>Line one<BR>line two
    <DT><A HREF="https://tidemark.example/plain" ADD_DATE="1600000000" DATA-EXCERPT="">No excerpt</A>
</DL><p>`;
    const result = convertImportFile(Buffer.from(html), undefined, { now: NOW });
    expect(result.items.map((f) => [f.title, f.unsorted ?? false, f.bookmarks.map((b) => b.link)])).toEqual([
      ['Unsorted', true, ['https://tidemark.example/unsorted', 'https://tidemark.example/plain']],
      ['Tidemark bookmarks', false, ['https://browser.example/loose']],
      ['Reading', false, ['https://in.example/folder']],
    ]);
    expect(result.items[0]!.folders).toEqual([]);
    expect(result.items[0]!.bookmarks[0]).toMatchObject({ excerpt: 'Its excerpt', note: 'Line one\nline two', tags: ['a', 'b'], important: true });
    expect(result.items[1]!.bookmarks[0]).toMatchObject({ excerpt: "A browser's description", note: '' });
    expect(result.count).toMatchObject({ bookmarks: 4, folders: 3 });
  });
});
