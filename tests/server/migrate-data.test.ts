// `migrate-data --from ./data --to postgres://...` on a populated SQLite installation: every table
// arrives with its rows, ids and search document; a non-empty target and an unreachable server are
// refused with a message that says what to do.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPool } from '../../server/db/postgres/pool.js';
import { createTestDatabase, type TestPgDatabase } from '../helpers/pg-database.js';
import { runCli } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createCollection, share } from './sharing-setup.js';
import { PNG_1x1, upload } from './upload-client.js';

let s: TestServer;
let dataDir: string;
let source: Record<string, number>;

beforeAll(async () => {
  s = await startServer();
  dataDir = s.dataDir;
  const alice = await s.createUser('alice@example.test', { password: 'correct horse', pro: true });
  const bob = await s.createUser('bob@example.test');
  const work = await createCollection(s, alice, 'Work');
  // A child made before its parent is moved under it: the parent's id is larger than the child's.
  const child = await createCollection(s, alice, 'Reading');
  const parent = await createCollection(s, alice, 'Later');
  expect((await s.api('PUT', `/collection/${child}`, { token: alice.token, body: { parent: { $id: parent } } })).status).toBe(200);
  await share(s, alice, work, bob, 'member');
  await s.api('POST', `/collection/${parent}/sharing`, { token: alice.token, body: { role: 'viewer', emails: ['carol@example.test'] } });

  const items = Array.from({ length: 30 }, (_, i) => ({
    link: `https://example.com/harbour/${i}`,
    title: i === 7 ? 'Tide tables of the northern harbour' : `Page ${i}`,
    tags: i % 2 ? ['sea', 'Charts'] : ['sea'],
    collectionId: i < 10 ? work : child,
  }));
  const created = await s.createItem('/bookmarks', alice.token, { items });
  void created;
  const list = await s.api('GET', `/bookmarks/${work}?perpage=50`, { token: alice.token });
  const withHighlight = list.body.items.find((b: { title: string }) => b.title.startsWith('Page 3'));
  expect(
    (await s.api('PUT', `/bookmark/${withHighlight._id}`, { token: alice.token, body: { highlights: [{ text: 'lighthouse keepers', note: 'quote' }] } })).status,
  ).toBe(200);
  await s.api('DELETE', `/bookmark/${list.body.items[0]._id}`, { token: alice.token });
  await s.api('POST', '/bookmark', { token: bob.token, body: { link: 'https://example.org/bob', collectionId: work } });
  const up = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'photo.png', content: PNG_1x1, type: 'image/png' }], alice.token);
  expect(up.status).toBe(200);
  await s.app.repos.oauth.clients.create({ ownerId: alice.id, name: 'Reader app', kind: 'confidential', redirectUris: ['https://reader.example/cb'] });
  // Closed without removing its data directory: that is the installation to move.
  await s.app.close();
}, 120_000);

afterAll(() => {
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('migrate-data', () => {
  let target: TestPgDatabase;
  const installation = () => dataDir;
  beforeAll(async () => {
    target = await createTestDatabase({ schema: 'empty' });
  });
  afterAll(async () => {
    await target?.drop();
  });

  it('copies a whole SQLite installation into an empty PostgreSQL database and verifies every table', async () => {
    const res = runCli(['migrate-data', '--from', installation(), '--to', target.url]);
    expect(res.stderr).toMatch(/Done: every table/);
    expect(res.status).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.verified).toBe(true);
    source = out.tables;
    for (const table of ['users', 'tokens', 'collections', 'bookmarks', 'bookmark_tags', 'highlights', 'collaborators', 'invitations', 'oauth_clients', 'files', 'jobs', 'link_changes']) {
      expect(source[table], table).toBeGreaterThan(0);
    }

    const pool = await connectPool(target.url, { max: 1 });
    try {
      const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await pool.query<T>(sql, params)).rows;
      // Rows arrive unchanged: the same ids, parents (a parent with a larger id than its child) and owners.
      const tree = await q<{ title: string; parent: string | null }>(
        'SELECT c.title, p.title AS parent FROM collections c LEFT JOIN collections p ON p.id = c.parent_id ORDER BY c.id',
      );
      expect(tree).toEqual([
        { title: 'Work', parent: null },
        { title: 'Reading', parent: 'Later' },
        { title: 'Later', parent: null },
      ]);
      expect(await q('SELECT email, pro FROM users ORDER BY id')).toEqual([
        { email: 'alice@example.test', pro: 1 },
        { email: 'bob@example.test', pro: 0 },
      ]);
      // The search column is filled from the row, its tags and its highlights, with weights.
      const found = await q<{ title: string }>("SELECT title FROM bookmarks WHERE search @@ to_tsquery('tidemark', 'northern:*')");
      expect(found.map((r) => r.title)).toEqual(['Tide tables of the northern harbour']);
      const byHighlight = await q<{ title: string }>("SELECT title FROM bookmarks WHERE search @@ to_tsquery('tidemark', 'lighthouse & keepers')");
      expect(byHighlight.map((r) => r.title)).toEqual(['Page 3']);
      const titleOnly = await q("SELECT id FROM bookmarks WHERE search @@ to_tsquery('tidemark', 'harbour:A')");
      expect(titleOnly).toHaveLength(1);
      // No job was made up by the copy: exactly the source's jobs.
      expect(Number((await q<{ n: string }>('SELECT count(*) AS n FROM jobs'))[0].n)).toBe(source.jobs);
      // New rows get fresh ids after the copied ones.
      const maxUser = Number((await q<{ m: string }>('SELECT max(id) AS m FROM users'))[0].m);
      const inserted = await q<{ id: number }>(
        "INSERT INTO users (email, config, files_checkpoint, registered) VALUES ('new@example.test', '{}', '', '') RETURNING id",
      );
      expect(inserted[0].id).toBeGreaterThan(maxUser);
      await q("DELETE FROM users WHERE email = 'new@example.test'");
    } finally {
      await pool.end();
    }
  });

  it('refuses a target that already holds data, and leaves it as it was', () => {
    const res = runCli(['migrate-data', '--from', installation(), '--to', target.url]);
    expect(res.status).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/target database is not empty \(\d+ users/);
    expect(res.stderr).toMatch(/create a new one/);
  });

  it('names the server and what to check when PostgreSQL cannot be reached, and exits non-zero', () => {
    const res = runCli(['migrate-data', '--from', installation(), '--to', 'postgres://tidemark@127.0.0.1:1/tidemark']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/Cannot connect to PostgreSQL at tidemark@127\.0\.0\.1:1\/tidemark: nothing is listening there\. Check that PostgreSQL is running/);
  });

  it('says what --from and --to must be', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-empty-'));
    try {
      const noDb = runCli(['migrate-data', '--from', empty, '--to', target.url]);
      expect(noDb.status).not.toBe(0);
      expect(noDb.stderr).toMatch(/holds no Tidemark database/);
      const notPg = runCli(['migrate-data', '--from', installation(), '--to', 'mysql://x@y/z']);
      expect(notPg.status).not.toBe(0);
      expect(notPg.stderr).toMatch(/--to must be a PostgreSQL URL/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
