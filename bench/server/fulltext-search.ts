// Full-text search of saved pages' text: 100k bookmarks with about 6 KB of text each, searched for
// one- to three-word queries as the library asks (sort=score, 25 a page, snippets for the page),
// and the storage the text and its index add against the size of the raw text.
//
//   npx tsx bench/server/fulltext-search.ts [--bookmarks 100000] [--queries 300] [--backend sqlite|postgres|both] [--keep]
//
// --keep leaves the PostgreSQL cluster running with its `bench` database (for EXPLAIN ANALYZE) and
// prints how to reach and stop it.
// SQLite runs in a temporary data directory; PostgreSQL in a throwaway cluster of Debian's binaries
// (tests/helpers/pg-cluster.ts: a free loopback port, fsync off), stopped at the end. The whole run
// stops itself after 40 minutes whatever happens. The text is generated from the prose of the
// installed packages' READMEs: each page draws four words in five from one README (its topic) and
// the rest from all of them, with their frequencies, in sentences and paragraphs; queries are words
// that follow each other in a random bookmark's text, skipping the 200 most common words (the
// words a person remembers of a page, not "the").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../server/clock.js';
import { openDatabase } from '../../server/db/open.js';
import { connectPool } from '../../server/db/postgres/pool.js';
import { migratePostgres } from '../../server/db/postgres/migrate.js';
import { createSqliteRepositories } from '../../server/repositories/sqlite/index.js';
import { createPostgresRepositories } from '../../server/repositories/postgres/index.js';
import type { Repositories } from '../../server/repositories/types/index.js';
import { withArticleFields } from '../../server/routes/bookmarks/article-fields.js';
import { pgBinDir, startPgCluster, type PgCluster } from '../../tests/helpers/pg-cluster.js';

const { values } = parseArgs({
  options: { bookmarks: { type: 'string' }, queries: { type: 'string' }, backend: { type: 'string' }, keep: { type: 'boolean' } },
});
const BOOKMARKS = Number(values.bookmarks ?? 100_000);
const QUERIES = Number(values.queries ?? 300);
const BACKEND = values.backend ?? 'both';
const WORDS_PER_PAGE = 1_000;
const COMMON = 200;
const clock: Clock = { now: () => Date.now() };

let cluster: PgCluster | undefined;
const deadline = setTimeout(() => {
  console.error('fulltext-search: stopped after 40 minutes');
  cluster?.stop();
  process.exit(2);
}, 40 * 60_000);
deadline.unref();
process.once('SIGINT', () => {
  cluster?.stop();
  process.exit(130);
});

/** A small deterministic generator (mulberry32), so both backends get the same pages and queries. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Real English words with their frequencies: the prose of the README files of the installed
 * packages (code blocks left out), so the text compresses and indexes as prose does.
 */
