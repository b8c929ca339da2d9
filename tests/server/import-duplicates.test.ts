import { describe, expect, it } from 'vitest';
import { convertImportFile } from '../../server/services/import/index.js';
import { importFixture } from '../fixtures/import/read-fixture.js';

describe('duplicate counting', () => {
  it('counts the bookmarks whose links the caller reports as saved', () => {
    const saved = new Set(['https://news.example.org/', 'https://bread.example.net/sourdough', 'https://elsewhere.example/']);
    const result = convertImportFile(importFixture('chrome-bookmarks.html'), undefined, {
      isSaved: (links) => new Set(links.filter((link) => saved.has(link))),
    });
    expect(result.count.duplicates).toBe(2);
    expect(result.count.bookmarks).toBe(4);
  });

  it('asks in batches of the given size, only about http(s) links, each link once per bookmark', () => {
    const calls: string[][] = [];
    convertImportFile(importFixture('firefox-bookmarks.html'), undefined, {
      duplicateBatchSize: 3,
      isSaved: (links) => {
        calls.push(links);
        return new Set();
      },
    });
    expect(calls.map((c) => c.length)).toEqual([3, 1]);
    expect(calls.flat().every((link) => link.startsWith('https://'))).toBe(true);
  });

  it('counts a link that appears twice in the file twice', () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p>
      <DT><H3>A</H3><DL><p><DT><A HREF="https://same.example/">one</A></DL><p>
      <DT><H3>B</H3><DL><p><DT><A HREF="https://same.example/">two</A></DL><p></DL>`;
    const result = convertImportFile(Buffer.from(html), undefined, { isSaved: (links) => new Set(links) });
    expect(result.count.duplicates).toBe(2);
  });

  it('reports 0 duplicates when no callback is given', () => {
    expect(convertImportFile(importFixture('pocket-export.html')).count.duplicates).toBe(0);
  });
});
