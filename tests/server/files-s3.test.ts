import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config.js';
import { createFileStorage } from '../../server/services/files/create-storage.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';
import { runCliAsync } from '../helpers/process.js';
import { startS3, S3_KEY, type TestS3 } from '../helpers/s3.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { GIF_1x1, PNG_1x1, getRaw, upload } from './upload-client.js';

// Uploads, covers and permanent copies kept in S3-compatible object storage (TIDEMARK_S3_*): a
// real S3 server (s3rver) on loopback, the server talking to it with the AWS SDK over HTTP, and
// the bucket's contents checked over the S3 protocol too.

const PAGE = '<!DOCTYPE html><html><head><title>Harbour log</title></head><body><h1>Harbour log</h1><p>Calm seas.</p><script>x()</script></body></html>';

let s3: TestS3;
let s: TestServer;
let pages: PageServer;
let pro: { id: number; token: string };

beforeAll(async () => {
  s3 = await startS3();
  pages = await startPageServer({ '/log': respond(200, { 'content-type': 'text/html; charset=utf-8' }, PAGE) });
  s = await startServer({ files: s3.settings, allowPrivateNetwork: true, jobs: { ...defaultConfig().jobs, pollMs: 20 } });
  pro = await s.createUser(undefined, { pro: true });
});

afterAll(async () => {
  await s?.close();
  await pages?.close();
  await s3?.close();
});

/** The stored key of a served file URL (`.../files/<id>/<name>` is kept under `uploads/<id[0..2]>/<id>`). */
const keyOf = (link: string) => {
  const id = /\/files\/([0-9a-f]{32})\//.exec(link)![1];
  return `uploads/${id.slice(0, 2)}/${id}`;
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('files in an S3 bucket', () => {
  it('an uploaded file goes to the bucket (not the data directory), is read back through the API, and deleting its bookmark removes the object', async () => {
    // 3 MB of varied bytes: big enough to travel as a stream in several chunks both ways.
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 31 + (i >> 9)) & 0xff))]);
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'tide-tables.pdf', content: big }], pro.token);
    expect(res.status).toBe(200);
    const item = res.body.item;
    expect(item).toMatchObject({ type: 'document', file: { name: 'tide-tables.pdf', size: big.length, type: 'application/pdf' } });
    const key = keyOf(item.link);
    expect(await s3.has(key)).toBe(true);
    expect(fs.existsSync(path.join(s.dataDir, 'files', 'uploads'))).toBe(false);
    expect(fs.readdirSync(path.join(s.dataDir, 'files', 'tmp'))).toEqual([]); // the staging file went with the commit

    const got = await getRaw(item.link, pro.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-length')).toBe(String(big.length));
    expect(sha(got.bytes)).toBe(sha(big));

    await s.api('DELETE', `/bookmark/${item._id}`, { token: pro.token }); // to Trash: kept
    expect(await s3.has(key)).toBe(true);
    await s.api('DELETE', `/bookmark/${item._id}`, { token: pro.token }); // for good
    await until(async () => !(await s3.has(key)));
    expect((await getRaw(item.link, pro.token)).status).toBe(404);
  });

  it('bookmark and collection covers are stored as objects and served; a replaced cover\'s object is removed', async () => {
    const bookmark = await s.createItem('/bookmark', pro.token, { link: 'https://example.com/cover-test' });
    const first = await upload(s, 'PUT', `/bookmark/${bookmark._id}/cover`, [{ name: 'cover', filename: 'a.png', content: PNG_1x1 }], pro.token);
    expect(first.status).toBe(200);
    const firstKey = keyOf(first.body.item.cover);
    expect(await s3.has(firstKey)).toBe(true);
    const served = await getRaw(first.body.item.cover, pro.token);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.bytes.equals(PNG_1x1)).toBe(true);

    const second = await upload(s, 'PUT', `/bookmark/${bookmark._id}/cover`, [{ name: 'cover', filename: 'b.gif', content: GIF_1x1 }], pro.token);
    expect(second.status).toBe(200);
    expect((await getRaw(second.body.item.cover, pro.token)).bytes.equals(GIF_1x1)).toBe(true);
    await until(async () => !(await s3.has(firstKey)));

    const col = await s.createItem('/collection', pro.token, { title: 'Charts' });
    const cover = await upload(s, 'PUT', `/collection/${col._id}/cover`, [{ name: 'cover', filename: 'c.png', content: PNG_1x1 }], pro.token);
    expect(cover.status).toBe(200);
    const link = cover.body.item.cover[0];
    expect(await s3.has(keyOf(link))).toBe(true);
    expect((await getRaw(link, pro.token)).bytes.equals(PNG_1x1)).toBe(true);
  });

  it('a permanent copy made in the background is stored in the bucket and served; an uploaded copy replaces it', async () => {
    const bookmark = await s.createItem('/bookmark', pro.token, { link: `${pages.origin}/log` });
    const copy = await until(async () => {
      const res = await getRaw(`${s.url}/bookmark/${bookmark._id}/cache`, pro.token);
      return res.status === 200 ? res : undefined;
    });
    expect(copy.text).toContain('Calm seas.');
    expect(copy.text).not.toMatch(/<script/i);
    const copies = await s3.keys('cache/');
    expect(copies.some((k) => k.includes(`/${bookmark._id}-`))).toBe(true);

    const captured = '<html><body><p>Seen behind the login.</p></body></html>';
    const put = await upload(s, 'PUT', `/bookmark/${bookmark._id}/cache`, [{ name: 'cache', filename: 'p.html', content: captured, type: 'text/html' }], pro.token);
    expect(put.status).toBe(200);
    expect((await getRaw(`${s.url}/bookmark/${bookmark._id}/cache`, pro.token)).text).toContain('Seen behind the login.');
    // The server's earlier copy is gone from the bucket: one copy per bookmark.
    await until(async () => (await s3.keys('cache/')).filter((k) => k.includes(`/${bookmark._id}-`)).length === 1);
  });

  it('an object missing from the bucket answers 404 with a message, not a broken stream', async () => {
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'gone.png', content: PNG_1x1 }], pro.token);
    const key = keyOf(res.body.item.link);
    await s.app.services.files.remove(key); // removed behind the server's back
    const got = await getRaw(res.body.item.link, pro.token);
    expect(got.status).toBe(404);
    expect(got.json).toMatchObject({ result: false, errorMessage: expect.stringMatching(/missing from storage/) });
  });
});

