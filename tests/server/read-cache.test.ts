// The server keeps hot reads (token rows, bookmark locations, single bookmarks) in memory. These
// tests prove a cached answer is never served once the data changed: through the API, through
// another connection to the same file (what the CLI or a second server process does), or by a
// transaction that was rolled back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DB_FILE, openDatabase } from '../../server/db/open.js';
import { cacheSignalOf } from '../../server/db/change-tracker.js';
import { ReadCache } from '../../server/db/read-cache.js';
import { createSqliteRepositories } from '../../server/repositories/sqlite/index.js';
import { readCreate } from '../../server/services/bookmarks/input.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';

describe('over HTTP', () => {
  let s: TestServer;
  let other: Database.Database;
  beforeAll(async () => {
    s = await startServer();
    other = new Database(path.join(s.dataDir, DB_FILE));
  });
  afterAll(async () => {
    other.close();
    await s.close();
  });

  test('a bookmark changed by another process is answered fresh on the next read', async () => {
    const u = await s.createUser();
    const created = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://example.com/a', title: 'Before' } });
    const id = created.body.item._id;
    expect((await s.api('GET', `/bookmark/${id}`, { token: u.token })).body.item.title).toBe('Before');
    expect((await s.api('GET', `/bookmark/${id}`, { token: u.token })).body.item.title).toBe('Before');

    other.prepare('UPDATE bookmarks SET title = ? WHERE id = ?').run('Changed elsewhere', id);
    expect((await s.api('GET', `/bookmark/${id}`, { token: u.token })).body.item.title).toBe('Changed elsewhere');

    // Moved to another user's collection by another process: the old owner loses access at once.
    const v = await s.createUser();
    const theirs = await s.api('POST', '/collection', { token: v.token, body: { title: 'Theirs' } });
    other.prepare('UPDATE bookmarks SET user_id = ?, collection_id = ? WHERE id = ?').run(v.id, theirs.body.item._id, id);
    expect((await s.api('GET', `/bookmark/${id}`, { token: u.token })).status).toBe(403);
    expect((await s.api('GET', `/bookmark/${id}`, { token: v.token })).body.item.title).toBe('Changed elsewhere');
  });

  test('a token revoked by another process stops working on the next request', async () => {
    const u = await s.createUser();
    expect((await s.api('GET', '/user', { token: u.token })).status).toBe(200);
    expect((await s.api('GET', '/user', { token: u.token })).status).toBe(200);
    other.prepare('UPDATE tokens SET revoked_at = ? WHERE user_id = ?').run(Date.now(), u.id);
    const res = await s.api('GET', '/user', { token: u.token });
    expect(res.status).toBe(401);
    expect(res.body.errorMessage).toMatch(/invalid, revoked or expired/);
  });

  test('writes through the API are seen by the very next read, highlights included', async () => {
    const u = await s.createUser();
    const { body } = await s.api('POST', '/bookmark', { token: u.token, body: { link: 'https://example.com/b' } });
    const id = body.item._id;
    await s.api('GET', `/bookmark/${id}`, { token: u.token });
    await s.api('PUT', `/bookmark/${id}`, { token: u.token, body: { highlights: [{ text: 'a quote', color: 'blue' }] } });
    const after = await s.api('GET', `/bookmark/${id}`, { token: u.token });
    expect(after.body.item.highlights.map((h: { text: string; color: string }) => [h.text, h.color])).toEqual([['a quote', 'blue']]);
    await s.api('DELETE', `/bookmark/${id}`, { token: u.token });
    expect((await s.api('GET', `/bookmark/${id}`, { token: u.token })).body.item.collectionId).toBe(-99);
  });
});

describe('ReadCache', () => {
  let dir: string;
  let db: ReturnType<typeof openDatabase>;
  const titleOf = (cache: ReadCache<number, { title: string } | undefined>, id: number) =>
    cache.get(id, () => db.prepare('SELECT title FROM bookmarks WHERE id = ?').get(id) as { title: string } | undefined)?.title;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-read-cache-'));
    db = openDatabase(dir);
  });
  beforeAll(async () => {
    const repos = createSqliteRepositories(db, new TestClock());
    const user = await repos.users.create({ email: 'a@example.test', passwordHash: null, fullName: 'A' });
    const [id] = await repos.bookmarks.create([{ ...readCreate({ link: 'https://example.com/one', title: 'One' }), ownerId: user.id, creatorId: user.id }]);
    expect(id).toBe(1);
  });
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('serves a value again until this connection writes', () => {
    const cache = new ReadCache<number, { title: string } | undefined>(cacheSignalOf(db), 10);
    let loads = 0;
    const load = () => (loads++, db.prepare('SELECT title FROM bookmarks WHERE id = 1').get() as { title: string });
    cache.get(1, load);
    cache.get(1, load);
    expect(loads).toBe(1);
    db.prepare("UPDATE bookmarks SET title = 'Two' WHERE id = 1").run();
    expect(cache.get(1, load)?.title).toBe('Two');
    expect(loads).toBe(2);
  });

  test('never keeps what a transaction read, so a rollback cannot leave uncommitted data behind', () => {
    const cache = new ReadCache<number, { title: string } | undefined>(cacheSignalOf(db), 10);
    const tx = db.transaction(() => {
      db.prepare("UPDATE bookmarks SET title = 'Uncommitted' WHERE id = 1").run();
      expect(titleOf(cache, 1)).toBe('Uncommitted');
      throw new Error('roll back');
    });
    expect(() => tx()).toThrow('roll back');
    expect(titleOf(cache, 1)).not.toBe('Uncommitted');
  });

  test('values are frozen, so a caller cannot change what the next one reads', () => {
    const cache = new ReadCache<number, { title: string; tags: string[] }>(cacheSignalOf(db), 10);
    const value = cache.get(7, () => ({ title: 'x', tags: ['a'] }));
    expect(() => value.tags.push('b')).toThrow(TypeError);
    expect(cache.get(7, () => ({ title: 'y', tags: [] })).tags).toEqual(['a']);
  });

  test('holds at most its bound', () => {
    const cache = new ReadCache<number, number>(cacheSignalOf(db), 3);
    let loads = 0;
    for (const k of [1, 2, 3, 4]) cache.get(k, () => (loads++, k));
    cache.get(1, () => (loads++, 1)); // evicted first, so loaded again
    expect(loads).toBe(5);
  });
});
