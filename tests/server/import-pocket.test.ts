import { describe, expect, it } from 'vitest';
import { convertImportFile } from '../../server/services/import/index.js';
import { importFixture } from '../fixtures/import/read-fixture.js';

const NOW = new Date('2030-01-01T00:00:00.000Z');
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('Pocket HTML export', () => {
  const result = convertImportFile(importFixture('pocket-export.html'), 'ril_export.html', { now: NOW });

  it('makes one top-level folder per heading', () => {
    expect(result.items.map((f) => f.title)).toEqual(['Unread', 'Read Archive']);
    expect(result.items.every((f) => f.folders.length === 0)).toBe(true);
  });

  it('reads href, title, time_added and comma-separated tags', () => {
    expect(result.items[0]!.bookmarks).toEqual([
      {
        link: 'https://longread.example.com/story',
        title: 'A long story',
        excerpt: '',
        note: '',
        tags: ['reading', 'longform'],
        created: iso(1580000000),
        lastUpdate: iso(1580000000),
        cover: '',
        media: [],
        important: false,
      },
      expect.objectContaining({ link: 'https://video.example.com/watch?v=abc&t=10', title: 'A video', tags: [] }),
    ]);
    expect(result.items[1]!.bookmarks.map((b) => b.title)).toEqual(['Post one']);
  });

  it('counts bookmarks, folders, distinct tags and the skipped javascript: link', () => {
    expect(result.count).toEqual({ bookmarks: 3, folders: 2, tags: 2, highlights: 0, duplicates: 0, skipped: 1 });
  });

  it('adds no folder for an empty section', () => {
    const html = `<!DOCTYPE html><html><head><title>Pocket Export</title></head><body>
      <h1>Unread</h1><ul></ul>
      <h1>Read Archive</h1><ul><li><a href="https://a.example/" time_added="1570000000" tags="">A</a></li></ul>
      </body></html>`;
    const converted = convertImportFile(Buffer.from(html));
    expect(converted.items.map((f) => f.title)).toEqual(['Read Archive']);
    expect(converted.count.folders).toBe(1);
  });
});

describe('Pocket CSV export', () => {
  const result = convertImportFile(importFixture('pocket-export.csv'), 'part_000000.csv', { now: NOW });

  it('groups rows by status into the same folders as the HTML export', () => {
    expect(result.items.map((f) => f.title)).toEqual(['Unread', 'Read Archive']);
  });

  it('reads quoted fields, "|"-separated tags and time_added', () => {
    const [story, quotes] = result.items[0]!.bookmarks;
    expect(story).toMatchObject({
      link: 'https://longread.example.com/story',
      tags: ['reading', 'longform'],
      created: iso(1580000000),
    });
    expect(quotes).toMatchObject({
      title: 'Quotes, commas and "more"',
      link: 'https://quotes.example.com/q?a=1&b=2',
      tags: [],
    });
  });

  it('skips the mailto: row and counts it', () => {
    expect(result.count).toEqual({ bookmarks: 3, folders: 2, tags: 2, highlights: 0, duplicates: 0, skipped: 1 });
  });

  it('fails on a row without a URL, naming the row', () => {
    const csv = 'title,url,time_added,tags,status\nok,https://a.example/,1,,unread\nbroken,,2,,unread\n';
    expect(() => convertImportFile(Buffer.from(csv))).toThrowError('CSV row 3 has no URL');
  });
});