describe('S3 configuration problems stop `serve` at start with a message', () => {
  const dataDir = () => fs.mkdtempSync(path.join(s.dataDir, 'serve-'));
  const serve = (env: Record<string, string>) => runCliAsync(['serve', '--port', '0', '--data', dataDir()], env);

  it('a missing setting is named', async () => {
    const res = await serve({ ...s3.env, TIDEMARK_S3_BUCKET: '' });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/TIDEMARK_S3_BUCKET is not set/);
  });

  it('an unreachable endpoint: exit non-zero with what to check, not a stack trace', async () => {
    // A port nobody listens on.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = await serve({ ...s3.env, TIDEMARK_S3_ENDPOINT: `http://127.0.0.1:${port}` });
    expect(down.status).not.toBe(0);
    expect(down.stderr).toMatch(/Cannot reach the S3 endpoint http:\/\/127\.0\.0\.1:\d+\. Check TIDEMARK_S3_ENDPOINT/);
    expect(down.stderr).not.toMatch(/\n\s+at /);
  });

  // The same check `serve` runs before listening (in-process here, to spare two more server starts).
  const checkWith = (change: Partial<TestS3['settings']>) => createFileStorage({ ...s3.settings, ...change }, s.dataDir).check();

  it('a bucket that does not exist is named, with what to do', async () => {
    await expect(checkWith({ bucket: 'no-such-bucket' })).rejects.toThrow(
      /bucket "no-such-bucket" does not exist at the S3 endpoint http:\/\/127\.0\.0\.1:\d+\. Create it, or set TIDEMARK_S3_BUCKET/,
    );
  });

  it('refused credentials say which settings to check', async () => {
    await expect(checkWith({ accessKeyId: `not-${S3_KEY}` })).rejects.toThrow(
      /refused the credentials for bucket "tidemark-test"\. Check TIDEMARK_S3_ACCESS_KEY and TIDEMARK_S3_SECRET_KEY/,
    );
  });
});

describe('storage lost while serving', () => {
  it('answers 503 with the envelope while the bucket cannot be reached', async () => {
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'last.png', content: PNG_1x1 }], pro.token);
    expect(res.status).toBe(200);
    await s3.close();
    const got = await getRaw(res.body.item.link, pro.token);
    expect(got.status).toBe(503);
    expect(got.json).toMatchObject({ result: false, status: 503, errorMessage: expect.stringMatching(/File storage .* could not read the file.*Try again/) });
    const write = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'more.png', content: PNG_1x1 }], pro.token);
    expect(write.status).toBe(503);
    expect(fs.readdirSync(path.join(s.dataDir, 'files', 'tmp'))).toEqual([]); // nothing staged is left behind
  });
});
