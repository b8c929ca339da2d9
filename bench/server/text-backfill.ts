// The text job's backfill and its cost to everybody else. Runs `serve` in a child process on a
// fresh SQLite data directory (with --allow-private-network, so it reads pages this script serves
// on loopback):
//   1. Backfill: BOOKMARKS bookmarks saved a day ago (as before an upgrade), spread over HOSTS local
//      sites (one port each: a host to the job's politeness), each page an article of about 6 KB.
//      The server starts with the text job off while they are saved, then again with it on at its
//      default settings (2 s between two requests to one site, 8 bookmarks in hand); prints pages
//      read per second from the restart until every row has left 'pending'.
//   2. Isolation: one user's bookmarks of a 20 MB page and of a pathological page (nested 500 deep,
//      100,000 times) are read by the job while another user calls GET /user back to back; prints
//      the slowest and median GET /user and how long the two extractions took.
//
//   npx tsx bench/server/text-backfill.ts [--bookmarks N] [--hosts N]
//
// Prints figures only; it asserts nothing.
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BenchData, timedGetUser } from './child-server.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const BOOKMARKS = arg('bookmarks', 1000);
const HOSTS = arg('hosts', 64);

const data = new BenchData('text-backfill');
const reader = data.tokenFor('reader@example.test');
const bystander = data.tokenFor('bystander@example.test');

const words = 'tide gauge harbour sounding ebb flood neap spring datum chart pier breakwater'.split(' ');
const article = (n: number) => {
  const paragraphs: string[] = [];
  for (let p = 0; p < 12; p++) {
    paragraphs.push(`<p>${Array.from({ length: 80 }, (_, w) => words[(n * 7 + p * 13 + w) % words.length]).join(' ')}.</p>`);
  }
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page ${n}</title></head><body><article><h1>Page ${n}</h1>${paragraphs.join('')}</article></body></html>`;
};
const big = () => {
  const paragraph = `<p>${'The long record of the sea at Brest, read minute by minute since the eighteenth century. '.repeat(20)}</p>`;
  const count = Math.ceil((20 * 1024 * 1024) / paragraph.length);
  return `<!DOCTYPE html><html><head><title>Big</title></head><body><article>${paragraph.repeat(count)}</article></body></html>`;
};
const pathological = () => {
  const block = `${'<div>'.repeat(500)}x${'</div>'.repeat(500)}`;
  return `<!DOCTYPE html><html><head><title>Deep</title></head><body>${block.repeat(2000)}</body></html>`;
};

// HOSTS sites, one port each; every one answers any /p/N with article N.
const sites: http.Server[] = [];
const special = new Map<string, Buffer>();
for (let i = 0; i < HOSTS; i++) {
  const server = http.createServer((req, res) => {
    const body = special.get(req.url ?? '') ?? article(Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sites.push(server);
}
const siteOrigin = (i: number) => `http://127.0.0.1:${(sites[i % HOSTS]!.address() as { port: number }).port}`;

const serve = (...flags: string[]) => data.serve('--allow-private-network', '--log-level', 'warn', ...flags);

const db = () => new Database(join(data.dir, 'tidemark.sqlite'), { readonly: true, fileMustExist: true });
const pendingCount = (conn: Database.Database, ids?: number[]) =>
  ids
    ? (conn.prepare(`SELECT count(*) AS n FROM article_texts WHERE status = 'pending' AND bookmark_id IN (${ids.join(',')})`).get() as { n: number }).n
    : (conn.prepare(`SELECT count(*) AS n FROM article_texts WHERE status = 'pending'`).get() as { n: number }).n;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 1. Backfill.
const dayAgo = new Date(Date.now() - 24 * 3600_000).toISOString();
const first = await serve('--text-job', 'off');
for (let start = 0; start < BOOKMARKS; start += 100) {
  const items = Array.from({ length: Math.min(100, BOOKMARKS - start) }, (_, k) => ({ link: `${siteOrigin(start + k)}/p/${start + k}`, created: dayAgo }));
  const res = await fetch(`${first.api}/bookmarks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items }),
  });
  if (res.status !== 200) throw new Error(`POST /bookmarks answered ${res.status}: ${await res.text()}`);
}
await first.stop();

const t0 = performance.now();
const second = await serve();
const conn = db();
let left = pendingCount(conn);
let firstDone = 0;
while (left > 0) {
  await sleep(100);
  left = pendingCount(conn);
  if (!firstDone && left < BOOKMARKS) firstDone = performance.now();
}
const seconds = (performance.now() - t0) / 1000;
const steady = (performance.now() - firstDone) / 1000;
const statuses = conn.prepare('SELECT status, count(*) AS n FROM article_texts GROUP BY status').all() as { status: string; n: number }[];
console.log(
  `backfill: ${BOOKMARKS} pages on ${HOSTS} hosts in ${seconds.toFixed(1)} s from the server's start: ${(BOOKMARKS / seconds).toFixed(1)} pages/s; ` +
    `${(BOOKMARKS / steady).toFixed(1)} pages/s from the first page read; ${statuses.map((s) => `${s.status} ${s.n}`).join(', ')}`,
);

// 2. Isolation: GET /user of another user while a 20 MB page and a pathological one are read.
special.set('/big', Buffer.from(big()));
special.set('/deep', Buffer.from(pathological()));
const getUser = () => timedGetUser(second.api, bystander);
for (let i = 0; i < 50; i++) await getUser(); // warm up
const quiet: number[] = [];
const quietEnd = performance.now() + 5000;
while (performance.now() < quietEnd) quiet.push(await getUser());
const summary = (values: number[]) => {
  values.sort((a, b) => a - b);
  return `GET /user x${values.length}: median ${values[Math.floor(values.length / 2)]!.toFixed(1)} ms, p99 ${values[Math.floor(values.length * 0.99)]!.toFixed(1)} ms, slowest ${values[values.length - 1]!.toFixed(1)} ms`;
};
console.log(`idle server, 5 s: ${summary(quiet)}`);
const created = await fetch(`${second.api}/bookmarks`, {
  method: 'POST',
  headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
  body: JSON.stringify({ items: [{ link: `${siteOrigin(0)}/big`, created: dayAgo }, { link: `${siteOrigin(1)}/deep`, created: dayAgo }] }),
});
const ids = ((await created.json()) as { items: { _id: number }[] }).items.map((i) => i._id);
const t1 = performance.now();
const latencies: number[] = [];
while (pendingCount(conn, ids) > 0) latencies.push(await getUser());
const took = (performance.now() - t1) / 1000;
const rows = conn.prepare(`SELECT bookmark_id, status, length, truncated, error FROM article_texts WHERE bookmark_id IN (${ids.join(',')})`).all() as Record<string, unknown>[];
console.log(`20 MB page + pathological page read in ${took.toFixed(1)} s; ${summary(latencies)}`);
for (const row of rows) console.log(`  bookmark ${row.bookmark_id}: ${row.status}, ${row.length} characters${row.truncated ? ' (cut)' : ''}${row.error ? `, ${row.error}` : ''}`);

conn.close();
await second.stop();
for (const server of sites) server.close();
data.remove();
