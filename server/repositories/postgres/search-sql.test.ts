import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestPgDatabase } from '../../../tests/helpers/pg-database.js';
import { openDatabase, type Db } from '../../db/open.js';
import { copySqliteToPostgres } from '../../db/postgres/copy-from-sqlite.js';
import { connectPool } from '../../db/postgres/pool.js';
import { FullTextIndex } from '../sqlite/fts.js';
import { compileSearch } from '../sqlite/search-sql.js';
import { compilePgSearch, numberPlaceholders } from './search-sql.js';
import { seedSearchRow, type SearchRow } from '../../../tests/helpers/search-corpus.js';

// The PostgreSQL compiler against the SQLite one on the same bookmarks: one corpus written to
// SQLite, copied to PostgreSQL with migrate-data's copier, then every expression (the search
// language's cases and 1,500 random ones) must find exactly the same bookmarks on both.

let dir: string;
let db: Db;
let target: TestPgDatabase;
let pool: pg.Pool;
const ids: Record<string, number> = {};

const seed = (name: string, r: SearchRow) => seedSearchRow(db, ids, name, r);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-search-pg-'));
  db = openDatabase(dir);
  db.prepare("INSERT INTO users (id, email, config, files_checkpoint, registered) VALUES (1, 'a@example.test', '{}', '', '')").run();
  seed('rust', {
    title: 'Rust ownership explained', tags: ['Programming', 'rust lang'], type: 'article', important: true,
    link: 'https://blog.rust-lang.org/ownership', created: '2023-03-01T08:00:00.000Z', lastUpdate: '2024-01-02T00:00:00.000Z',
    lang: 'en-GB',
  });
  seed('js', {
    title: 'JavaScript closures', tags: ['programming', 'js'], excerpt: 'Functions remembering scope',
    link: 'https://developer.mozilla.org/docs/closures', created: '2024-05-01T00:00:00.000Z', lang: 'en',
  });
  seed('cake', {
    title: 'Chocolate cake recipe', note: 'bake at 180', link: 'https://www.cooking.example.com/cake',
    created: '2024-12-31T23:59:59.000Z', highlights: ['two eggs'],
  });
  seed('dup1', { title: 'Same page', link: 'https://dup.example.net/a', broken: true });
  seed('dup2', { title: 'Same page again', link: 'https://dup.example.net/a', type: 'video' });
  seed('file', { title: 'Upload', link: 'https://tidemark.test/files/abc.pdf', type: 'document', lang: 'fr' });
  seed('cafe', {
    title: 'Crème brûlée à la café', tags: ['Desserts', 'FRENCH food'], excerpt: 'Über-simple: 3 ingredients, no oven_needed',
    note: 'e2e tested; v1.5', link: 'https://Recettes.example.fr/creme-brulee?utm=x#top', lang: 'FR-ca',
    highlights: ['caramelised sugar', 'naïve tip'],
  });
  seed('mixed', {
    title: 'Notes: rust & javascript (2024)', tags: ['js', 'Rust'], excerpt: 'ownership vs closures', note: 'scope',
    link: 'https://notes.example.org/rust-js', created: '2024-05-31T23:59:59.999Z', highlights: ['chocolate'],
  });
  const file = db.prepare(
    `INSERT INTO files (id, user_id, kind, bookmark_id, name, mime, size, sha256, path, created)
     VALUES (?, 1, ?, ?, 'x', 'application/pdf', 1, '', ?, '2024-01-01T00:00:00.000Z')`,
  );
  file.run('f1', 'file', ids.file, 'p1');
  file.run('f2', 'cover', ids.cake, 'p2');
  new FullTextIndex(db).reindex(Object.values(ids));

  target = await createTestDatabase();
  pool = await connectPool(target.url, { max: 2 });
  await copySqliteToPostgres(db, pool);
  // Page text of two bookmarks on both sides (the articles repository writes these in real use).
  for (const [name, text] of PAGE_TEXTS) {
    db.prepare('INSERT INTO article_fts (rowid, text) VALUES (?, ?)').run(ids[name], text);
    await pool.query(
      "UPDATE article_texts SET status = 'indexed', text = $2 WHERE bookmark_id = $1",
      [ids[name], text],
    );
  }
}, 60_000);

const PAGE_TEXTS: [string, string][] = [
  ['js', 'Tide gauges in Brest measure the sea level; Crème fraîche, page 12.'],
  ['dup1', 'Another tide table for the same page'],
];

afterAll(async () => {
  await pool?.end();
  await target?.drop();
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const byId = () => Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));

function onSqlite(expr: string): string[] {
  const c = compileSearch(expr);
  const rows = db.prepare(`SELECT b.id FROM bookmarks b WHERE b.user_id = 1 AND ${c.where} ORDER BY b.id`).all(...c.params) as { id: number }[];
  const names = byId();
  return rows.map((r) => names[r.id]);
}

