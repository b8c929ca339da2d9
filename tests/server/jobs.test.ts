import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config.js';
import type { JobRow, JobsRepository } from '../../server/repositories/index.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';
import { latestJobFor as jobOf } from '../helpers/jobs.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';

// pleaseParse: {} queues a durable job; the runner reads the page (served on loopback) and fills
// the fields the owner left empty.

const html = { 'content-type': 'text/html; charset=utf-8' };
const paragraph = (n: number) =>
  `<p>Paragraph ${n}: the ferry leaves at dawn and returns at dusk; between the two it crosses the sound six times, ` +
  'carrying post, bread, a doctor on Tuesdays and, in summer, far more bicycles than it was ever built for.</p>';
const ARTICLE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>The ferry | Island Post</title>
  <meta property="og:title" content="The ferry">
  <meta property="og:description" content="Six crossings a day.">
  <meta property="og:image" content="/img/ferry.jpg">
  <meta property="og:image" content="https://cdn.example.com/ferry-2.jpg">
</head><body><article><h1>The ferry</h1>${[1, 2, 3, 4, 5, 6].map(paragraph).join('')}</article></body></html>`;

let pages: PageServer;
let s: TestServer;
let token: string;
let jobs: JobsRepository;
/** Responses held by the '/held' route until released. */
const held: ServerResponse[] = [];
let flakyFailures = 0;

beforeAll(async () => {
  pages = await startPageServer({
    '/ferry': respond(200, html, ARTICLE),
    '/ferry-2': respond(200, html, ARTICLE),
    '/ferry-3': respond(200, html, ARTICLE),
    '/ferry-4': respond(200, html, ARTICLE),
    '/ferry-5': respond(200, html, ARTICLE),
    '/bulk-a': respond(200, html, ARTICLE),
    '/bulk-b': respond(200, html, ARTICLE),
    '/gone': respond(404, html, '<title>Gone</title>'),
    '/held': (_req, res) => {
      held.push(res);
    },
    '/always-down': respond(503, html, '<title>Down</title>'),
    '/flaky': (_req, res) => {
      if (flakyFailures > 0) {
        flakyFailures--;
        res.writeHead(503, html).end('<title>Try later</title>');
      } else {
        res.writeHead(200, html).end(ARTICLE);
      }
    },
  });
  s = await startServer({ allowPrivateNetwork: true, jobs: { ...defaultConfig().jobs, pollMs: 20 } });
  token = (await s.createUser()).token;
  jobs = s.app.repos.jobs;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await s?.close();
  await pages?.close();
});


const finished = (repo: JobsRepository, bookmarkId: number) =>
  until(async () => {
    const job = await jobOf(repo, bookmarkId);
    return job && (job.state === 'done' || job.state === 'failed') ? job : undefined;
  });

const get = async (id: number) => (await s.api('GET', `/bookmark/${id}`, { token })).body.item;

describe('pleaseParse fills a bookmark from its page in the background', () => {
  it('on create: title (left as the link), excerpt, type, cover and media', async () => {
    const link = `${pages.origin}/ferry`;
    const made = await s.api('POST', '/bookmark', { token, body: { link, pleaseParse: {} } });
    expect(made.status).toBe(200);
    expect(made.body.item).toMatchObject({ title: link, excerpt: '', type: 'link', cover: '' });
    const job = await finished(jobs, made.body.item._id);
    expect(job).toMatchObject({ kind: 'page', state: 'done', attempts: 1 });
    expect(await get(made.body.item._id)).toMatchObject({
      title: 'The ferry',
      excerpt: 'Six crossings a day.',
      type: 'article',
      cover: `${pages.origin}/img/ferry.jpg`,
      media: [
        { type: 'image', link: `${pages.origin}/img/ferry.jpg` },
        { type: 'image', link: 'https://cdn.example.com/ferry-2.jpg' },
      ],
    });
    // The filled text is searchable.
    const found = await s.api('GET', '/bookmarks/0?search=crossings', { token });
    expect(found.body.items.map((b: { _id: number }) => b._id)).toContain(made.body.item._id);
  });

  it('never overwrites what the user set; fills only what is still empty', async () => {
    const all = await s.api('POST', '/bookmark', {
      token,
      body: {
        link: `${pages.origin}/ferry-2`,
        title: 'My title',
        excerpt: 'My words',
        type: 'video',
        cover: 'https://mine.example.com/cover.png',
        media: [{ type: 'image', link: 'https://mine.example.com/cover.png' }],
        pleaseParse: {},
      },
    });
    const some = await s.api('POST', '/bookmark', { token, body: { link: `${pages.origin}/ferry-3`, title: 'Kept title', pleaseParse: {} } });
    await finished(jobs, all.body.item._id);
    await finished(jobs, some.body.item._id);
    expect(await get(all.body.item._id)).toMatchObject({
      title: 'My title',
      excerpt: 'My words',
      type: 'video',
      cover: 'https://mine.example.com/cover.png',
      media: [{ type: 'image', link: 'https://mine.example.com/cover.png' }],
    });
    expect(await get(some.body.item._id)).toMatchObject({ title: 'Kept title', excerpt: 'Six crossings a day.', type: 'article' });
  });

  it('an edit made while the page is being read wins over the page', async () => {
    const made = await s.api('POST', '/bookmark', { token, body: { link: `${pages.origin}/held`, pleaseParse: {} } });
    const id = made.body.item._id;
    await until(() => held.length > 0);
    await s.api('PUT', `/bookmark/${id}`, { token, body: { excerpt: 'Typed while it loaded', title: 'Typed title' } });
    held.shift()!.writeHead(200, html).end(ARTICLE);
    await finished(jobs, id);
    expect(await get(id)).toMatchObject({ title: 'Typed title', excerpt: 'Typed while it loaded', type: 'article', cover: `${pages.origin}/img/ferry.jpg` });
  });

  it('on update, and for the items of a bulk create that ask for it', async () => {
    const made = await s.api('POST', '/bookmark', { token, body: { link: `${pages.origin}/ferry-4` } });
    const id = made.body.item._id;
    expect(await jobOf(jobs, id)).toBeUndefined();
    await s.api('PUT', `/bookmark/${id}`, { token, body: { pleaseParse: {} } });
    const job = await finished(jobs, id);
    expect(JSON.parse(job.payload)).toMatchObject({ parse: true, on: 'update' });
    expect((await get(id)).excerpt).toBe('Six crossings a day.');

    const bulk = await s.api('POST', '/bookmarks', {
      token,
      body: { items: [{ link: `${pages.origin}/bulk-a`, pleaseParse: {} }, { link: `${pages.origin}/bulk-b` }] },
    });
    const [a, b] = bulk.body.items.map((i: { _id: number }) => i._id);
    await finished(jobs, a);
    expect((await get(a)).excerpt).toBe('Six crossings a day.');
    expect(await jobOf(jobs, b)).toBeUndefined();
    expect((await get(b)).excerpt).toBe('');
  });

  it('a cover of <screenshot> is kept as the recorded request; the site image still lands in media', async () => {
    const made = await s.api('POST', '/bookmark', { token, body: { link: `${pages.origin}/ferry-5`, cover: '<screenshot>', pleaseParse: {} } });
    await finished(jobs, made.body.item._id);
    const item = await get(made.body.item._id);
    expect(item.cover).toBe('<screenshot>');
    expect(item.media[0]).toEqual({ type: 'image', link: `${pages.origin}/img/ferry.jpg` });
  });

  it('a page that answers 404 fails at once (no retry), records why, and marks the bookmark broken', async () => {
    const made = await s.api('POST', '/bookmark', { token, body: { link: `${pages.origin}/gone`, pleaseParse: {} } });
    const job = await finished(jobs, made.body.item._id);
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(job.last_error).toMatch(/^url_status_404/);
    expect((await get(made.body.item._id)).excerpt).toBe('');
    const broken = await s.api('GET', `/bookmarks/0?search=${encodeURIComponent('broken:true')}`, { token });
    expect(broken.body.items.map((i: { _id: number }) => i._id)).toContain(made.body.item._id);
  });

  it('a bookmark removed before its job runs: the job ends quietly', async () => {
    const made = await s.api('POST', '/bookmark', { token, body: { link: `${pages.origin}/held`, pleaseParse: {} } });
    const id = made.body.item._id;
    await until(() => held.length > 0);
    await s.api('DELETE', `/bookmark/${id}`, { token });
    await s.api('DELETE', `/bookmark/${id}`, { token });
    held.shift()!.writeHead(200, html).end(ARTICLE);
    const job = await finished(jobs, id);
    expect(job.state).toBe('done');
  });
});

describe('retries', () => {
  let r: TestServer;
  let rToken: string;
  let rJobs: JobsRepository;
  const clock = new TestClock();

  beforeAll(async () => {
    r = await startServer({
      allowPrivateNetwork: true,
      clock,
      jobs: { ...defaultConfig().jobs, pollMs: 20, backoffMs: 60_000, maxBackoffMs: 10 * 60_000, maxAttempts: 3 },
    });
    rToken = (await r.createUser()).token;
    rJobs = r.app.repos.jobs;
  });
  afterAll(async () => r?.close());

  const waitJob = (id: number, check: (job: JobRow) => boolean) =>
    until(async () => {
      const job = await jobOf(rJobs, id);
      return job && check(job) ? job : undefined;
    });

  it('a failing page is retried with exponential backoff and filled once it works', async () => {
    flakyFailures = 2;
    const hits = () => pages.hits.get('/flaky') ?? 0;
    const start = hits();
    const made = await r.api('POST', '/bookmark', { token: rToken, body: { link: `${pages.origin}/flaky`, pleaseParse: {} } });
    const id = made.body.item._id;

    const first = await waitJob(id, (j) => j.state === 'queued' && j.attempts === 1);
    expect(first.last_error).toMatch(/^url_status_503/);
    expect(first.next_run_at).toBe(clock.now() + 60_000);
    await new Promise((res) => setTimeout(res, 150));
    expect(hits() - start).toBe(1); // not before its time

    clock.advance(60_000);
    const second = await waitJob(id, (j) => j.state === 'queued' && j.attempts === 2);
    expect(second.next_run_at).toBe(clock.now() + 120_000); // doubled
    expect(hits() - start).toBe(2);

    clock.advance(120_000);
    const done = await waitJob(id, (j) => j.state === 'done');
    expect(done.attempts).toBe(3);
    expect(hits() - start).toBe(3);
    expect((await r.api('GET', `/bookmark/${id}`, { token: rToken })).body.item.excerpt).toBe('Six crossings a day.');
  });

  it('gives up after maxAttempts, keeping the last error, and leaves the bookmark as it was', async () => {
    const made = await r.api('POST', '/bookmark', { token: rToken, body: { link: `${pages.origin}/always-down`, pleaseParse: {} } });
    const id = made.body.item._id;
    await waitJob(id, (j) => j.attempts === 1 && j.state === 'queued');
    clock.advance(60_000);
    await waitJob(id, (j) => j.attempts === 2 && j.state === 'queued');
    clock.advance(120_000);
    const failed = await waitJob(id, (j) => j.state === 'failed');
    expect(failed.attempts).toBe(3);
    expect(failed.last_error).toMatch(/^url_status_503: .*503/);
    expect(failed.finished_at).toBe(clock.now());
    expect((await r.api('GET', `/bookmark/${id}`, { token: rToken })).body.item).toMatchObject({ excerpt: '', type: 'link' });
  });
});
