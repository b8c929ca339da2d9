// Server benchmark: seeds 100k bookmarks (with tags and highlights) through the real write path
// (POST /bookmarks, 100 a request), then measures on loopback and prints a table.
//   npx tsx bench/server/run.ts [--bookmarks 100000] [--seconds 10] [--database postgres://user@host:port/db]
// Without --database the server runs on SQLite in a temporary data directory; with it, on that
// PostgreSQL database (it should be empty: the bench creates its own user and 100k bookmarks).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { runCli, startServe } from '../../tests/helpers/process.js';
import { loadAverage, measureRun, type RunWork } from './work-meter.js';

const { values } = parseArgs({ options: { bookmarks: { type: 'string' }, seconds: { type: 'string' }, database: { type: 'string' } } });
const TOTAL = Number(values.bookmarks ?? 100_000);
const SECONDS = Number(values.seconds ?? 10);
const DATABASE = values.database;
const BACKEND = DATABASE ? 'PostgreSQL' : 'SQLite';
// The targets of each backend (PostgreSQL's are looser: a network round trip per query costs more).
const TARGETS = DATABASE
  ? { ratio: '>= 40 %', search: 'p50 <= 15 ms', bulk: 'p50 <= 60 ms', exists: '' }
  : { ratio: '>= 50 %', search: 'p50 <= 10 ms', bulk: '<= 30 ms', exists: '<= 5 ms' };

/** Size of the database after seeding: the SQLite file, or PostgreSQL's own count (through psql, when installed). */
function databaseBytes(dataDir: string): number | null {
  if (!DATABASE) return fs.statSync(path.join(dataDir, 'tidemark.sqlite')).size;
  const psql = spawnSync('psql', [DATABASE, '-Atc', 'SELECT pg_database_size(current_database())'], { encoding: 'utf8' });
  return psql.status === 0 ? Number(psql.stdout.trim()) : null;
}

