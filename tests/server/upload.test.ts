import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { GIF_1x1, JPEG_HEAD, PNG_1x1, getRaw, upload } from './upload-client.js';

let s: TestServer;
let alice: { id: number; token: string };
let bob: { id: number; token: string };

beforeAll(async () => {
  s = await startServer({ jobs: { ...defaultConfig().jobs, pollMs: 25 } });
  alice = await s.createUser();
  bob = await s.createUser();
});
afterAll(async () => s.close());

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script>hi</body></html>');

async function filesUsed(token: string): Promise<number> {
  return (await s.api('GET', '/user', { token })).body.user.files.used;
}

/** Files on disk under the data directory's files/uploads folder. */
function storedFiles(): string[] {
  const root = path.join(s.dataDir, 'files', 'uploads');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}


describe('PUT /bookmark/file', () => {
  it('stores an image and saves an image bookmark linking to it, served back with its type to the owner', async () => {
    const before = await filesUsed(alice.token);
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'photo.png', content: PNG_1x1, type: 'image/png' }], alice.token);
    expect(res.status).toBe(200);
    const item = res.body.item;
    expect(res.body.result).toBe(true);
    expect(item).toMatchObject({ type: 'image', title: 'photo.png', collectionId: -1, file: { name: 'photo.png', size: PNG_1x1.length, type: 'image/png' } });
    expect(item.link).toMatch(new RegExp(`^${s.origin}/rest/v1/files/[0-9a-f]{32}/photo\\.png$`));
    expect(item.cover).toBe(item.link);
    expect(await filesUsed(alice.token)).toBe(before + PNG_1x1.length);

    const got = await getRaw(item.link, alice.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toMatch(/^inline; filename="photo\.png"/);
    expect(got.bytes.equals(PNG_1x1)).toBe(true);

    // The bookmark is a real one: listed, and found by the `file:true` search.
    const found = await s.api('GET', `/bookmarks/0?search=${encodeURIComponent('file:true')}`, { token: alice.token });
    expect(found.body.items.map((b: { _id: number }) => b._id)).toContain(item._id);
  });

  it('reads the type from the content: a PDF becomes a document, saved into the collection named by collectionId', async () => {
    const col = await s.api('POST', '/collection', { token: alice.token, body: { title: 'Papers' } });
    const res = await upload(
      s,
      'PUT',
      '/bookmark/file',
      [
        { name: 'file', filename: 'paper.bin', content: PDF, type: 'application/octet-stream' },
        { name: 'collectionId', content: String(col.body.item._id) },
      ],
      alice.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ type: 'document', collectionId: col.body.item._id, file: { type: 'application/pdf' } });
    const got = await getRaw(res.body.item.link, alice.token);
    expect(got.headers.get('content-type')).toBe('application/pdf');
  });

  it('an HTML file claiming to be a PNG is stored as HTML and only ever served as a sandboxed download', async () => {
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'cat.png', content: HTML, type: 'image/png' }], alice.token);
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ type: 'document', cover: '', file: { type: 'text/html' } });
    const got = await getRaw(res.body.item.link, alice.token);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a file name with quotes, slashes and non-ASCII letters cannot break the Content-Disposition header', async () => {
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: '../../"Résumé"\r\n.pdf', content: PDF }], alice.token);
    expect(res.status).toBe(200);
    expect(res.body.item.title).not.toMatch(/[/"\r\n]/);
    const got = await getRaw(res.body.item.link, alice.token);
    const disposition = got.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^inline; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1])).toBe(res.body.item.title);
  });

  it('files are served only to users allowed to see them: another user gets 403, no token 401, unknown id 404', async () => {
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'secret.pdf', content: PDF }], alice.token);
    const link = res.body.item.link as string;
    const other = await getRaw(link, bob.token);
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ result: false, status: 403 });
    expect((await getRaw(link, null)).status).toBe(401);
    expect((await getRaw(link.replace(/files\/[0-9a-f]{32}/, `files/${'0'.repeat(32)}`), alice.token)).status).toBe(404);
  });

  it('a file in a public collection can be read without a token', async () => {
    const col = await s.api('POST', '/collection', { token: alice.token, body: { title: 'Shared openly', public: true } });
    const res = await upload(
      s,
      'PUT',
      '/bookmark/file',
      [
        { name: 'file', filename: 'open.pdf', content: PDF },
        { name: 'collectionId', content: String(col.body.item._id) },
      ],
      alice.token,
    );
    expect((await getRaw(res.body.item.link, null)).status).toBe(200);
  });

  it('refuses a collection the caller cannot write (403), a bad collectionId (400), and stores nothing then', async () => {
    const bobs = await s.api('POST', '/collection', { token: bob.token, body: { title: 'Bob only' } });
    const before = await filesUsed(alice.token);
    const filesBefore = storedFiles().length;
    const forbidden = await upload(
      s,
      'PUT',
      '/bookmark/file',
      [
        { name: 'collectionId', content: String(bobs.body.item._id) },
        { name: 'file', filename: 'x.pdf', content: PDF },
      ],
      alice.token,
    );
    expect(forbidden.status).toBe(403);
    const bad = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'x.pdf', content: PDF }, { name: 'collectionId', content: 'abc' }], alice.token);
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/collectionId/);
    const all = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'x.pdf', content: PDF }, { name: 'collectionId', content: '0' }], alice.token);
    expect(all.status).toBe(400);
    expect(await filesUsed(alice.token)).toBe(before);
    expect(storedFiles().length).toBe(filesBefore);
    expect(fs.readdirSync(path.join(s.dataDir, 'files', 'tmp'))).toEqual([]);
  });

  it('no part named file: 400 saying what to send; no token: 401', async () => {
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'upload', filename: 'x.pdf', content: PDF }], alice.token);
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/part named "file"/);
    expect((await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'x.pdf', content: PDF }], null)).status).toBe(401);
  });

  it('removing the bookmark for good frees the quota and deletes the bytes', async () => {
    const before = await filesUsed(alice.token);
    const count = storedFiles().length;
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'gone.pdf', content: PDF }], alice.token);
    const id = res.body.item._id;
    expect(await filesUsed(alice.token)).toBe(before + PDF.length);
    expect(storedFiles().length).toBe(count + 1);
    await s.api('DELETE', `/bookmark/${id}`, { token: alice.token }); // to Trash: still stored
    expect(await filesUsed(alice.token)).toBe(before + PDF.length);
    await s.api('DELETE', `/bookmark/${id}`, { token: alice.token }); // for good
    expect(await filesUsed(alice.token)).toBe(before);
    expect((await getRaw(res.body.item.link, alice.token)).status).toBe(404);
    await until(() => storedFiles().length === count, 5000);
  });
});

