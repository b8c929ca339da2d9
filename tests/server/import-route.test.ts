import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { importFixture } from '../fixtures/import/read-fixture.js';
import { upload } from './upload-client.js';

let s: TestServer;
let user: { id: number; token: string };

beforeAll(async () => {
  s = await startServer();
  user = await s.createUser();
});
afterAll(async () => s.close());

const send = (name: string, method = 'POST', token: string | null = user.token) =>
  upload(s, method, '/import/file', [{ name: 'import', filename: name, content: importFixture(name), type: 'text/html' }], token);

function titles(folders: { title: string; folders: any[] }[]): unknown[] {
  return folders.map((f) => (f.folders.length ? [f.title, titles(f.folders)] : f.title));
}

describe('POST /import/file converts each supported export over HTTP', () => {
  it('a Chrome bookmark file: nested folders, dates, counts', async () => {
    const res = await send('chrome-bookmarks.html');
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    expect(titles(res.body.items)).toEqual([['Bookmarks bar', [['Recipes', ['Baking']]]], 'Other bookmarks']);
    expect(res.body.items[0].bookmarks[0]).toEqual({
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
    expect(res.body.count).toEqual({ bookmarks: 4, folders: 4, tags: 0, highlights: 0, duplicates: 0, skipped: 2 });
  });

  it('a Firefox bookmark file (sent with PUT): tags and descriptions', async () => {
    const res = await send('firefox-bookmarks.html', 'PUT');
    expect(res.status).toBe(200);
    const guide = res.body.items[0].bookmarks[0];
    expect(guide).toMatchObject({ link: 'https://docs.example.org/guide', tags: ['reference', 'docs'], excerpt: 'Everything about the <thing> & more' });
    expect(titles(res.body.items)).toEqual(['Bookmarks Menu', ['Bookmarks Toolbar', ['Work']], 'Other Bookmarks']);
    expect(res.body.count).toMatchObject({ bookmarks: 4, folders: 4, tags: 5 });
  });

  it('Pocket HTML and Pocket CSV give the same folders and links', async () => {
    const html = await send('pocket-export.html');
    const csv = await send('pocket-export.csv');
    expect(html.status).toBe(200);
    expect(csv.status).toBe(200);
    for (const res of [html, csv]) {
      expect(titles(res.body.items)).toEqual(['Unread', 'Read Archive']);
      expect(res.body.items[1].bookmarks[0]).toMatchObject({ link: 'https://blog.example.org/post-1', tags: ['reading'] });
      expect(res.body.count).toMatchObject({ bookmarks: 3, folders: 2, skipped: 1 });
    }
  });

  it('an Instapaper CSV: folders from the Folder column, selection as excerpt', async () => {
    const res = await send('instapaper-export.csv');
    expect(res.status).toBe(200);
    expect(titles(res.body.items)).toEqual(['Unread', 'Archive', 'Starred', 'Recipes']);
    expect(res.body.items[0].bookmarks[0]).toMatchObject({
      link: 'https://essay.example.com/on-writing',
      tags: ['writing', 'essays'],
    });
    expect(res.body.items[0].bookmarks[0].excerpt).toContain('The first sentence');
    expect(res.body.count).toMatchObject({ bookmarks: 4, duplicates: 0 });
  });

  it('counts links the caller saved already as duplicates (same page, other spelling), only the caller\'s', async () => {
    const other = await s.createUser();
    const made = await s.api('POST', '/bookmark', { token: user.token, body: { link: 'https://WWW.news.example.org/?utm_source=x' } });
    expect(made.status).toBe(200);
    const mine = await send('chrome-bookmarks.html');
    expect(mine.body.count.duplicates).toBe(1);
    const theirs = await send('chrome-bookmarks.html', 'POST', other.token);
    expect(theirs.body.count.duplicates).toBe(0);
    // A bookmark in Trash is not "saved".
    await s.api('DELETE', `/bookmark/${made.body.item._id}`, { token: user.token });
    expect((await send('chrome-bookmarks.html')).body.count.duplicates).toBe(0);
  });

  it('declares the folders\' `unsorted` flag (ours) in the OpenAPI document, and answers it for a Tidemark export\'s loose bookmarks', async () => {
    const doc = (await s.api('GET', '/openapi.json')).body;
    const items = doc.paths['/rest/v1/import/file'].post.responses['200'].content['application/json'].schema.properties.items.items;
    const folder = items.$ref ? doc.components.schemas[items.$ref.replace('#/components/schemas/', '')] : items;
    expect(folder.properties.unsorted).toMatchObject({ description: expect.stringContaining('Unsorted') });
    expect(folder.required).not.toContain('unsorted');
    const html = '<!DOCTYPE NETSCAPE-Bookmark-file-1><H1>Export</H1><DL><p><DT><A HREF="https://t.example/" DATA-EXCERPT="">T</A><DT><A HREF="https://b.example/">B</A></DL>';
    const res = await upload(s, 'POST', '/import/file', [{ name: 'import', filename: 'mixed.html', content: html, type: 'text/html' }], user.token);
    expect(res.status).toBe(200);
    expect(res.body.items.map((f: any) => [f.title, f.unsorted, f.bookmarks.map((b: any) => b.link)])).toEqual([
      ['Unsorted', true, ['https://t.example/']],
      ['Export', undefined, ['https://b.example/']],
    ]);
  });

  it('nothing is saved by converting', async () => {
    const fresh = await s.createUser();
    await send('firefox-bookmarks.html', 'POST', fresh.token);
    const list = await s.api('GET', '/bookmarks/0', { token: fresh.token });
    expect(list.body.count).toBe(0);
  });
});

describe('POST /import/file refuses what it cannot convert', () => {
  it('binary junk: 400 naming the file and the problem', async () => {
    const res = await send('junk.bin');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, status: 400 });
    expect(res.body.errorMessage).toMatch(/^junk\.bin: file is not a Netscape bookmark file, Pocket export or Instapaper CSV: it holds binary data/);
  });

  it('an ordinary HTML page and a CSV without links: 400 saying why', async () => {
    const page = await send('not-bookmarks.html');
    expect(page.status).toBe(400);
    expect(page.body.errorMessage).toContain('without a bookmark list');
    const csv = await send('no-url-column.csv');
    expect(csv.status).toBe(400);
    expect(csv.body.errorMessage).toMatch(/column/i);
  });

  it('an empty file: 400', async () => {
    const res = await send('empty.html');
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toContain('the file is empty');
  });

  it('no part named import: 400 saying what to send', async () => {
    const wrong = await upload(s, 'POST', '/import/file', [{ name: 'file', filename: 'b.html', content: importFixture('chrome-bookmarks.html') }], user.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorMessage).toMatch(/part named "import"/);
    const fieldOnly = await upload(s, 'POST', '/import/file', [{ name: 'import', content: 'just text' }], user.token);
    expect(fieldOnly.status).toBe(400);
    const json = await s.api('POST', '/import/file', { token: user.token, body: { import: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.errorMessage).toMatch(/multipart\/form-data/);
  });

  it('without a token: 401', async () => {
    expect((await send('chrome-bookmarks.html', 'POST', null)).status).toBe(401);
  });

  it('counts against the small rate-limit bucket', async () => {
    const limited = await startServer({ rateLimit: { perMinute: 1000, smallPerMinute: 7 } });
    try {
      const u = await limited.createUser();
      const res = await upload(limited, 'POST', '/import/file', [{ name: 'import', filename: 'c.html', content: importFixture('chrome-bookmarks.html') }], u.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('7');
    } finally {
      await limited.close();
    }
  });
});

describe('import file size limit', () => {
  it('a file over the configured limit: 413 envelope naming the limit', async () => {
    const small = await startServer({ uploads: { ...defaultConfig().uploads, importMaxBytes: 1024 } });
    try {
      const u = await small.createUser();
      const big = Buffer.concat([importFixture('chrome-bookmarks.html'), Buffer.alloc(2048, 0x20)]);
      const res = await upload(small, 'POST', '/import/file', [{ name: 'import', filename: 'big.html', content: big }], u.token);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ result: false, status: 413 });
      expect(res.body.errorMessage).toContain('1 KB');
      // Under the limit still works on the same server.
      const ok = await upload(small, 'POST', '/import/file', [{ name: 'import', filename: 'ok.csv', content: importFixture('pocket-export.csv') }], u.token);
      expect(ok.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('the default limit is 50 MB: a 50 MB + 1 byte upload gets 413', async () => {
    const res = await upload(s, 'POST', '/import/file', [{ name: 'import', filename: 'huge.html', content: Buffer.alloc(50 * 1024 * 1024 + 1, 0x20) }], user.token);
    expect(res.status).toBe(413);
    expect(res.body.errorMessage).toContain('50 MB');
  });
});