// A 3,000-word synthetic vocabulary: each bookmark draws its words from it, so a random word matches
// a few hundred bookmarks, as a real word in a real library does. "weekly" is in every tenth title
// to measure a common word too.
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'si', 'de', 'pa', 'qu', 'ber', 'tin', 'gal', 'mor'];
const WORDS = Array.from({ length: 3000 }, (_, i) => {
  let w = '';
  for (let n = i + 15; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w;
});
const pick = (i: number, k: number) => WORDS[(i * 7919 + k * 104729 + k * k * 31) % WORDS.length];

function item(i: number) {
  return {
    link: `https://site${i % 500}.example.com/posts/${i}/${pick(i, 1)}-${pick(i, 2)}`,
    title: `${pick(i, 3)} ${pick(i, 4)}${i % 10 === 0 ? ' weekly' : ''} notes ${i}`,
    excerpt: `A story about the ${pick(i, 5)} and the ${pick(i, 6)} near the ${pick(i, 7)}.`,
    tags: [pick(i, 8), pick(i, 9)].filter((t, k, a) => a.indexOf(t) === k),
    highlights: i % 10 === 0 ? [{ text: `the ${pick(i, 5)} and the ${pick(i, 6)}`, color: 'yellow', position: 0 }] : undefined,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeMany(n: number, fn: () => Promise<void>): Promise<{ p50: number; p99: number; mean: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / n };
}

async function cannon(url: string, headers: Record<string, string>): Promise<{ rps: number; p50: number; p99: number; total: number }> {
  const result = await autocannon({ url, connections: 32, duration: SECONDS, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

/** The GET run's work per request, in words. */
function describeWork(work: RunWork): [string, string, string][] {
  const rows: [string, string, string][] = [];
  if (work.serverCpuMsPerRequest !== null) rows.push(['  server CPU per GET', `${(work.serverCpuMsPerRequest * 1000).toFixed(0)} µs`, '']);
  if (work.db) {
    const d = work.db;
    rows.push(['  PostgreSQL per GET', `${d.xactsPerRequest.toFixed(2)} statements, ${d.scansPerRequest.toFixed(2)} table scans, ${d.rateUpdatesPerRequest.toFixed(3)} rate-window updates`, '']);
    rows.push(['  PostgreSQL backend CPU per GET', `${(d.backendCpuMsPerRequest * 1000).toFixed(0)} µs`, '']);
    rows.push(['  backends during the run', `${d.active.toFixed(1)} running, ${d.lockWaits.toFixed(1)} waiting for a lock (waits: ${d.waits})`, '']);
  }
  return rows;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-bench-'));
  const where = DATABASE ? ['--data', dataDir, '--database', DATABASE] : ['--data', dataDir];
  const made = runCli(['user:create', '--email', 'bench@example.test', '--password', 'benchmark', ...where]);
  if (made.status !== 0) throw new Error(`user:create failed (is the database empty?): ${made.stderr}`);
  const token = JSON.parse(runCli(['token:create', '--email', 'bench@example.test', ...where]).stdout).access_token;
  const serve = await startServe(['--port', '0', ...where, '--rate-limit', '100000000']);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = (p: string, body: unknown) => fetch(serve.url + p, { method: 'POST', headers: auth, body: JSON.stringify(body) });

  try {
    const t0 = performance.now();
    let firstId = 0;
    for (let start = 0; start < TOTAL; start += 100) {
      const items = Array.from({ length: Math.min(100, TOTAL - start) }, (_, k) => item(start + k));
      const res = await post('/bookmarks', { items });
      if (res.status !== 200) throw new Error(`seeding failed at ${start}: ${res.status} ${await res.text()}`);
      if (!firstId) firstId = (await res.json()).items[0]._id;
      else await res.arrayBuffer();
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    const dbBytes = databaseBytes(dataDir);

    // GET /bookmark/{id} against a bare node:http server answering the same bytes.
    const sampleId = firstId + 12345 < firstId + TOTAL ? firstId + 12345 : firstId;
    const sample = await (await fetch(`${serve.url}/bookmark/${sampleId}`, { headers: auth })).text();
    const bare = spawn(path.resolve('node_modules/.bin/tsx'), [path.resolve('bench/server/bare.ts'), sample]);
    const bareUrl = await new Promise<string>((resolve) =>
      bare.stdout.on('data', (c: Buffer) => {
        const m = /listening on (\S+)/.exec(c.toString());
        if (m) resolve(m[1]);
      }),
    );
    const loadBefore = loadAverage();
    let ours = { rps: 0, p50: 0, p99: 0, total: 0 };
    const work = await measureRun(serve.child.pid!, DATABASE, async () => {
      ours = await cannon(`${serve.url}/bookmark/${sampleId}`, auth);
      return ours.total;
    });
    const base = await cannon(bareUrl, {});
    bare.kill('SIGTERM');

    const search = await timeMany(300, async () => {
      const word = WORDS[Math.floor(Math.random() * WORDS.length)];
      const res = await fetch(`${serve.url}/bookmarks/0?search=${word}`, { headers: auth });
      await res.arrayBuffer();
    });
    const common = await timeMany(100, async () => {
      const res = await fetch(`${serve.url}/bookmarks/0?search=weekly`, { headers: auth });
      await res.arrayBuffer();
    });
    let batch = TOTAL;
    const bulk = await timeMany(50, async () => {
      const items = Array.from({ length: 100 }, () => item(batch++));
      const res = await post('/bookmarks', { items });
      await res.arrayBuffer();
    });
    const exists = await timeMany(300, async () => {
      const urls = Array.from({ length: 100 }, () => item(Math.floor(Math.random() * TOTAL)).link);
      const res = await post('/import/url/exists', { urls });
      await res.arrayBuffer();
    });

    const ms = (v: number) => `${v.toFixed(2)} ms`;
    const rows: [string, string, string][] = [
      ['seed (POST /bookmarks x100)', `${TOTAL} bookmarks in ${seedSeconds.toFixed(1)} s, db ${dbBytes === null ? 'size unknown (no psql)' : `${(dbBytes / 1e6).toFixed(0)} MB`}`, ''],
      ['GET /bookmark/{id}', `${ours.rps.toFixed(0)} req/s (p50 ${ours.p50} ms, p99 ${ours.p99} ms)`, ''],
      ...describeWork(work),
      ['bare node:http, same body', `${base.rps.toFixed(0)} req/s`, ''],
      ['  ratio', `${((ours.rps / base.rps) * 100).toFixed(0)} %`, TARGETS.ratio],
      ['GET /bookmarks/0?search=<word>', `p50 ${ms(search.p50)}, p99 ${ms(search.p99)}`, TARGETS.search],
      ['  a word in 10% of bookmarks', `p50 ${ms(common.p50)}, p99 ${ms(common.p99)}`, ''],
      ['POST /bookmarks (100 items)', `p50 ${ms(bulk.p50)}, p99 ${ms(bulk.p99)}`, TARGETS.bulk],
      ['POST /import/url/exists (100 URLs)', `p50 ${ms(exists.p50)}, p99 ${ms(exists.p99)}`, TARGETS.exists],
    ];
    const w0 = Math.max(...rows.map((r) => r[0].length));
    const w1 = Math.max(...rows.map((r) => r[1].length));
    console.log(`\nTidemark server bench on ${BACKEND}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${SECONDS} s autocannon runs, 32 connections`);
    console.log(`load average (1, 5, 15 min): ${loadBefore} before the GET run, ${loadAverage()} at the end`);
    console.log(`${'measure'.padEnd(w0)} | ${'figure'.padEnd(w1)} | target`);
    console.log(`${'-'.repeat(w0)}-|-${'-'.repeat(w1)}-|-------`);
    for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)} | ${b.padEnd(w1)} | ${c}`);
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