async function onPostgres(expr: string): Promise<string[]> {
  const c = compilePgSearch(expr);
  const sql = numberPlaceholders(`SELECT b.id FROM bookmarks b WHERE b.user_id = 1 AND ${c.where} ORDER BY b.id`);
  const rows = (await pool.query<{ id: number }>(sql, c.params)).rows;
  const names = byId();
  return rows.map((r) => names[r.id]);
}

const CASES = [
  'owner', 'CLOSURE', 'remembering', 'eggs', 'mozilla', '-programming', 'nothingmatches',
  'rust cake', 'rust match:OR cake', 'match:OR rust -programming', 'match:OR #js ❤️',
  '"chocolate cake"', '"cake chocolate"', '-"same page"',
  '#programming', '#PROGRAM', '#"Rust Lang"', '#rust', '-#js', '#js #programming', '#desserts', '#"french FOOD"',
  'type:article', '-type:link', 'created:2023', 'created:2024-05', 'created:2024-05-01', 'created:<2024-05-01',
  'created:>2024-05', '-created:2024', 'lastUpdate:2024-01-02', 'lastUpdate:<2024-01-02',
  '❤️', 'important:false', '-important:true', 'notag:true', 'note:true', 'note:bake', 'highlights:true', 'highlights:false',
  'file:true', 'broken:true', 'duplicate:true', '-duplicate:true', 'domain:example.com', 'domain:cooking.example.com',
  'domain:ample.com', '-domain:example.net', 'domain:EXAMPLE.fr', 'domain:recettes.example.fr',
  'title:rust', 'title:mozilla', 'link:mozilla', 'excerpt:scope', 'excerpt:ownership', 'note:scope', 'title:notes',
  'lang:en', '-lang:en', 'lang:fr', 'lang:FR-CA',
  // diacritics, punctuation inside words, numbers, prefixes of several words
  'creme', 'brulee', 'CAFÉ', 'uber', 'über-simple', 'oven_needed', 'oven', 'needed', 'e2e', 'v1', '1.5', '180', '2024',
  'naive', 'caramel', '"caramelised sugar"', 'rust-lang', 'blog.rust', 'utm', 'top', 'recettes', 'fr',
  'rust match:OR javascript -closures', '"rust & javascript"', 'rust javascript', 'ownership closures',
  'title:"chocolate cake"', 'link:rust-js', 'excerpt:"no oven"', 'note:"v1.5"',
  'NEAR(rust owner)', 'rust OR cake', 'title:*', '{title}:rust', 'rust AND', '^rust', 'a"b"c', '"""', 'NOT', '*', 'rust*', '""',
  '-""', '-"""', 'title:""', '-title:!!', "it's", 'tag\\', '%', '_', '-%',
  // page text: whole words, phrases, mixed with fields, negation and OR
  'brest', 'tide', 'gauge', '"tide gauges"', '"gauges tide"', 'closures brest', 'brest #js', 'brest -closures', 'tide -#js',
  'creme fraiche', 'fraîche', 'tide match:OR cake', 'title:brest', '-brest', 'tide page', '"same page" tide', '12',
];

describe('the PostgreSQL search compiler finds what the SQLite one finds', () => {
  it('for every kind of term', async () => {
    const differ: string[] = [];
    for (const expr of CASES) {
      const [a, b] = [onSqlite(expr), await onPostgres(expr)];
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(`${expr}: SQLite ${JSON.stringify(a)}, PostgreSQL ${JSON.stringify(b)}`);
    }
    expect(differ).toEqual([]);
    // And the cases are not vacuous: most of them find something.
    expect(CASES.filter((e) => onSqlite(e).length > 0).length).toBeGreaterThan(CASES.length / 2);
  });

  it('for 1,500 random expressions', async () => {
    const parts = ['"', '#', '-', ':', '<', '>', ' ', 'rust', 'Z', '1', '❤️', '(', ')', '*', '^', 'created:', 'type:', 'domain:',
      'match:OR', 'title:', '_id:', 'lang:', 'note:', '[', ']', '{', '}', "'", ';', '\\', '%', '_', 'NEAR', 'OR', 'cho', 'page',
      'créme', 'js', 'example', 'link:', 'excerpt:'];
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    const differ: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const expr = Array.from({ length: 1 + rnd(12) }, () => parts[rnd(parts.length)]).join('');
      const [a, b] = [onSqlite(expr), await onPostgres(expr)];
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(`${expr}: SQLite ${JSON.stringify(a)}, PostgreSQL ${JSON.stringify(b)}`);
    }
    expect(differ.slice(0, 20)).toEqual([]);
  });

  it('ranks title matches above matches elsewhere (score sort)', async () => {
    const c = compilePgSearch('chocolate');
    expect(c.rank).not.toBeNull();
    const sql = numberPlaceholders(
      `SELECT b.id FROM bookmarks b WHERE b.user_id = 1 AND ${c.where}
        ORDER BY ts_rank(b.search, to_tsquery('tidemark', ?)) DESC, b.created DESC, b.id DESC`,
    );
    const rows = (await pool.query<{ id: number }>(sql, [...c.params, c.rank])).rows.map((r) => byId()[r.id]);
    expect(rows).toEqual(['cake', 'mixed']);
  });
});
