import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { JSDOM } from 'jsdom';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config.js';
import type { JobsRepository } from '../../server/repositories/index.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';
import { latestJobFor } from '../helpers/jobs.js';
import { onPostgres, startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { PNG_1x1, getRaw, upload } from './upload-client.js';

// Permanent copies (paid plan): made in the background for pro users' bookmarks, uploaded by the
// extension, and served sanitised by GET /bookmark/{id}/cache.

const html = { 'content-type': 'text/html; charset=utf-8' };
const PAGE = `<!DOCTYPE html><html><head><title>Tide table</title>
  <meta name="description" content="High and low water for the week.">
  <script>document.title = 'hijacked'</script>
</head><body>
  <h1 onclick="steal()">Tide table</h1>
  <p>High water 06:12, low water 12:30.</p>
  <img src="/img/chart.png" alt="chart">
  <a href="javascript:alert(1)">click</a>
  <iframe src="https://ads.example.com/"></iframe>
</body></html>`;

let pages: PageServer;
let s: TestServer;
let pro: { id: number; token: string };
let free: { id: number; token: string };
let otherPro: { id: number; token: string };
let jobs: JobsRepository;
const held: ServerResponse[] = [];

beforeAll(async () => {
  pages = await startPageServer({
    '/tides': respond(200, html, PAGE),
    '/tides-2': respond(200, html, PAGE),
    '/tides-3': respond(200, html, PAGE),
    '/tides-4': respond(200, html, PAGE),
    '/tides-5': respond(200, html, PAGE),
    '/styled': respond(200, html, PAGE.replace('</head>', '<link rel="stylesheet" href="/css/tides.css"></head>')),
    '/css/tides.css': respond(200, { 'content-type': 'text/css' }, 'h1 { color: rgb(0, 51, 102); background: url(/img/wave.png) }'),
    '/free-page': respond(200, html, PAGE),
    '/img/chart.png': respond(200, { 'content-type': 'image/png' }, PNG_1x1),
    '/paywalled': respond(200, html, '<html><head><title>Subscribe</title></head><body>Subscribe to read.</body></html>'),
    '/held': (_req, res) => {
      held.push(res);
    },
    '/report.pdf': respond(200, { 'content-type': 'application/pdf' }, '%PDF-1.4\n'),
  });
  s = await startServer({ allowPrivateNetwork: true, jobs: { ...defaultConfig().jobs, pollMs: 20 } });
  pro = await s.createUser(undefined, { pro: true });
  free = await s.createUser();
  otherPro = await s.createUser(undefined, { pro: true });
  jobs = s.app.repos.jobs;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await s?.close();
  await pages?.close();
});


const jobOf = (bookmarkId: number) => latestJobFor(jobs, bookmarkId);
const jobDone = (bookmarkId: number) => until(async () => ((await jobOf(bookmarkId))?.state === 'done' ? jobOf(bookmarkId) : undefined));
const cacheUrl = (id: number) => `${s.url}/bookmark/${id}/cache`;
const save = async (token: string, link: string, extra: object = {}): Promise<number> =>
  (await s.createItem('/bookmark', token, { link, ...extra }))._id;

describe('permanent copies made in the background', () => {
  it('a pro user\'s new bookmark gets a sanitised copy: 200 HTML without scripts, handlers or frames', async () => {
    const id = await save(pro.token, `${pages.origin}/tides`);
    await jobDone(id);
    const res = await getRaw(cacheUrl(id), pro.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).not.toMatch(/onclick|javascript:|<iframe/i);
    const doc = new JSDOM(res.text).window.document;
    expect(doc.querySelector('h1')?.textContent).toBe('Tide table');
    expect(doc.querySelector('p')?.textContent).toBe('High water 06:12, low water 12:30.');
    // The small image is kept inside the copy, so it survives the site.
    expect(doc.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // The bookmark itself was not touched (no pleaseParse).
    expect((await s.api('GET', `/bookmark/${id}`, { token: pro.token })).body.item.excerpt).toBe('');
  });

  it('with pleaseParse the same job fills the fields and stores the copy, reading the page once', async () => {
    const before = pages.hits.get('/tides-2') ?? 0;
    const id = await save(pro.token, `${pages.origin}/tides-2`, { pleaseParse: {} });
    await jobDone(id);
    expect((await jobs.list()).filter((j) => JSON.parse(j.payload).bookmarkId === id)).toHaveLength(1);
    expect((pages.hits.get('/tides-2') ?? 0) - before).toBe(1);
    expect((await s.api('GET', `/bookmark/${id}`, { token: pro.token })).body.item.excerpt).toBe('High and low water for the week.');
    expect((await getRaw(cacheUrl(id), pro.token)).status).toBe(200);
  });

  it('the copy keeps the page\'s stylesheet, as a <style> that fetches nothing', async () => {
    const id = await save(pro.token, `${pages.origin}/styled`);
    await jobDone(id);
    const res = await getRaw(cacheUrl(id), pro.token);
    const { window } = new JSDOM(res.text);
    expect([...window.document.querySelectorAll('style')].map((e) => e.textContent)).toEqual(['h1 { color: rgb(0, 51, 102); background: none }']);
    expect(window.document.querySelector('link')).toBeNull();
    expect(window.getComputedStyle(window.document.querySelector('h1')!).color).toBe('rgb(0, 51, 102)');
  });

  // The copy job is queued by the insert's trigger; pleaseParse must join it in the same transaction.
  // Queued by a later statement, a runner that claimed the copy job in between would leave pleaseParse
  // a second job, and the page would be read twice. Here another
  // connection holds the users table, so the request stops right after its insert commits (at the
  // owner's change date) while the runner claims the new job; PostgreSQL only, where that can be done.
  it.skipIf(!onPostgres)('with pleaseParse, a job the runner takes at once already carries the parse', async () => {
    const before = pages.hits.get('/tides-5') ?? 0;
    const blocker = new pg.Client({ connectionString: s.config.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE users IN SHARE MODE');
      const saving = save(pro.token, `${pages.origin}/tides-5`, { pleaseParse: {} });
      // The new bookmark's job (the only one for that page) taken by the runner while the request waits.
      const taken = await until(async () => {
        const { rows } = await blocker.query<{ payload: string; state: string }>(
          "SELECT payload, state FROM jobs WHERE dedupe_key = 'page:' || (SELECT max(id) FROM bookmarks WHERE link LIKE '%/tides-5')",
        );
        return rows[0] && rows[0].state !== 'queued' ? rows[0] : undefined;
      });
      expect(JSON.parse(taken.payload).parse).toBe(true);
      await blocker.query('COMMIT');
      const id = await saving;
      await jobDone(id);
      expect((await jobs.list()).filter((j) => JSON.parse(j.payload).bookmarkId === id)).toHaveLength(1);
      expect((pages.hits.get('/tides-5') ?? 0) - before).toBe(1);
      expect((await s.api('GET', `/bookmark/${id}`, { token: pro.token })).body.item.excerpt).toBe('High and low water for the week.');
    } finally {
      await blocker.end();
    }
  });

  it('free users: no copy is made, and GET /cache answers 403 saying it is a Pro feature', async () => {
    const id = await save(free.token, `${pages.origin}/free-page`);
    await new Promise((r) => setTimeout(r, 100));
    expect(await jobOf(id)).toBeUndefined();
    const res = await getRaw(cacheUrl(id), free.token);
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ result: false, status: 403 });
    expect(res.json.errorMessage).toMatch(/Pro plan/);
  });

  it('no copy (yet, or the page is not HTML): 404 with a clear message', async () => {
    const waiting = await save(pro.token, `${pages.origin}/held`);
    await until(() => held.length > 0);
    const res = await getRaw(cacheUrl(waiting), pro.token);
    expect(res.status).toBe(404);
    expect(res.json.errorMessage).toMatch(/no permanent copy yet/);
    held.shift()!.writeHead(200, html).end(PAGE);
    await jobDone(waiting);
    expect((await getRaw(cacheUrl(waiting), pro.token)).status).toBe(200);

    const pdf = await save(pro.token, `${pages.origin}/report.pdf`);
    const job = await jobDone(pdf);
    expect(job!.outcome).toMatch(/not HTML/);
    expect((await getRaw(cacheUrl(pdf), pro.token)).status).toBe(404);
  });

  it('an uploaded file has no page: its job ends without fetching anything, and there is no copy', async () => {
    const res = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'chart.png', content: PNG_1x1 }], pro.token);
    expect(res.status).toBe(200);
    const job = await jobDone(res.body.item._id);
    expect(job!.outcome).toMatch(/uploaded file/);
    expect((await getRaw(cacheUrl(res.body.item._id), pro.token)).status).toBe(404);
  });

  it('a job that starts before the upload attaches its file still knows the bookmark is a file', async () => {
    // The moment between the upload route creating the bookmark (which queues the job) and attaching
    // the file, held open: the file row exists, unattached, and the bookmark links to its address.
    const fileId = `race-${Date.now()}`;
    await s.app.repos.files.add({ id: fileId, userId: pro.id, kind: 'file', name: 'chart.png', mime: 'image/png', size: PNG_1x1.length, sha256: 'x'.repeat(64), path: `files/${fileId}` });
    const id = await save(pro.token, `${s.origin}/rest/v1/files/${fileId}/chart.png`);
    const job = await jobDone(id);
    expect(job!.outcome).toMatch(/uploaded file/);
  });

  it('only those who may see the bookmark: another pro user gets 403, unknown bookmark 404, no token 401', async () => {
    const id = await save(pro.token, `${pages.origin}/tides-3`);
    await jobDone(id);
    expect((await getRaw(cacheUrl(id), otherPro.token)).status).toBe(403);
    expect((await getRaw(cacheUrl(999999), pro.token)).status).toBe(404);
    expect((await getRaw(cacheUrl(id), null)).status).toBe(401);
  });

  it('removing the bookmark for good deletes its copy from disk', async () => {
    const id = await save(pro.token, `${pages.origin}/tides-4`);
    await jobDone(id);
    const cacheDir = path.join(s.dataDir, 'files', 'cache');
    const copies = () => fs.readdirSync(cacheDir, { recursive: true }).filter((n) => path.basename(String(n)).startsWith(`${id}-`)).length;
    expect(copies()).toBe(1);
    await s.api('DELETE', `/bookmark/${id}`, { token: pro.token });
    await s.api('DELETE', `/bookmark/${id}`, { token: pro.token });
    await until(() => copies() === 0);
  });
});

