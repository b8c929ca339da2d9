// A hostile or broken import file must not hurt the server: folders nested deeper than
// LIMITS.importFolderDepthMax and files with more entries than the limit get a clear 400, and the
// conversion runs off the request thread, so other users keep being answered meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../lib/api/constants.js';
import { defaultConfig } from '../../server/config.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { upload } from './upload-client.js';

let s: TestServer;
let user: { id: number; token: string };
let bystander: { id: number; token: string };

/** A Netscape file whose folders nest `depth` deep, one bookmark in the deepest. */
function nestedFile(depth: number): string {
  const head = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n';
  const open = '<DT><H3>f</H3>\n<DL><p>\n';
  const close = '</DL><p>\n';
  return head + open.repeat(depth) + '<DT><A HREF="https://deep.example/">deep</A>\n' + close.repeat(depth) + '</DL>\n';
}

/** A flat Netscape file with `n` bookmarks. */
function flatFile(n: number): string {
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<H1>Bookmarks</H1>', '<DL><p>', '<DT><H3>All</H3>', '<DL><p>'];
  for (let i = 0; i < n; i++) lines.push(`<DT><A HREF="https://flat.example/${i}" ADD_DATE="1690000000">page ${i}</A>`);
  lines.push('</DL><p>', '</DL>');
  return lines.join('\n');
}

const send = (content: string, token = user.token, server = s) =>
  upload(server, 'POST', '/import/file', [{ name: 'import', filename: 'bookmarks.html', content, type: 'text/html' }], token);

beforeAll(async () => {
  s = await startServer();
  user = await s.createUser();
  bystander = await s.createUser();
});
afterAll(async () => s.close());

describe('import file limits', () => {
  it(`folders nested ${LIMITS.importFolderDepthMax} deep convert`, async () => {
    const res = await send(nestedFile(LIMITS.importFolderDepthMax - 1)); // + the file's own top folder
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.count).toMatchObject({ bookmarks: 1, folders: LIMITS.importFolderDepthMax - 1 });
    let folder = res.body.items[0];
    for (let d = 1; d < LIMITS.importFolderDepthMax - 1; d++) folder = folder.folders[0];
    expect(folder.bookmarks[0].link).toBe('https://deep.example/');
  });

  it('one level deeper is a 400 that says why and what to do', async () => {
    const res = await send(nestedFile(LIMITS.importFolderDepthMax + 1));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, status: 400 });
    expect(res.body.errorMessage).toMatch(/^bookmarks\.html: folders are nested more than 100 deep/);
    expect(res.body.errorMessage).toMatch(/Flatten/);
  });

  it('a file nested 40,000 deep is refused with 400 while the server keeps answering others', { timeout: 120_000 }, async () => {
    const file = nestedFile(40_000);
    expect(file.length).toBeGreaterThan(1_000_000);
    const pending = send(file);
    let done = false;
    void pending.finally(() => {
      done = true;
    });
    // While it converts, another user's requests are answered (how fast: npx tsx bench/import/responsive.ts --nested 40000).
    let answered = 0;
    while (!done && answered < 200) {
      const me = await s.api('GET', '/user', { token: bystander.token });
      expect(me.status).toBe(200);
      answered++;
    }
    expect(answered).toBeGreaterThan(0);
    const res = await pending;
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toContain('nested more than 100 deep');
  });

  it('a file with more entries than the server takes: 400 saying to split it', async () => {
    const small = await startServer({ uploads: { ...defaultConfig().uploads, importMaxEntries: 1000 } });
    try {
      const u = await small.createUser();
      const ok = await send(flatFile(999), u.token, small); // 999 bookmarks + 1 folder
      expect(ok.status).toBe(200);
      expect(ok.body.count.bookmarks).toBe(999);
      const res = await send(flatFile(1000), u.token, small);
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/more than 1000 bookmarks and folders/);
      expect(res.body.errorMessage).toMatch(/Split it/);
    } finally {
      await small.close();
    }
  });

  it('a large flat file converts while other requests are answered, duplicates counted', { timeout: 120_000 }, async () => {
    const saved = await s.api('POST', '/bookmark', { token: user.token, body: { link: 'https://flat.example/7' } });
    expect(saved.status).toBe(200);
    const pending = send(flatFile(60_000));
    let done = false;
    void pending.finally(() => {
      done = true;
    });
    let answered = 0;
    while (!done) {
      expect((await s.api('GET', '/user', { token: bystander.token })).status).toBe(200);
      answered++;
    }
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.count).toMatchObject({ bookmarks: 60_000, folders: 1, duplicates: 1 });
    expect(res.body.items[0].bookmarks[59_999].link).toBe('https://flat.example/59999');
    expect(answered).toBeGreaterThan(0);
  });
});
