import { describe, expect, it } from 'vitest';
import { convertImportFile, ImportFormatError } from '../../server/services/import/index.js';
import { importFixture } from '../fixtures/import/read-fixture.js';

function errorOf(run: () => unknown): ImportFormatError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFormatError);
    return error as ImportFormatError;
  }
  throw new Error('expected an ImportFormatError');
}

const UNSUPPORTED = 'file is not a Netscape bookmark file, Pocket export or Instapaper CSV';

describe('files that are not bookmark exports', () => {
  it('refuses an empty file', () => {
    const error = errorOf(() => convertImportFile(importFixture('empty.html')));
    expect(error.message).toBe(`${UNSUPPORTED}: the file is empty`);
  });

  it('refuses a file of blank space', () => {
    expect(errorOf(() => convertImportFile(Buffer.from('  \n\t\n'))).message).toContain('only blank space');
  });

  it('refuses binary junk and says it is binary', () => {
    const error = errorOf(() => convertImportFile(importFixture('junk.bin'), 'photo.png'));
    expect(error.message).toMatch(/^photo\.png: file is not a Netscape bookmark file, Pocket export or Instapaper CSV: it holds binary data/);
  });

  it('refuses an ordinary HTML page and names it', () => {
    const error = errorOf(() => convertImportFile(importFixture('not-bookmarks.html')));
    expect(error.message).toContain(UNSUPPORTED);
    expect(error.message).toContain('"Quarterly report"');
    expect(error.message).toContain('without a bookmark list');
  });

  it('refuses a CSV without a URL column and lists the columns it found', () => {
    const error = errorOf(() => convertImportFile(importFixture('no-url-column.csv')));
    expect(error.message).toContain('CSV has no URL column');
    expect(error.message).toContain('name, address, visited');
  });

  it('refuses a CSV with a URL column but neither Pocket nor Instapaper columns', () => {
    const error = errorOf(() => convertImportFile(Buffer.from('url,comment\nhttps://a.example/,hi\n')));
    expect(error.message).toContain('CSV is not a Pocket or Instapaper export');
  });

  it('refuses JSON and plain text', () => {
    expect(errorOf(() => convertImportFile(Buffer.from('{"items": []}'))).message).toContain('looks like JSON');
    expect(errorOf(() => convertImportFile(Buffer.from('just some notes\nmore notes\n'))).message).toContain(
      'neither HTML nor CSV',
    );
  });

  it('refuses a CSV with a broken quote, saying it cannot be read', () => {
    const csv = 'title,url,time_added,tags,status\n"unterminated,https://a.example/,1,,unread\n';
    expect(errorOf(() => convertImportFile(Buffer.from(csv))).message).toMatch(/^CSV file cannot be read: /);
  });

  it('does not trust the file name: a CSV called .html is read as CSV', () => {
    const result = convertImportFile(importFixture('pocket-export.csv'), 'bookmarks.html');
    expect(result.count.bookmarks).toBe(3);
  });
});
