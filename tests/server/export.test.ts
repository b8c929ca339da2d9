import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { upload } from './upload-client.js';

// GET /bookmarks/{collectionId}/export.{html,csv,md} over real HTTP against a real SQLite file,
// and the round trip: the html export imported into fresh accounts (POST /import/file + the API
// calls a client makes with its answer, and the `import` command) gives back the same library.

let s: TestServer;
let owner: { id: number; email: string; token: string };
const ids: Record<string, number> = {};

async function raw(p: string, token: string | null = owner.token): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(s.url + p, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function collection(token: string, title: string, parent?: number): Promise<number> {
  const item = await s.createItem<{ _id: number }>('/collection', token, { title, ...(parent ? { parent: { $id: parent } } : {}) });
  return item._id;
}

async function bookmark(token: string, body: Record<string, unknown>): Promise<number> {
  return (await s.createItem<{ _id: number }>('/bookmark', token, body))._id;
}

beforeAll(async () => {
  s = await startServer();
  owner = await s.createUser('exporter@example.test');
  ids.reading = await collection(owner.token, 'Reading');
  ids.articles = await collection(owner.token, 'Articles & <essays>', ids.reading);
  ids.deep = await collection(owner.token, 'Deep', ids.articles);
  ids.work = await collection(owner.token, 'Work');
  ids.b1 = await bookmark(owner.token, {
    link: 'https://essays.example/on-tides',
    title: 'On "tides" & <moons>',
    excerpt: 'Why the sea rises, twice a day.',
    note: 'Read twice.\nSecond line, with a <tag> & "quotes".',
    tags: ['ocean', 'physics'],
    important: true,
    collectionId: ids.articles,
    created: '2025-03-04T05:06:07.000Z',
  });
  const put = await s.api('PUT', `/bookmark/${ids.b1}`, {
    token: owner.token,
    body: { highlights: [{ text: 'the moon pulls the water', color: 'blue', note: 'gravity, not wind' }, { text: 'twice a day', color: 'red' }] },
  });
  expect(put.status).toBe(200);
  ids.b2 = await bookmark(owner.token, { link: 'https://deep.example/abyss', title: 'The abyss', tags: ['ocean'], collectionId: ids.deep });
  ids.b3 = await bookmark(owner.token, {
    link: 'https://work.example/plan',
    title: '=HYPERLINK("http://evil.example","click")',
    note: '+1 from Ann',
    tags: ['planning'],
    collectionId: ids.work,
  });
  ids.b4 = await bookmark(owner.token, { link: 'https://reading.example/top', title: 'Top of Reading', collectionId: ids.reading });
  ids.b5 = await bookmark(owner.token, { link: 'https://loose.example/', title: 'Loose one', collectionId: -1 });
  ids.b6 = await bookmark(owner.token, { link: 'https://trash.example/', title: 'Thrown away', collectionId: ids.work });
  expect((await s.api('DELETE', `/bookmark/${ids.b6}`, { token: owner.token })).status).toBe(200);
});
afterAll(async () => s.close());

describe('html export (Netscape bookmark file)', () => {
  it('exports everything but Trash as nested folders with TAGS, ADD_DATE and notes as <DD>', async () => {
    const res = await raw('/bookmarks/0/export.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Tidemark-bookmarks-\d{4}-\d{2}-\d{2}\.html"$/);
    const html = res.text;
    expect(html.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>')).toBe(true);
    // Folders nest: Reading > Articles > Deep, each <H3> followed by its own <DL>.
    const folderOrder = [...html.matchAll(/<H3>([^<]*)<\/H3>/g)].map((m) => m[1]);
    // Listing order: the newest collection first among siblings.
    expect(folderOrder).toEqual(['Work', 'Reading', 'Articles &amp; &lt;essays&gt;', 'Deep']);
    const deepIndent = /^( *)<DT><H3>Deep<\/H3>$/m.exec(html)![1]!.length;
    const articlesIndent = /^( *)<DT><H3>Articles/m.exec(html)![1]!.length;
    expect(deepIndent).toBeGreaterThan(articlesIndent);
    expect(html).toContain(
      `<DT><A HREF="https://essays.example/on-tides" ADD_DATE="${Date.parse('2025-03-04T05:06:07Z') / 1000}"`,
    );
    expect(html).toContain('TAGS="ocean,physics"');
    expect(html).toContain('>On &quot;tides&quot; &amp; &lt;moons&gt;</A>');
    expect(html).toContain('<DD>Read twice.<BR>Second line, with a &lt;tag&gt; &amp; &quot;quotes&quot;.');
    expect(html).toContain('https://loose.example/');
    expect(html).not.toContain('trash.example');
  });

  it('applies the listing scope: one collection, nested=true, search, Unsorted and Trash', async () => {
    const only = (await raw(`/bookmarks/${ids.reading}/export.html`)).text;
    expect(only).toContain('reading.example/top');
    expect(only).not.toContain('essays.example');
    const nested = (await raw(`/bookmarks/${ids.reading}/export.html?nested=true`)).text;
    expect(nested).toContain('essays.example');
    expect(nested).toContain('deep.example');
    expect(nested).not.toContain('work.example');
    const searched = (await raw(`/bookmarks/0/export.html?search=${encodeURIComponent('#ocean -abyss')}`)).text;
    expect(searched).toContain('essays.example');
    expect(searched).not.toContain('deep.example');
    expect(searched).not.toContain('work.example');
    const unsorted = await raw('/bookmarks/-1/export.html');
    expect(unsorted.headers.get('content-disposition')).toMatch(/filename="Unsorted-/);
    expect(unsorted.text).toContain('loose.example');
    expect(unsorted.text).not.toContain('essays.example');
    expect((await raw('/bookmarks/-99/export.html')).text).toContain('trash.example');
  });

  it('refuses what listing refuses, with the error envelope', async () => {
    const noToken = await raw(`/bookmarks/${ids.reading}/export.html`, null);
    expect(noToken.status).toBe(401);
    expect(JSON.parse(noToken.text)).toMatchObject({ result: false });
    const stranger = await s.createUser('stranger@example.test');
    const forbidden = await raw(`/bookmarks/${ids.reading}/export.csv`, stranger.token);
    expect(forbidden.status).toBe(403);
    expect((await raw('/bookmarks/987654/export.md')).status).toBe(404);
    const badFormat = await raw('/bookmarks/0/export.pdf');
    expect(badFormat.status).toBe(400);
    expect(JSON.parse(badFormat.text)).toMatchObject({ result: false, errorMessage: expect.stringMatching(/format/) });
  });

  it('is declared in the OpenAPI document with its statuses', async () => {
    const doc = (await s.api('GET', '/openapi.json')).body;
    const op = doc.paths['/rest/v1/bookmarks/{collectionId}/export.{format}']?.get ?? doc.paths['/bookmarks/{collectionId}/export.{format}']?.get;
    expect(op).toBeDefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '429']));
    expect(op.responses['200'].content).toHaveProperty(['text/csv; charset=utf-8']);
  });
});

describe('csv export', () => {
  it('has the documented columns, quotes every text and defuses formulas', async () => {
    const res = await raw('/bookmarks/0/export.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parse(res.text, { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['id', 'title', 'note', 'excerpt', 'url', 'folder path', 'tags', 'created', 'cover', 'highlights', 'favourite']);
    const tides = rows.find((r) => r.url === 'https://essays.example/on-tides')!;
    expect(tides).toMatchObject({
      id: String(ids.b1),
      title: 'On "tides" & <moons>',
      note: 'Read twice.\nSecond line, with a <tag> & "quotes".',
      excerpt: 'Why the sea rises, twice a day.',
      'folder path': 'Reading / Articles & <essays>',
      tags: 'ocean, physics',
      created: '2025-03-04T05:06:07.000Z',
      highlights: 'the moon pulls the water\nNote: gravity, not wind\n\ntwice a day',
      favourite: 'true',
    });
    const plan = rows.find((r) => r.url === 'https://work.example/plan')!;
    expect(plan.title).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(plan.note).toBe("'+1 from Ann");
    expect(plan.favourite).toBe('false');
    expect(rows.find((r) => r.url === 'https://loose.example/')!['folder path']).toBe('');
    expect(rows).toHaveLength(5);
  });
});

describe('markdown export', () => {
  it('one section per bookmark, highlights as quotes with their notes under them', async () => {
    const res = await raw(`/bookmarks/${ids.reading}/export.md?nested=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const md = res.text;
    expect(md.startsWith('# Reading\n')).toBe(true);
    expect(md).toContain('### Reading / Articles & \\<essays\\>');
    expect(md).toContain('[On "tides" & \\<moons\\>](<https://essays.example/on-tides>)');
    expect(md).toMatch(/> the moon pulls the water\n\ngravity, not wind\n\n> twice a day/);
    expect(md).toContain('\\#ocean \\#physics');
  });
});

describe('round trip: the html export imported into a fresh account', () => {
  /** Every collection of the user as a path of titles, and every bookmark with its collection's path. */
  async function library(token: string) {
    const roots = (await s.api('GET', '/collections', { token })).body.items as { _id: number; title: string }[];
    const kids = (await s.api('GET', '/collections/childrens', { token })).body.items as { _id: number; title: string; parent: { $id: number } }[];
    const byId = new Map<number, { title: string; parent?: number }>();
    for (const c of roots) byId.set(c._id, { title: c.title });
    for (const c of kids) byId.set(c._id, { title: c.title, parent: c.parent.$id });
    const pathOf = (id: number): string => {
      const c = byId.get(id);
      if (!c) return id === -1 ? '(Unsorted)' : `(${id})`;
      return c.parent ? `${pathOf(c.parent)} / ${c.title}` : c.title;
    };
    const items = [];
    for (let page = 0; ; page++) {
      const res = (await s.api('GET', `/bookmarks/0?perpage=50&page=${page}`, { token })).body.items as any[];
      items.push(...res);
      if (res.length < 50) break;
    }
    return {
      collections: [...byId.keys()].map(pathOf).sort(),
      bookmarks: items
        .map((b) => ({ folder: pathOf(b.collectionId), link: b.link, title: b.title, tags: [...b.tags].sort(), note: b.note, excerpt: b.excerpt, important: b.important }))
        .sort((a, b) => a.link.localeCompare(b.link)),
    };
  }

  /**
   * What a client does with POST /import/file's answer: a collection per folder (nested), its
   * bookmarks saved in it; a folder flagged `unsorted` gets no collection, its bookmarks go to
   * Unsorted (or into `parent` when importing into a collection).
   */
  async function importAnswer(token: string, folders: any[], parent?: number): Promise<void> {
    for (const f of folders) {
      const id = f.unsorted ? (parent ?? -1) : await collection(token, f.title, parent);
      if (f.bookmarks.length) {
        const res = await s.api('POST', '/bookmarks', { token, body: { items: f.bookmarks.map((b: any) => ({ ...b, collectionId: id })) } });
        expect(res.status).toBe(200);
      }
      await importAnswer(token, f.folders, f.unsorted ? parent : id);
    }
  }

  it('through POST /import/file and the API calls a client makes with its answer', async () => {
    const html = (await raw('/bookmarks/0/export.html')).text;
    const fresh = await s.createUser('fresh-api@example.test');
    const converted = await upload(s, 'POST', '/import/file', [{ name: 'import', filename: 'export.html', content: html, type: 'text/html' }], fresh.token);
    expect(converted.status).toBe(200);
    // The Unsorted bookmark comes in the one folder flagged `unsorted`; the collections' folders carry no flag.
    expect(converted.body.items.filter((f: any) => f.unsorted).map((f: any) => f.bookmarks.map((b: any) => b.link))).toEqual([['https://loose.example/']]);
    await importAnswer(fresh.token, converted.body.items);
    expect(await library(fresh.token)).toEqual(await library(owner.token));
  });

  it('an Unsorted or Trash export comes back in Unsorted, not in a collection named after the file', async () => {
    const fresh = await s.createUser('fresh-unsorted@example.test');
    for (const scope of [-1, -99]) {
      const html = (await raw(`/bookmarks/${scope}/export.html`)).text;
      const converted = await upload(s, 'POST', '/import/file', [{ name: 'import', filename: 'unsorted.html', content: html, type: 'text/html' }], fresh.token);
      expect(converted.status).toBe(200);
      await importAnswer(fresh.token, converted.body.items);
    }
    expect(await library(fresh.token)).toEqual({
      collections: [],
      bookmarks: [expect.objectContaining({ folder: '(Unsorted)', link: 'https://loose.example/' }), expect.objectContaining({ folder: '(Unsorted)', link: 'https://trash.example/' })],
    });
  });

  it('through the import command', async () => {
    const html = (await raw('/bookmarks/0/export.html')).text;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-export-')), 'export.html');
    fs.writeFileSync(file, html);
    const fresh = await s.createUser('fresh-cli@example.test');
    const res = runCli(['import', '--email', fresh.email, '--file', file, ...s.cliArgs]);
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ created: 5, failed: 0, duplicates: 0, collections: 4 });
    expect(await library(fresh.token)).toEqual(await library(owner.token));
  });

  it('through the import command with --collection ID: everything lands in that collection, Unsorted bookmarks directly in it', async () => {
    const html = (await raw('/bookmarks/0/export.html')).text;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-export-')), 'export.html');
    fs.writeFileSync(file, html);
    const fresh = await s.createUser('fresh-cli-target@example.test');
    const target = await collection(fresh.token, 'Restored');
    const res = runCli(['import', '--email', fresh.email, '--file', file, '--collection', String(target), ...s.cliArgs]);
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ created: 5, failed: 0, collections: 4 });
    const original = await library(owner.token);
    const under = (p: string) => (p === '(Unsorted)' ? 'Restored' : `Restored / ${p}`);
    expect(await library(fresh.token)).toEqual({
      collections: ['Restored', ...original.collections.map(under)].sort(),
      bookmarks: original.bookmarks.map((b) => ({ ...b, folder: under(b.folder) })),
    });
  });
});
