import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/open.js';
import { FullTextIndex } from './fts.js';
import { compileSearch, ftsString } from './search-sql.js';
import { seedSearchRow, type SearchRow } from '../../../tests/helpers/search-corpus.js';

// The compiler against the real schema (migrations, FTS5 table), so every SQL it writes is run.

let dir: string;
let db: Db;

const ids: Record<string, number> = {};

const seed = (name: string, r: SearchRow) => seedSearchRow(db, ids, name, r);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-search-'));
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
  // An uploaded file, and a cover (which does not make a bookmark a file).
  const file = db.prepare(
    `INSERT INTO files (id, user_id, kind, bookmark_id, name, mime, size, sha256, path, created)
     VALUES (?, 1, ?, ?, 'x', 'application/pdf', 1, '', ?, '2024-01-01T00:00:00.000Z')`,
  );
  file.run('f1', 'file', ids.file, 'p1');
  file.run('f2', 'cover', ids.cake, 'p2');
  new FullTextIndex(db).reindex(Object.values(ids));
  // The page text of one bookmark (stored by the articles repository; only its index matters here).
  db.prepare('INSERT INTO article_fts (rowid, text) VALUES (?, ?)').run(ids.js, 'Tide gauges in Brest measure the sea level');
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function run(expr: string): string[] {
  const c = compileSearch(expr);
  const rows = db.prepare(`SELECT b.id FROM bookmarks b WHERE b.user_id = 1 AND ${c.where} ORDER BY b.id`).all(...c.params) as {
    id: number;
  }[];
  const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
  return rows.map((r) => byId[r.id]);
}
const ALL = ['rust', 'js', 'cake', 'dup1', 'dup2', 'file'];
const except = (...names: string[]) => ALL.filter((n) => !names.includes(n));