describe('covers', () => {
  it('PUT /bookmark/{id}/cover takes PNG, GIF and JPEG; the newest replaces the older one', async () => {
    const b = await s.api('POST', '/bookmark', { token: alice.token, body: { link: 'https://covers.example.com/a' } });
    const id = b.body.item._id;
    const before = await filesUsed(alice.token);
    let previous: string | null = null;
    for (const [name, bytes, mime] of [
      ['a.png', PNG_1x1, 'image/png'],
      ['b.gif', GIF_1x1, 'image/gif'],
      ['c.jpg', JPEG_HEAD, 'image/jpeg'],
    ] as const) {
      const res = await upload(s, 'PUT', `/bookmark/${id}/cover`, [{ name: 'cover', filename: name, content: bytes }], alice.token);
      expect(res.status).toBe(200);
      expect(res.body.result).toBe(true);
      const item = res.body.item;
      expect(item.cover).toMatch(/\/rest\/v1\/files\/[0-9a-f]{32}\//);
      expect(item.media[0]).toEqual({ type: 'image', link: item.cover });
      expect(item.media.filter((m: { link: string }) => m.link.includes('/rest/v1/files/'))).toHaveLength(1);
      const got = await getRaw(item.cover, alice.token);
      expect(got.headers.get('content-type')).toBe(mime);
      expect(got.bytes.equals(bytes)).toBe(true);
      if (previous) expect((await getRaw(previous, alice.token)).status).toBe(404);
      expect(await filesUsed(alice.token)).toBe(before + bytes.length);
      previous = item.cover;
    }
    expect((await s.api('GET', `/bookmark/${id}`, { token: alice.token })).body.item.cover).toBe(previous);
  });

  it('checks the content, not the name: HTML named .png, a PDF named .jpg and plain text get 400', async () => {
    const b = await s.api('POST', '/bookmark', { token: alice.token, body: { link: 'https://covers.example.com/b' } });
    const before = await filesUsed(alice.token);
    for (const [name, bytes] of [
      ['evil.png', HTML],
      ['doc.jpg', PDF],
      ['note.gif', Buffer.from('just some words')],
    ] as const) {
      const res = await upload(s, 'PUT', `/bookmark/${b.body.item._id}/cover`, [{ name: 'cover', filename: name, content: bytes, type: 'image/png' }], alice.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: false, status: 400 });
      expect(res.body.errorMessage).toMatch(/PNG, GIF or JPEG/);
    }
    expect(await filesUsed(alice.token)).toBe(before);
    expect((await s.api('GET', `/bookmark/${b.body.item._id}`, { token: alice.token })).body.item.cover).toBe('');
  });

  it('another user\'s bookmark: 403 before anything is stored; unknown bookmark: 404', async () => {
    const b = await s.api('POST', '/bookmark', { token: alice.token, body: { link: 'https://covers.example.com/c' } });
    const res = await upload(s, 'PUT', `/bookmark/${b.body.item._id}/cover`, [{ name: 'cover', filename: 'a.png', content: PNG_1x1 }], bob.token);
    expect(res.status).toBe(403);
    expect((await upload(s, 'PUT', '/bookmark/999999/cover', [{ name: 'cover', filename: 'a.png', content: PNG_1x1 }], alice.token)).status).toBe(404);
  });

  it('PUT /collection/{id}/cover sets the collection cover, visible to its owner only', async () => {
    const col = await s.api('POST', '/collection', { token: alice.token, body: { title: 'With cover' } });
    const id = col.body.item._id;
    const res = await upload(s, 'PUT', `/collection/${id}/cover`, [{ name: 'cover', filename: 'c.gif', content: GIF_1x1 }], alice.token);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    expect(res.body.item._id).toBe(id);
    expect(res.body.item.cover).toHaveLength(1);
    const url = res.body.item.cover[0];
    expect((await s.api('GET', `/collection/${id}`, { token: alice.token })).body.item.cover).toEqual([url]);
    const got = await getRaw(url, alice.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/gif');
    expect((await getRaw(url, bob.token)).status).toBe(403);

    expect((await upload(s, 'PUT', `/collection/${id}/cover`, [{ name: 'cover', filename: 'c.png', content: HTML }], alice.token)).status).toBe(400);
    expect((await upload(s, 'PUT', `/collection/${id}/cover`, [{ name: 'cover', filename: 'c.png', content: PNG_1x1 }], bob.token)).status).toBe(403);
    expect((await upload(s, 'PUT', '/collection/-1/cover', [{ name: 'cover', filename: 'c.png', content: PNG_1x1 }], alice.token)).status).toBe(400);
  });

  it('removing the collection removes its cover file', async () => {
    const col = await s.api('POST', '/collection', { token: alice.token, body: { title: 'Short-lived' } });
    const before = await filesUsed(alice.token);
    const res = await upload(s, 'PUT', `/collection/${col.body.item._id}/cover`, [{ name: 'cover', filename: 'c.png', content: PNG_1x1 }], alice.token);
    expect(await filesUsed(alice.token)).toBe(before + PNG_1x1.length);
    await s.api('DELETE', `/collection/${col.body.item._id}`, { token: alice.token });
    expect(await filesUsed(alice.token)).toBe(before);
    expect((await getRaw(res.body.item.cover[0], alice.token)).status).toBe(404);
  });
});

describe('limits', () => {
  it('an upload over the size limit gets a 413 envelope and stores nothing', async () => {
    const small = await startServer({ uploads: { ...defaultConfig().uploads, maxBytes: 1024 } });
    try {
      const u = await small.createUser();
      const big = Buffer.concat([PNG_1x1, Buffer.alloc(4096)]);
      const file = await upload(small, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'big.png', content: big }], u.token);
      expect(file.status).toBe(413);
      expect(file.body).toMatchObject({ result: false, status: 413 });
      expect(file.body.errorMessage).toContain('1 KB');
      const b = await small.api('POST', '/bookmark', { token: u.token, body: { link: 'https://big.example.com/' } });
      const cover = await upload(small, 'PUT', `/bookmark/${b.body.item._id}/cover`, [{ name: 'cover', filename: 'big.png', content: big }], u.token);
      expect(cover.status).toBe(413);
      expect((await small.api('GET', '/user', { token: u.token })).body.user.files.used).toBe(0);
      expect(fs.readdirSync(path.join(small.dataDir, 'files', 'tmp'))).toEqual([]);
      // Just under the limit is fine.
      const ok = await upload(small, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'ok.png', content: PNG_1x1 }], u.token);
      expect(ok.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('the default size limit is 10 MB', () => {
    expect(defaultConfig().uploads.maxBytes).toBe(10 * 1024 * 1024);
  });

  it('a full quota: 403 saying how much is used and what to do; nothing stored', async () => {
    const carol = await s.createUser();
    await s.app.repos.files.setQuota(carol.id, 100);
    const first = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'a.pdf', content: PDF }], carol.token);
    expect(first.status).toBe(200);
    const second = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'b.pdf', content: PDF }, { name: 'collectionId', content: '-1' }], carol.token);
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({ result: false, status: 403, error: 'quota_exceeded' });
    expect(second.body.errorMessage).toMatch(/Not enough file storage: .* of 100 bytes used/);
    expect(second.body.errorMessage).toMatch(/Remove some uploaded files/);
    const user = (await s.api('GET', '/user', { token: carol.token })).body.user;
    expect(user.files).toMatchObject({ used: PDF.length, size: 100 });
    expect((await s.api('GET', '/bookmarks/-1', { token: carol.token })).body.count).toBe(1);
    // A cover that replaces the current one counts the old one as freed.
    const b = first.body.item._id;
    await s.app.repos.files.setQuota(carol.id, PDF.length + PNG_1x1.length + 10);
    expect((await upload(s, 'PUT', `/bookmark/${b}/cover`, [{ name: 'cover', filename: 'a.png', content: PNG_1x1 }], carol.token)).status).toBe(200);
    expect((await upload(s, 'PUT', `/bookmark/${b}/cover`, [{ name: 'cover', filename: 'b.png', content: PNG_1x1 }], carol.token)).status).toBe(200);
  });
});