const { vocabulary, cumulative, topics } = (() => {
  const root = path.join(import.meta.dirname, '..', '..', 'node_modules');
  const counts = new Map<string, number>();
  const topics: number[][] = [];
  for (const name of fs.readdirSync(root).sort()) {
    const file = path.join(root, name, 'README.md');
    if (!fs.existsSync(file)) continue;
    const prose = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, ' ').replace(/`[^`]*`/g, ' ').replace(/https?:\S+/g, ' ');
    const words = (prose.match(/\b[A-Za-z][a-z]{1,15}\b/g) ?? []).map((w) => w.toLowerCase());
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    if (words.length >= 300) topics.push(words as unknown as number[]);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const rankOf = new Map(ranked.map(([w], i) => [w, i]));
  // Each README is a topic: a page mostly repeats its topic's words, as real pages do.
  for (const [i, words] of topics.entries()) topics[i] = (words as unknown as string[]).map((w) => rankOf.get(w)!);
  const c = new Float64Array(ranked.length);
  let sum = 0;
  ranked.forEach(([, n], i) => (c[i] = sum += n));
  for (let i = 0; i < c.length; i++) c[i]! /= sum;
  return { vocabulary: ranked.map(([w]) => w), cumulative: c, topics };
})();
const VOCABULARY = vocabulary.length;

function drawRank(r: () => number): number {
  const x = r();
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The ranks of a page's words (regenerated from its number, never kept): four in five from its topic. */
function pageRanks(n: number): number[] {
  const r = rng(1000 + n);
  const topic = topics[Math.floor(r() * topics.length)]!;
  return Array.from({ length: WORDS_PER_PAGE }, () => (r() < 0.8 ? topic[Math.floor(r() * topic.length)]! : drawRank(r)));
}

function pageText(n: number): { html: string; text: string; title: string } {
  const ranks = pageRanks(n);
  const paragraphs: string[] = [];
  for (let p = 0; p < ranks.length; p += 80) {
    const words = ranks.slice(p, p + 80).map((k) => vocabulary[k]!);
    for (let i = 0; i < words.length; i += 16) words[i] = words[i]![0]!.toUpperCase() + words[i]!.slice(1);
    for (let i = 15; i < words.length; i += 16) words[i] += '.';
    paragraphs.push(words.join(' ') + '.');
  }
  const tr = rng(500_000 + n);
  const title = Array.from({ length: 5 }, () => vocabulary[drawRank(tr)]).join(' ');
  return { html: paragraphs.map((p) => `<p>${p}</p>`).join('\n'), text: paragraphs.join('\n\n'), title };
}

function queries(): string[] {
  const r = rng(99);
  return Array.from({ length: QUERIES }, (_, i) => {
    const ranks = pageRanks(Math.floor(r() * BOOKMARKS)).filter((k) => k >= COMMON);
    const n = 1 + (i % 3);
    const at = Math.floor(r() * (ranks.length - n));
    return ranks.slice(at, at + n).map((k) => vocabulary[k]).join(' ');
  });
}

async function storeAll(repos: Repositories, firstId: number, report: (done: number) => void): Promise<number> {
  let raw = 0;
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < BOOKMARKS; n = next++) {
      const page = pageText(n);
      raw += Buffer.byteLength(page.text);
      await repos.articles.store(firstId + n, { title: page.title, byline: '', siteName: 'example.com', html: page.html, text: page.text, truncated: false }, 'extension');
      if (n % 10_000 === 0) report(n);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return raw;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

async function measure(name: string, repos: Repositories, userId: number): Promise<void> {
  const list = queries();
  const scope = { kind: 'user' as const, userId, includeTrash: false };
  // Warm-up: the first queries read the index from disk into the caches.
  for (const q of list.slice(0, 20)) await repos.bookmarkQueries.list(scope, { search: q, sort: 'score', page: 0, perpage: 25 });
  const byWords: number[][] = [[], [], []];
  const fields: number[] = [];
  const cpu: number[] = [];
  let matched = 0;
  let withSnippet = 0;
  for (const [i, q] of list.entries()) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { items, count } = await repos.bookmarkQueries.list(scope, { search: q, sort: 'score', page: 0, perpage: 25 });
    const t1 = performance.now();
    const answered = await withArticleFields(repos, items, q);
    const t2 = performance.now();
    byWords[i % 3]!.push(t2 - t0);
    fields.push(t2 - t1);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    matched += count;
    withSnippet += answered.filter((b) => b.snippet).length;
  }
  const all = byWords.flat().sort((a, b) => a - b);
  const line = (label: string, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${label}: p50 ${percentile(s, 50).toFixed(1)} ms, p95 ${percentile(s, 95).toFixed(1)} ms`;
  };
  console.log(`${name}: ${list.length} searches (sort=score, 25 a page, snippets), ${(matched / list.length).toFixed(0)} matches on average, ${withSnippet} results with a snippet`);
  console.log(`  ${line('all', all)}`);
  for (let n = 0; n < 3; n++) console.log(`  ${line(`${n + 1} word${n ? 's' : ''}`, byWords[n]!)}`);
  console.log(`  ${line('of which states and snippets', fields)}`);
  // This process's CPU (SQLite runs in it; PostgreSQL's own work is not counted): steadier than wall time on a busy host.
  console.log(`  ${line("the server process's CPU", cpu)}`);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function sqlite(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-fts-bench-'));
  try {
    const db = openDatabase(dir);
    const repos = createSqliteRepositories(db, clock);
    const userId = Number(
      db.prepare("INSERT INTO users (email, config, files_checkpoint, registered) VALUES ('bench@example.test', '{}', '', '')").run().lastInsertRowid,
    );
    const t0 = performance.now();
    const insert = db.prepare(
      `INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, title, created, last_update)
       VALUES (?, ?, -1, ?, ?, 'example.com', ?, ?, ?)`,
    );
    const index = db.prepare("INSERT INTO bookmarks_fts (rowid, title, excerpt, note, link, domain, tags, highlights) VALUES (?, ?, '', '', ?, 'example.com', '', '')");
    let firstId = 0;
    db.transaction(() => {
      for (let n = 0; n < BOOKMARKS; n++) {
        const link = `https://example.com/page/${n}`;
        const created = new Date(Date.UTC(2020, 0, 1) + n * 60_000).toISOString();
        const id = Number(insert.run(userId, userId, link, link, pageText(n).title, created, created).lastInsertRowid);
        if (n === 0) firstId = id;
        index.run(id, pageText(n).title, `example com page ${n}`);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const used = () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const pages = (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
      return pages * (db.pragma('page_size', { simple: true }) as number);
    };
    const before = used();
    console.log(`SQLite: ${BOOKMARKS} bookmarks seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = performance.now();
    const raw = await storeAll(repos, firstId, (n) => process.stdout.write(`  stored ${n}\r`));
    db.pragma('optimize');
    const added = used() - before;
    console.log(`SQLite: page text stored in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    let parts = '';
    try {
      const rows = db
        .prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'article%' GROUP BY name ORDER BY bytes DESC")
        .all() as { name: string; bytes: number }[];
      parts = rows.map((r) => `${r.name} ${mb(r.bytes)}`).join(', ');
    } catch {
      parts = 'dbstat not available';
    }
    const packed = (db.prepare('SELECT sum(length(data)) AS n FROM article_content').get() as { n: number }).n;
    console.log(`SQLite storage: raw text ${mb(raw)}; added by text, html and index ${mb(added)} (${((added / raw) * 100).toFixed(0)} % of the raw text); ${parts}; packed html and text ${mb(packed)}`);
    await measure('SQLite', repos, userId);
    db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(): Promise<void> {
  cluster = await startPgCluster();
  const admin = await connectPool(cluster.url(), { max: 1 });
  await admin.query('CREATE DATABASE bench');
  await admin.end();
  const pool = await connectPool(cluster.url('bench'), { max: 8 });
  try {
    await migratePostgres(pool);
    const repos = createPostgresRepositories(pool, clock);
    const userId = Number(
      (await pool.query<{ id: string }>("INSERT INTO users (email, config, files_checkpoint, registered) VALUES ('bench@example.test', '{}', '', '') RETURNING id")).rows[0]!.id,
    );
    const t0 = performance.now();
    let firstId = 0;
    for (let start = 0; start < BOOKMARKS; start += 2000) {
      const ns = Array.from({ length: Math.min(2000, BOOKMARKS - start) }, (_, i) => start + i);
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO bookmarks (user_id, creator_id, collection_id, link, link_key, domain, title, created, last_update)
         SELECT $1, $1, -1, l, l, 'example.com', t, c, c FROM unnest($2::text[], $3::text[], $4::text[]) AS u(l, t, c) RETURNING id`,
        [
          userId,
          ns.map((n) => `https://example.com/page/${n}`),
          ns.map((n) => pageText(n).title),
          ns.map((n) => new Date(Date.UTC(2020, 0, 1) + n * 60_000).toISOString()),
        ],
      );
      if (start === 0) firstId = Math.min(...rows.map((r) => Number(r.id)));
    }
    await pool.query('VACUUM ANALYZE');
    const size = async () => Number((await pool.query<{ n: string }>("SELECT pg_total_relation_size('article_texts') AS n")).rows[0]!.n);
    const before = await size();
    console.log(`PostgreSQL: ${BOOKMARKS} bookmarks seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const t1 = performance.now();
    const raw = await storeAll(repos, firstId, (n) => process.stdout.write(`  stored ${n}\r`));
    await pool.query('VACUUM ANALYZE article_texts');
    const added = (await size()) - before;
    const parts = (
      await pool.query<{ heap: string; toast: string; search: string }>(
        `SELECT pg_relation_size('article_texts') AS heap,
                pg_total_relation_size(reltoastrelid) AS toast,
                pg_relation_size('article_texts_search') AS search
           FROM pg_class WHERE relname = 'article_texts'`,
      )
    ).rows[0]!;
    const columns = (
      await pool.query<{ html: string; text: string }>('SELECT sum(pg_column_size(html)) AS html, sum(pg_column_size(text)) AS text FROM article_texts')
    ).rows[0]!;
    console.log(`PostgreSQL: page text stored in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    console.log(
      `PostgreSQL storage: raw text ${mb(raw)}; added ${mb(added)} (${((added / raw) * 100).toFixed(0)} % of the raw text); ` +
        `table ${mb(Number(parts.heap))}, TOAST ${mb(Number(parts.toast))}, GIN index ${mb(Number(parts.search))}; ` +
        `stored text ${mb(Number(columns.text))} (compressed by TOAST), html ${mb(Number(columns.html))} (deflated against the text)`,
    );
    await measure('PostgreSQL', repos, userId);
  } finally {
    await pool.end();
    if (values.keep) {
      console.log(`PostgreSQL left running: ${cluster.url('bench')}; stop it with: runuser -u postgres -- ${path.join(pgBinDir(), 'pg_ctl')} -D ${path.join(cluster.dir, 'data')} stop`);
    } else cluster.stop();
  }
}

console.log(`${BOOKMARKS} pages of ${WORDS_PER_PAGE} words drawn from ${VOCABULARY} English words in ${topics.length} topics; ${QUERIES} queries`);
if (BACKEND === 'sqlite' || BACKEND === 'both') await sqlite();
if (BACKEND === 'postgres' || BACKEND === 'both') await postgres();
clearTimeout(deadline);