describe('compileSearch against the real schema', () => {
  it('matches words by prefix in any indexed field, and excludes with -word', () => {
    expect(run('owner')).toEqual(['rust']);
    expect(run('CLOSURE')).toEqual(['js']);
    expect(run('remembering')).toEqual(['js']); // excerpt
    expect(run('eggs')).toEqual(['cake']); // highlight text
    expect(run('mozilla')).toEqual(['js']); // link words
    expect(run('-programming')).toEqual(except('rust', 'js')); // tags are indexed too
    expect(run('nothingmatches')).toEqual([]);
  });

  it('ANDs terms by default and ORs them with match:OR', () => {
    expect(run('rust cake')).toEqual([]);
    expect(run('rust match:OR cake')).toEqual(['rust', 'cake']);
    expect(run('match:OR rust -programming')).toEqual(except('js'));
    expect(run('match:OR #js ❤️')).toEqual(['rust', 'js']);
  });

  it('matches phrases in order only', () => {
    expect(run('"chocolate cake"')).toEqual(['cake']);
    expect(run('"cake chocolate"')).toEqual([]);
    expect(run('-"same page"')).toEqual(except('dup1', 'dup2'));
  });

  it('filters tags exactly and case-insensitively, also multi-word tags', () => {
    expect(run('#programming')).toEqual(['rust', 'js']);
    expect(run('#PROGRAM')).toEqual([]); // no prefix match on tags
    expect(run('#"Rust Lang"')).toEqual(['rust']);
    expect(run('#rust')).toEqual([]); // "rust lang" is not "rust"
    expect(run('-#js')).toEqual(except('js'));
    expect(run('#js #programming')).toEqual(['js']);
  });

  it('filters type, dates, flags and fields', () => {
    expect(run('type:article')).toEqual(['rust']);
    expect(run('-type:link')).toEqual(['rust', 'dup2', 'file']);
    expect(run('created:2023')).toEqual(['rust']);
    expect(run('created:2024-05')).toEqual(['js', 'dup1', 'dup2', 'file']);
    expect(run('created:2024-05-01')).toEqual(['js']);
    expect(run('created:<2024-05-01')).toEqual(['rust']);
    expect(run('created:>2024-05')).toEqual(['cake']);
    expect(run('-created:2024')).toEqual(['rust']);
    expect(run('lastUpdate:2024-01-02')).toEqual(['rust']);
    expect(run('lastUpdate:<2024-01-02')).toEqual([]);
    expect(run('❤️')).toEqual(['rust']);
    expect(run('important:false')).toEqual(except('rust'));
    expect(run('-important:true')).toEqual(except('rust'));
    expect(run('notag:true')).toEqual(except('rust', 'js'));
    expect(run('note:true')).toEqual(['cake']);
    expect(run('note:bake')).toEqual(['cake']);
    expect(run('highlights:true')).toEqual(['cake']);
    expect(run('highlights:false')).toEqual(except('cake'));
    expect(run('file:true')).toEqual(['file']);
    expect(run('broken:true')).toEqual(['dup1']);
    expect(run('duplicate:true')).toEqual(['dup1', 'dup2']);
    expect(run('-duplicate:true')).toEqual(except('dup1', 'dup2'));
    expect(run('domain:example.com')).toEqual(['cake']);
    expect(run('domain:cooking.example.com')).toEqual(['cake']);
    expect(run('domain:ample.com')).toEqual([]); // not a subdomain
    expect(run('-domain:example.net')).toEqual(except('dup1', 'dup2'));
    expect(run('title:rust')).toEqual(['rust']);
    expect(run('title:mozilla')).toEqual([]); // only in the link
    expect(run('link:mozilla')).toEqual(['js']);
    expect(run('excerpt:scope')).toEqual(['js']);
    expect(run(`_id:${ids.cake}`)).toEqual(['cake']);
    expect(run(`-_id:${ids.cake}`)).toEqual(except('cake'));
    expect(run('lang:en')).toEqual(['rust', 'js']);
    expect(run('-lang:en')).toEqual(except('rust', 'js'));
  });

  it('passes user text to FTS5 only as quoted strings', () => {
    expect(ftsString('a"b')).toBe('"a""b"');
    for (const expr of ['NEAR(rust owner)', 'rust OR cake', 'title:*', '{title}:rust', 'rust AND', '^rust', 'a"b"c', '"""', 'NOT', '*', 'rust*']) {
      expect(() => run(expr)).not.toThrow();
    }
    expect(run('rust OR cake')).toEqual([]); // "OR" is a word here, not an operator
  });

  it('compiles any random expression to SQL that runs', () => {
    const parts = ['"', '#', '-', ':', '<', '>', ' ', 'rust', 'Z', '1', '❤️', '(', ')', '*', '^', 'created:', 'type:', 'domain:',
      'match:OR', 'title:', '_id:', 'lang:', 'note:', '[', ']', '{', '}', "'", ';', '\\', '%', '_', 'NEAR', 'OR'];
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    for (let i = 0; i < 1500; i++) {
      const expr = Array.from({ length: 1 + rnd(12) }, () => parts[rnd(parts.length)]).join('');
      expect(() => run(expr), expr).not.toThrow();
    }
  });

  it('matches plain words and phrases in page text too, whole words only, other operators unchanged', () => {
    expect(run('brest')).toEqual(['js']);
    expect(run('"tide gauges"')).toEqual(['js']);
    expect(run('"gauges tide"')).toEqual([]);
    expect(run('gauge')).toEqual([]);
    // One word in the title, one only in the page text.
    expect(run('closures brest')).toEqual(['js']);
    expect(run('brest #js')).toEqual(['js']);
    expect(run('brest #rust')).toEqual([]);
    expect(run('brest -closures')).toEqual([]);
    expect(run('title:brest')).toEqual([]);
    expect(run('-brest')).toEqual(ALL);
    expect(run('brest match:OR cake')).toEqual(['js', 'cake']);
  });

  it('reports the full-text part for ranking and for driving the query', () => {
    const c = compileSearch('#programming title:rust type:article');
    expect(c.matchSql).toEqual({ sql: expect.stringContaining('bookmarks_fts MATCH ?'), params: ['(title : "rust"*) AND (tags : "programming")'] });
    expect(c.rankSql).toBe(c.matchSql);
    // A plain word also looks in the page text, ranked after the bookmark's own fields.
    const word = compileSearch('rust type:article');
    expect(word.matchSql?.sql).toContain('article_fts MATCH ?');
    expect(word.matchSql?.params).toEqual(['("rust"*)', '"rust"']);
    expect(compileSearch('type:article')).toMatchObject({ rankSql: null, matchSql: null });
    expect(compileSearch('a match:OR b')).toMatchObject({ rankSql: { params: ['("a"*) OR ("b"*)', '("a") OR ("b")'] }, matchSql: null });
    expect(compileSearch('')).toEqual({ where: '1', params: [], rankSql: null, matchSql: null, rest: { where: '1', params: [] } });
  });
});