describe('PUT /bookmark/{id}/cache: the copy the extension captured (beyond the spec)', () => {
  const captured = `<html><head><title>Full story</title><script src="https://tracker.example.com/t.js"></script></head>
    <body><p onmouseover="x()">The full story, captured in the browser behind the paywall.</p><img src="/img/logo.png"></body></html>`;

  it('stores a sanitised copy that later background reads do not replace', async () => {
    const id = await save(pro.token, `${pages.origin}/paywalled`);
    await jobDone(id);
    const res = await upload(s, 'PUT', `/bookmark/${id}/cache`, [{ name: 'cache', filename: 'page.html', content: captured, type: 'text/html' }], pro.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: true, item: { _id: id, cache: { status: 'ready' } } });

    const got = await getRaw(cacheUrl(id), pro.token);
    expect(got.status).toBe(200);
    expect(got.headers.get('x-copy-source')).toBe('upload');
    expect(got.text).toContain('captured in the browser behind the paywall');
    expect(got.text).not.toMatch(/<script|onmouseover/i);
    // Relative links still point at the page's site.
    expect(new JSDOM(got.text, { url: 'http://tidemark.test/' }).window.document.querySelector('img')?.src).toBe(`${pages.origin}/img/logo.png`);

    await s.api('PUT', `/bookmark/${id}`, { token: pro.token, body: { pleaseParse: {} } });
    const job = await until(async () => {
      const j = (await jobs.list()).filter((r) => JSON.parse(r.payload).bookmarkId === id).pop();
      return j && j.state === 'done' && JSON.parse(j.payload).parse ? j : undefined;
    });
    expect(job.outcome).toMatch(/^filled /);
    expect(job.outcome).not.toMatch(/permanent copy/);
    expect((await getRaw(cacheUrl(id), pro.token)).text).toContain('captured in the browser');
  });

  it('a hostile captured page is stored and served without scripts, handlers, script URLs, SVG or CSS fetching local addresses, under a sandboxing CSP', async () => {
    const hostile = `<html><head><meta http-equiv="refresh" content="0;url=javascript:alert(0)"><base href="javascript:alert(1)//">
      <style>body { background: url(http://127.0.0.1:8080/ping) } @import "http://localhost/x.css"; p { color: #333 }</style></head>
      <body onload="alert(2)"><p onclick="alert(3)">Hostile but readable.</p><a href="javascript:alert(4)">js</a><a href="https://example.org/">ok</a>
      <img src="http://127.0.0.1:631/admin" srcset="http://localhost/a.png 2x"><img src="data:text/html,<script>alert(5)</script>">
      <svg onload="alert(6)"><script>alert(7)</script></svg><div style="background-image: url(http://10.0.0.1/x)">styled</div>
      <iframe srcdoc="<script>alert(8)</script>"></iframe><form action="https://evil.example/"><input name="pw"></form></body></html>`;
    const id = await save(pro.token, 'https://hostile.example.com/page');
    const res = await upload(s, 'PUT', `/bookmark/${id}/cache`, [{ name: 'cache', filename: 'page.html', content: hostile, type: 'text/html' }], pro.token);
    expect(res.status).toBe(200);

    const got = await getRaw(cacheUrl(id), pro.token);
    expect(got.status).toBe(200);
    const csp = got.headers.get('content-security-policy') ?? '';
    // Sandboxed without scripts: only a reader's click on a link may open a (new, unsandboxed) tab.
    expect(csp.split(';').map((d) => d.trim())).toEqual(expect.arrayContaining(['sandbox allow-popups allow-popups-to-escape-sandbox', "default-src 'none'"]));
    expect(got.text).not.toMatch(/alert|javascript:|127\.0\.0\.1|localhost|10\.0\.0\.1|<svg|<iframe|<form|<input|url\(|@import|refresh/i);
    const doc = new JSDOM(got.text).window.document;
    expect(doc.querySelector('p')?.textContent).toBe('Hostile but readable.');
    expect(doc.querySelector('style')?.textContent).toContain('color: #333');
    expect(doc.querySelector('a[href]')?.getAttribute('href')).toBe('https://example.org/');
    expect(doc.querySelector('a[href]')?.getAttribute('rel')).toBe('noopener noreferrer');
    // relative URLs resolve against the bookmarked page, through our own <base>
    expect(doc.querySelectorAll('base')).toHaveLength(1);
    expect(doc.querySelector('base')?.getAttribute('href')).toBe('https://hostile.example.com/page');
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toContain("script-src 'none'");
  });

  it('pro only (403), HTML only (400), the part must be named cache (400), the bookmark must be the caller\'s to change (403)', async () => {
    const freeId = await save(free.token, 'https://free.example.com/story');
    const notPro = await upload(s, 'PUT', `/bookmark/${freeId}/cache`, [{ name: 'cache', filename: 'p.html', content: captured }], free.token);
    expect(notPro.status).toBe(403);
    expect(notPro.body.errorMessage).toMatch(/Pro plan/);

    const id = await save(pro.token, 'https://pro.example.com/story');
    const binary = await upload(s, 'PUT', `/bookmark/${id}/cache`, [{ name: 'cache', filename: 'p.html', content: PNG_1x1 }], pro.token);
    expect(binary.status).toBe(400);
    expect(binary.body.errorMessage).toMatch(/HTML/);
    const wrongPart = await upload(s, 'PUT', `/bookmark/${id}/cache`, [{ name: 'page', filename: 'p.html', content: captured }], pro.token);
    expect(wrongPart.status).toBe(400);
    expect(wrongPart.body.errorMessage).toMatch(/part named "cache"/);
    const others = await upload(s, 'PUT', `/bookmark/${id}/cache`, [{ name: 'cache', filename: 'p.html', content: captured }], otherPro.token);
    expect(others.status).toBe(403);
  });
});
