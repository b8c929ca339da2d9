import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';
import { latestJobFor } from '../helpers/jobs.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { upload } from './upload-client.js';

// Untrusted pages and files are parsed in the parse pool (server/services/parse-pool): a page
// nested 50,000 deep froze the whole server for 112 s, 10,000 deep a permanent copy answered 500
// after 30 s, and a deep <DL> import kept running after its client left. Every answer here is a
// clear refusal, and other users are answered while (and before) it is worked out.

const html = { 'content-type': 'text/html; charset=utf-8' };
const nested = (depth: number, tag = 'div') => `<!DOCTYPE html><html><head><title>Deep</title></head><body>${`<${tag}>`.repeat(depth)}bottom${`</${tag}>`.repeat(depth)}</body></html>`;
const DEEP_50K = nested(50_000);

let pages: PageServer;
let s: TestServer;
let pro: { id: number; token: string };
let other: { id: number; token: string };
/** Called when the page server has finished sending the 50,000-deep page. */
let deepPageSent: () => void = () => {};
/** Resolves when the request for /held (never answered) is closed by the server that asked. */
let heldClosed: Promise<void> = Promise.resolve();
/** As deep as the limit lets through and as large as a page may be: seconds of parsing. */
const HEAVY = `<!DOCTYPE html><title>Heavy</title><body>${`${'<div>'.repeat(500)}<p>x</p>${'</div>'.repeat(500)}`.repeat(800)}</body>`;

beforeAll(async () => {
  pages = await startPageServer({
    '/deep-50k': (_req, res) => {
      res.writeHead(200, html);
      res.end(DEEP_50K, () => deepPageSent());
    },
    '/deep-10k': respond(200, html, nested(10_000)),
    '/held': (req) => {
      heldClosed = new Promise((resolve) => req.socket.once('close', () => resolve()));
    },
    '/heavy': respond(200, html, HEAVY),
    '/fine': respond(200, html, nested(200).replace('bottom', '<p>A paragraph at the bottom of two hundred boxes.</p>')),
  });
  // A fetch limit longer than any test: a page read only stops early because its client left.
  s = await startServer({ allowPrivateNetwork: true, fetchTimeoutMs: 600_000, jobs: { ...defaultConfig().jobs, pollMs: 20 } });
  pro = await s.createUser(undefined, { pro: true });
  other = await s.createUser();
});
afterAll(async () => {
  await s?.close();
  await pages?.close();
});

const cacheUpload = (id: number, page: string, token = pro.token) =>
  upload(s, 'PUT', `/bookmark/${id}/cache`, [{ name: 'cache', filename: 'page.html', content: page, type: 'text/html' }], token);
const importFile = (content: string, token: string, signal?: AbortSignal) => {
  const form = new FormData();
  form.append('import', new Blob([content], { type: 'text/html' }), 'bookmarks.html');
  return fetch(`${s.url}/import/file`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form, signal });
};

describe('page reading (GET /import/url/parse)', () => {
  it('a page nested 50,000 deep answers too_deep, and another user is answered before it', async () => {
    expect(DEEP_50K.length).toBeGreaterThan(250_000);
    const sent = new Promise<void>((resolve) => (deepPageSent = resolve));
    const order: string[] = [];
    const parse = s.api('GET', `/import/url/parse?url=${encodeURIComponent(`${pages.origin}/deep-50k`)}`, { token: pro.token }).then((res) => {
      order.push('parse');
      return res;
    });
    // Asked once the server has the page and is reading it: on one thread this waited for the parse.
    await sent;
    const me = await s.api('GET', '/user', { token: other.token });
    order.push('user');
    expect(me.status).toBe(200);
    const res = await parse;
    expect(order).toEqual(['user', 'parse']);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: true, error: 'not_found', errorMessage: 'too_deep', item: { parser: 'local' } });
  });

  it('a page 200 deep is read as usual, its excerpt from the first paragraph', async () => {
    const res = await s.api('GET', `/import/url/parse?url=${encodeURIComponent(`${pages.origin}/fine`)}`, { token: pro.token });
    expect(res.body).toMatchObject({ result: true, item: { title: 'Deep', excerpt: 'A paragraph at the bottom of two hundred boxes.' } });
    expect(res.body.error).toBeUndefined();
  });
});

