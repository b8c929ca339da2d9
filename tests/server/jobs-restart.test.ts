import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { defaultConfig } from '../../server/config.js';
import { openStore } from '../../server/db/open-store.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';
import { createTestDatabase, type TestPgDatabase } from '../helpers/pg-database.js';
import { onPostgres, runSql } from '../helpers/server.js';
import { until } from '../helpers/until.js';

// Jobs are rows: stopping the service mid-queue loses nothing, and a new process on the same
// database finishes the work. Built by hand (not startServer) so two apps share one database (one
// data directory on SQLite; one PostgreSQL database on the PostgreSQL run).

const html = { 'content-type': 'text/html; charset=utf-8' };
const PAGE = `<html><head><title>Harbour log</title><meta name="description" content="Arrivals and departures."></head><body>x</body></html>`;

let pages: PageServer;
let dataDir: string;
let database: TestPgDatabase | undefined;
const held: ServerResponse[] = [];
let holding = true;

beforeAll(async () => {
  pages = await startPageServer({
    '/log-1': (_req, res) => {
      if (holding) held.push(res);
      else res.writeHead(200, html).end(PAGE);
    },
    '/log-2': respond(200, html, PAGE),
    '/log-3': respond(200, html, PAGE),
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-jobs-restart-'));
  if (onPostgres) database = await createTestDatabase();
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await pages?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();
});

async function startApp(): Promise<{ app: FastifyInstance; url: string }> {
  const config = defaultConfig({
    port: 0,
    dataDir,
    databaseUrl: database?.url,
    logLevel: 'silent',
    allowPrivateNetwork: true,
    jobs: { ...defaultConfig().jobs, pollMs: 20, concurrency: 1 },
  });
  const app = await buildApp(config, await openStore(config));
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `${origin}/rest/v1` };
}


describe('the job queue survives a restart', () => {
  it('stopped mid-queue (one job running, two waiting), a new process on the same data directory completes them all', async () => {
    const first = await startApp();
    const user = await first.app.repos.users.create({ email: 'restart@example.test', passwordHash: null });
    const { token } = await first.app.repos.tokens.create({ userId: user.id, kind: 'test' });
    const call = (base: string, method: string, p: string, body?: unknown) =>
      fetch(base + p, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.json());

    const created = await call(first.url, 'POST', '/bookmarks', {
      items: [1, 2, 3].map((n) => ({ link: `${pages.origin}/log-${n}`, pleaseParse: {} })),
    });
    const ids: number[] = created.items.map((i: { _id: number }) => i._id);
    // The first job is now stuck reading /log-1; the other two wait behind it (concurrency 1).
    await until(() => held.length > 0);
    await first.app.close();

    // Nothing was lost or half-done: all three are queued again, the interrupted one uncounted.
    const store = await openStore({ dataDir, databaseUrl: database?.url, clock: { now: () => Date.now() } });
    const rows = await store.repos.jobs.list();
    await store.close();
    expect(rows.map((j) => [JSON.parse(j.payload).bookmarkId, j.state, j.attempts])).toEqual(ids.map((id) => [id, 'queued', 0]));

    holding = false;
    const second = await startApp();
    try {
      for (const id of ids) {
        await until(async () => (await call(second.url, 'GET', `/bookmark/${id}`)).item.excerpt === 'Arrivals and departures.');
      }
      const after = await second.app.repos.jobs.list();
      expect(after.map((j) => j.state)).toEqual(['done', 'done', 'done']);
    } finally {
      await second.app.close();
    }
  });

  it('a job left running by a process that died is taken up again once its lease runs out', async () => {
    const app = await startApp();
    try {
      const jobs = app.app.repos.jobs;
      const user = await app.app.repos.users.create({ email: 'crashed@example.test', passwordHash: null });
      const { token } = await app.app.repos.tokens.create({ userId: user.id, kind: 'test' });
      // Written directly, as a crashed process would leave it: running, lease already expired.
      const id = await app.app.repos.bookmarks.create([
        {
          ownerId: user.id, creatorId: user.id, collectionId: -1, link: `${pages.origin}/log-2`, linkKey: 'x', domain: '127.0.0.1',
          title: `${pages.origin}/log-2`, excerpt: '', note: '', type: 'link', cover: '', media: [], tags: [], important: false, highlights: [],
        },
      ]);
      await runSql(
        app.app.store,
        `INSERT INTO jobs (kind, payload, state, attempts, next_run_at, locked_until, created_at)
         VALUES ('page', ?, 'running', 1, 0, ?, 0)`,
        JSON.stringify({ bookmarkId: id[0], parse: true, on: 'create' }),
        Date.now() - 1,
      );
      const res = await until(async () => {
        const body = await fetch(`${app.url}/bookmark/${id[0]}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
        return body.item.excerpt === 'Arrivals and departures.' ? body : undefined;
      });
      expect(res.item.title).toBe('Harbour log');
      const job = (await jobs.list()).find((j) => JSON.parse(j.payload).bookmarkId === id[0])!;
      expect(job).toMatchObject({ state: 'done', attempts: 2 });
    } finally {
      await app.app.close();
    }
  });
});
