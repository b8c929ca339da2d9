import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Article } from '../../lib/api/schemas/article.js';
import { DEFAULT_TEXT_JOB_SETTINGS } from '../../server/config.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';

// Two server instances on one database, both running the text job: the claim's lease means every
// page is fetched once, by one of them. (On SQLite the two share the data directory's file.)

const PAGES = 12;
let site: PageServer;
let first: TestServer;
let second: TestServer;
const clock = new TestClock(Date.now());

beforeAll(async () => {
  const page = (n: number) =>
    `<html><head><title>Page ${n}</title></head><body><article><p>Harbour page ${n} tells of boats, nets and the evening tide coming in.</p></article></body></html>`;
  site = await startPageServer(Object.fromEntries(Array.from({ length: PAGES }, (_, n) => [`/page-${n}`, respond(200, { 'content-type': 'text/html' }, page(n))])));
  const textJob = { ...DEFAULT_TEXT_JOB_SETTINGS, pollMs: 10, hostDelayMs: 1, concurrency: 3 };
  first = await startServer({ allowPrivateNetwork: true, clock, textJob });
  second = await startServer({ allowPrivateNetwork: true, clock, textJob, dataDir: first.dataDir, databaseUrl: first.config.databaseUrl });
});

afterAll(async () => {
  // The second shares the first's directory and database: it closes first, without removing them.
  await second?.app.close();
  await first?.close();
  await site?.close();
});

it('two instances never fetch the same page, and every page gets read', { timeout: 120_000 }, async () => {
  const { token } = await first.createUser();
  const ids: number[] = [];
  for (let n = 0; n < PAGES; n++) ids.push((await first.createItem('/bookmark', token, { link: `${site.origin}/page-${n}` }))._id);
  clock.advance(16_000);
  // A minute's ceiling: each instance starts its own parse worker, seconds each on a busy machine.
  for (const id of ids) {
    await until(async () => (await second.api<Article>('GET', `/bookmark/${id}/article`, { token })).body.status === 'indexed', 60_000);
  }
  expect([...site.hits.values()]).toEqual(Array(PAGES).fill(1));
});