describe('a page read its client abandons', () => {
  const parse = (path: string, signal: AbortSignal) =>
    fetch(`${s.url}/import/url/parse?url=${encodeURIComponent(pages.origin + path)}`, { headers: { authorization: `Bearer ${pro.token}` }, signal }).catch((error: Error) => error);

  it('stops fetching the page', async () => {
    const client = new AbortController();
    const dropped = parse('/held', client.signal);
    await until(() => pages.hits.get('/held') === 1);
    client.abort();
    expect(await dropped).toBeInstanceOf(Error);
    await heldClosed;
  });

  it('stops parsing the page: its worker is ended, not left to finish', async () => {
    const pool = s.app.services.parsePool;
    const cancelledBefore = pool.stats().ended.cancelled ?? 0;
    const client = new AbortController();
    const dropped = parse('/heavy', client.signal);
    await until(() => pool.stats().running > 0, 30_000);
    client.abort();
    expect(await dropped).toBeInstanceOf(Error);
    await until(() => (pool.stats().ended.cancelled ?? 0) === cancelledBefore + 1);
    expect(pool.stats().running).toBe(0);
  });
});

describe('permanent copies', () => {
  it('PUT /bookmark/{id}/cache with 10,000 and 3,000 nested divs: 422 saying why, not 500', async () => {
    const id = (await s.createItem('/bookmark', pro.token, { link: 'https://deep.example/a' }))._id;
    for (const depth of [10_000, 3_000]) {
      const res = await cacheUpload(id, nested(depth));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ result: false, status: 422, error: 'too_deep' });
      expect(res.body.errorMessage).toBe('The page is nested too deeply to read (more than 512 levels).');
    }
    // At the limit the copy is kept.
    const ok = await cacheUpload(id, nested(500));
    expect(ok.status).toBe(200);
    expect(ok.body.item.cache).toMatchObject({ status: 'ready' });
  });

  it('a pro user saving a 10,000-deep page: its copy job fails for good with the reason, not retried', async () => {
    const id = (await s.createItem('/bookmark', pro.token, { link: `${pages.origin}/deep-10k` }))._id;
    const job = await until(async () => {
      const row = await latestJobFor(s.app.repos.jobs, id);
      return row?.state === 'failed' ? row : undefined;
    });
    expect(job.last_error).toBe('too_deep: The page is nested too deeply to read (more than 512 levels).');
    expect(job.attempts).toBe(1);
    // The bookmark itself is there, as saved.
    expect((await s.api('GET', `/bookmark/${id}`, { token: pro.token })).status).toBe(200);
  });
});

describe('import conversion', () => {
  const head = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n';
  const SMALL = `${head}<DT><A HREF="https://small.example/">small</A>\n</DL>\n`;

  it('<DL> nested 400,000 deep without <H3> (1.6 MB): 400 saying why, and another user\'s 84-byte import is answered', async () => {
    const deep = `${head}${'<DL>'.repeat(400_000)}`;
    expect(deep.length).toBeGreaterThan(1_600_000);
    const [res, small] = await Promise.all([importFile(deep, pro.token), importFile(SMALL, other.token)]);
    expect(small.status).toBe(200);
    expect(res.status).toBe(400);
    expect((await res.json()).errorMessage).toBe('bookmarks.html: The file is nested too deeply to read (more than 512 levels).');
  });

  it('an import dropped by its client stops converting, and nobody waits for it', async () => {
    // A large file that converts for seconds, legally: 200,000 bookmarks, each in <DL> three deep.
    const entry = '<DL><DL><DL><DT><A HREF="https://slow.example/page">page</A></DL></DL></DL>\n';
    const slow = `${head}${entry.repeat(200_000)}</DL>\n`;
    const pool = s.app.services.parsePool;
    const cancelledBefore = pool.stats().ended.cancelled ?? 0;
    const client = new AbortController();
    const dropped = importFile(slow, pro.token, client.signal).catch((error: Error) => error);
    await until(() => pool.stats().running > 0, 30_000);
    client.abort();
    expect(await dropped).toBeInstanceOf(Error);
    // Its worker was ended for it, not left to finish...
    await until(() => (pool.stats().ended.cancelled ?? 0) === cancelledBefore + 1);
    expect(pool.stats().running).toBe(0);
    // ...and the next import is converted at once.
    expect((await importFile(SMALL, other.token)).status).toBe(200);
  });
});
