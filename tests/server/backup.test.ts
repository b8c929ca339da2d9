// backup / restore while `serve` runs: the archive holds a consistent copy of the database and the
// files directory. Writes keep arriving while the backup runs; every write acknowledged before the
// backup started is in the restored copy, which passes SQLite's integrity check and serves again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, startServe, type ServeProcess } from '../helpers/process.js';
import { PNG_1x1 } from './upload-client.js';

let dataDir: string;
let work: string;
let serve: ServeProcess;
let token: string;

const api = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(serve.url + p, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-backup-test-'));
  dataDir = path.join(work, 'data');
  expect(runCli(['user:create', '--email', 'backup@example.test', '--password', 'long-enough-1', '--data', dataDir]).status).toBe(0);
  token = JSON.parse(runCli(['token:create', '--email', 'backup@example.test', '--data', dataDir]).stdout).access_token;
  serve = await startServe(['--port', '0', '--data', dataDir, '--rate-limit', '100000']);
}, 60_000);
afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  fs.rmSync(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('backs up during concurrent writes; the restore holds every acknowledged write and the files', { timeout: 120_000 }, async () => {
    // An uploaded file, so the archive must carry the files directory too.
    const form = new FormData();
    form.append('file', new Blob([PNG_1x1], { type: 'image/png' }), 'kept.png');
    const up = await fetch(`${serve.url}/bookmark/file`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(up.status).toBe(200);
    const fileBookmark = ((await up.json()) as { item: { _id: number; link: string } }).item;

    const acknowledged: number[] = [];
    for (let i = 0; i < 50; i++) acknowledged.push((await api('POST', '/bookmark', { link: `https://before.example/${i}` })).body.item._id);

    // Writes keep coming while the backup runs.
    let writing = true;
    const during: number[] = [];
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const res = await api('POST', '/bookmark', { link: `https://during.example/${i}` });
        if (res.status === 200) during.push(res.body.item._id);
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    const archive = path.join(work, 'backup.tar');
    const backup = await runCliAsync(['backup', '--out', archive, '--data', dataDir]);
    writing = false;
    await writer;
    expect(backup.status, backup.stderr).toBe(0);
    const summary = JSON.parse(backup.stdout);
    expect(summary.database.integrity).toBe('ok');
    expect(summary.files).toBeGreaterThanOrEqual(1);
    expect(during.length).toBeGreaterThan(0);

    // Restore into a new directory.
    const restored = path.join(work, 'restored');
    const restore = runCli(['restore', '--from', archive, '--data', restored]);
    expect(restore.status, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout).database.integrity).toBe('ok');

    const db = new Database(path.join(restored, 'tidemark.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set((db.prepare('SELECT id FROM bookmarks').all() as { id: number }[]).map((r) => r.id));
      for (const id of [...acknowledged, fileBookmark._id]) expect(ids.has(id), `bookmark ${id}`).toBe(true);
      // The copy is one moment: the bookmarks written during the backup are a prefix of them, with no gaps.
      const got = during.filter((id) => ids.has(id));
      expect(got).toEqual(during.slice(0, got.length));
    } finally {
      db.close();
    }
    // The files directory came along, byte for byte (nothing was uploaded during the backup).
    const filesOf = (root: string) =>
      fs
        .readdirSync(path.join(root, 'files'), { recursive: true })
        .map(String)
        .filter((f) => !f.startsWith('tmp') && fs.statSync(path.join(root, 'files', f)).isFile())
        .sort();
    const originals = filesOf(dataDir);
    expect(originals.length).toBeGreaterThan(0);
    expect(filesOf(restored)).toEqual(originals);
    for (const f of originals) expect(fs.readFileSync(path.join(restored, 'files', f)).equals(fs.readFileSync(path.join(dataDir, 'files', f)))).toBe(true);

    // The restored directory serves: the uploaded file answers with the same bytes.
    const second = await startServe(['--port', '0', '--data', restored]);
    try {
      const list = await fetch(`${second.url}/bookmarks/0?perpage=50`, { headers: { authorization: `Bearer ${token}` } });
      expect(list.status).toBe(200);
      const fileRes = await fetch(fileBookmark.link.startsWith('http') ? fileBookmark.link.replace(/^https?:\/\/[^/]+/, second.url.replace('/rest/v1', '')) : `${second.url}${fileBookmark.link}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(fileRes.status).toBe(200);
      expect(Buffer.from(await fileRes.arrayBuffer()).equals(PNG_1x1)).toBe(true);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('restore refuses a directory that is not empty, and a file that is not a backup', () => {
    const busy = path.join(work, 'busy');
    fs.mkdirSync(busy, { recursive: true });
    fs.writeFileSync(path.join(busy, 'something'), 'x');
    const res = runCli(['restore', '--from', path.join(work, 'backup.tar'), '--data', busy]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/is not empty/);
    expect(fs.readFileSync(path.join(busy, 'something'), 'utf8')).toBe('x');

    const junk = path.join(work, 'junk.tar');
    fs.writeFileSync(junk, Buffer.alloc(4096, 7));
    const bad = runCli(['restore', '--from', junk, '--data', path.join(work, 'fresh')]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/damaged|not a Tidemark backup/);
    expect(fs.readdirSync(path.join(work, 'fresh'))).toEqual([]);
  });

  it('refuses a PostgreSQL database and says to use pg_dump', () => {
    const res = runCli(['backup', '--out', path.join(work, 'pg.tar'), '--database', 'postgres://u@127.0.0.1/tidemark']);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/pg_dump/);
  });
});
