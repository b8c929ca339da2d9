import { describe, expect, it } from 'vitest';
import { convertImportFile, ImportFormatError } from '../../server/services/import/index.js';
import { importFixture } from '../fixtures/import/read-fixture.js';

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('Instapaper CSV export', () => {
  const result = convertImportFile(importFixture('instapaper-export.csv'), 'instapaper-export.csv');

  it('makes a top-level folder for each Folder value, in first-seen order', () => {
    expect(result.items.map((f) => f.title)).toEqual(['Unread', 'Archive', 'Starred', 'Recipes']);
  });

  it('keeps a multi-line Selection as the excerpt and reads JSON tags and the timestamp', () => {
    expect(result.items[0]!.bookmarks[0]).toEqual({
      link: 'https://essay.example.com/on-writing',
      title: 'On Writing',
      excerpt: 'The first sentence, and the second\non a new line.',
      note: '',
      tags: ['writing', 'essays'],
      created: iso(1560000000),
      lastUpdate: iso(1560000000),
      cover: '',
      media: [],
      important: false,
    });
  });

  it('marks Starred entries important', () => {
    expect(result.items[2]!.bookmarks[0]).toMatchObject({ title: 'The Best One', important: true });
    expect(result.items[1]!.bookmarks[0]!.important).toBe(false);
  });

  it('counts everything', () => {
    expect(result.count).toEqual({ bookmarks: 4, folders: 4, tags: 3, highlights: 0, duplicates: 0, skipped: 0 });
  });

  it('reads the older export without a Tags column, with comma tags when given as text', () => {
    const csv = 'URL,Title,Selection,Folder,Timestamp\r\nhttps://a.example/,A,,Unread,1560000000\r\n';
    const converted = convertImportFile(Buffer.from(csv));
    expect(converted.items[0]!.bookmarks[0]).toMatchObject({ link: 'https://a.example/', title: 'A', tags: [] });
    const withTextTags = 'URL,Title,Selection,Folder,Timestamp,Tags\nhttps://b.example/,B,,Unread,1,"x, y"\n';
    expect(convertImportFile(Buffer.from(withTextTags)).items[0]!.bookmarks[0]!.tags).toEqual(['x', 'y']);
  });

  it('refuses a file with a row that has no URL and says which row', () => {
    let error: unknown;
    try {
      convertImportFile(importFixture('instapaper-missing-url.csv'), 'instapaper.csv');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportFormatError);
    expect((error as Error).message).toBe('instapaper.csv: CSV row 3 has no URL');
  });
});
