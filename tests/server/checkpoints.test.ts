// Copying the write-ahead log into the database file happens in a worker thread, never inside a
// request's commit; the data stays safe and the log does not grow without bound.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DB_FILE } from '../../server/db/open.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

test("the server's own connection never checkpoints; the worker copies every committed page back", async () => {
  expect(s.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  const u = await s.createUser();
  const items = Array.from({ length: 100 }, (_, i) => ({ link: `https://example.com/${i}`, title: `Page ${i}`, tags: ['t'] }));
  for (let i = 0; i < 5; i++) expect((await s.api('POST', '/bookmarks', { token: u.token, body: { items } })).status).toBe(200);
  const wal = path.join(s.dataDir, `${DB_FILE}-wal`);
  expect(fs.statSync(wal).size).toBeGreaterThan(0);

  const { log, checkpointed } = await s.sqliteStore.checkpoints!.checkpointNow();
  expect(log).toBeGreaterThan(0);
  expect(checkpointed).toBe(log);

  // The database file alone (a copy, without its log) now holds all 500 bookmarks.
  const copy = path.join(s.dataDir, 'copy.sqlite');
  fs.copyFileSync(path.join(s.dataDir, DB_FILE), copy);
  const alone = new Database(copy, { readonly: true });
  expect(alone.prepare('SELECT count(*) AS n FROM bookmarks WHERE user_id = ?').get(u.id)).toEqual({ n: 500 });
  alone.close();
});

test('the log is reused after a checkpoint instead of growing with every write', async () => {
  const u = await s.createUser();
  const wal = path.join(s.dataDir, `${DB_FILE}-wal`);
  const items = Array.from({ length: 100 }, (_, i) => ({ link: `https://example.org/${i}`, title: `Other ${i}` }));
  await s.api('POST', '/bookmarks', { token: u.token, body: { items } });
  await s.sqliteStore.checkpoints!.checkpointNow();
  const size = fs.statSync(wal).size;
  for (let round = 0; round < 10; round++) {
    await s.api('PUT', '/bookmarks/-1', { token: u.token, body: { important: round % 2 === 0 } });
    await s.sqliteStore.checkpoints!.checkpointNow();
  }
  expect(fs.statSync(wal).size).toBeLessThanOrEqual(size);
});
