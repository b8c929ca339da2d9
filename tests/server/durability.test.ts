import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_FILE } from '../../server/db/open.js';
import { runCli, startServe } from '../helpers/process.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-durability-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('durability', () => {
  it('keeps every acknowledged write when the server is killed with SIGKILL mid-way', async () => {
    expect(runCli(['user:create', '--email', 'd@example.test', '--password', 'longenough', '--data', dataDir]).status).toBe(0);
    const { access_token: token } = JSON.parse(runCli(['token:create', '--email', 'd@example.test', '--data', dataDir]).stdout);
    const serve = await startServe(['--port', '0', '--data', dataDir, '--rate-limit', '1000000']);

    const acknowledged: { id: number; link: string }[] = [];
    let killed = false;
    let n = 0;
    const writer = async () => {
      while (!killed && n < 5000) {
        const i = n++;
        const link = `https://example.com/article/${i}`;
        try {
          const res = await fetch(`${serve.url}/bookmark`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ link, title: `Article ${i}`, tags: ['durable', `t${i % 7}`] }),
          });
          if (res.status === 200) acknowledged.push({ id: (await res.json()).item._id, link });
        } catch {
          // Connection reset by the kill: this write was never acknowledged.
        }
        if (acknowledged.length >= 400 && !killed) {
          killed = true;
          serve.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 24 }, writer));
    await serve.exited;
    expect(killed).toBe(true);
    // The server process itself is gone, not just a launcher in front of it.
    await expect(fetch(`${serve.url}/user`, { headers: { authorization: `Bearer ${token}` } })).rejects.toThrow();
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);

    const db = new Database(path.join(dataDir, DB_FILE), { readonly: false });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Map(
        (db.prepare('SELECT id, link FROM bookmarks').all() as { id: number; link: string }[]).map((r) => [r.id, r.link]),
      );
      const missing = acknowledged.filter((a) => stored.get(a.id) !== a.link);
      expect(missing).toEqual([]);
    } finally {
      db.close();
    }

    // The restarted server serves them, full-text index included.
    const again = await startServe(['--port', '0', '--data', dataDir]);
    try {
      const sample = acknowledged[acknowledged.length - 1];
      const one = await fetch(`${again.url}/bookmark/${sample.id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(one.status).toBe(200);
      expect((await one.json()).item.link).toBe(sample.link);
      const list = await fetch(`${again.url}/bookmarks/0?search=${encodeURIComponent('#durable')}&perpage=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect((await list.json()).count).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  }, 120_000);
});
