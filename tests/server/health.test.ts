// GET /health and GET /ready: what a load balancer or an uptime check asks. /health answers while the
// process runs; /ready only while the database answers and is migrated. Both backends: the run's
// server (SQLite) and a PostgreSQL cluster of this file's own, stopped and started by the test.
// Runs on every `npm test`; left out of the PostgreSQL lane (vitest.postgres.config.ts) for its own cluster.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPool } from '../../server/db/postgres/pool.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';

const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };

async function get(s: TestServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.origin}${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** Nothing but a version number: no paths, host names, addresses or other software's versions. */
function expectNothingRevealed(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\/(tmp|home|root|usr|var)\b|[A-Z]:\\|127\.0\.0\.1|localhost|postgres(ql)?:\/\/|node|fastify|sqlite|PostgreSQL \d/i);
}

/** With the newest migration's row gone, /ready answers 503 naming both versions, /health still 200; ready again once it is back. */
async function expectReadyAfterMigration(s: TestServer) {
  const [{ version }] = await s.sql<{ version: number }>('SELECT max(version) AS version FROM schema_migrations');
  const [row] = await s.sql<{ name: string; applied_at: string }>('SELECT name, applied_at FROM schema_migrations WHERE version = ?', version);
  await s.sql('DELETE FROM schema_migrations WHERE version = ?', version);
  try {
    const ready = await get(s, '/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(ready.body).toEqual({
      result: false,
      errorMessage: `Not ready: database migrations are not applied yet (schema version ${version - 1}, this server needs ${version}).`,
    });
    expect((await get(s, '/health')).status).toBe(200);
  } finally {
    await s.sql('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', version, row!.name, row!.applied_at);
  }
  expect((await get(s, '/ready')).status).toBe(200);
}

describe('SQLite', () => {
  let s: TestServer;
  beforeAll(async () => {
    // A tiny allowance, so a probe that counted would show.
    s = await startServer({ rateLimit: { perMinute: 3, smallPerMinute: 2 } });
  });
  afterAll(async () => s?.close());

  it('answers /health and /ready without a token, unmetered, with only the version', async () => {
    for (let i = 0; i < 8; i++) {
      const health = await get(s, '/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ result: true, status: 'ok', version: pkg.version });
      expect(health.headers.get('x-ratelimit-remaining')).toBeNull();
      const ready = await get(s, '/ready', { authorization: 'Bearer not-a-token' });
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ result: true, status: 'ready', version: pkg.version });
      expectNothingRevealed(ready.body);
    }
    // Sixteen probes later, an anonymous caller still has its whole allowance.
    const page = await fetch(`${s.origin}/rest/v1/openapi.json`);
    expect(page.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('answers 503 with the reason while a migration is missing, 200 again once it is applied', () => expectReadyAfterMigration(s));

  it('lists both in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${s.origin}/rest/v1/openapi.json`)).json()) as { paths: Record<string, { get?: { responses: object } }> };
    expect(Object.keys(doc.paths['/health']!.get!.responses)).toEqual(['200']);
    expect(Object.keys(doc.paths['/ready']!.get!.responses).sort()).toEqual(['200', '503']);
  });
});

describe('PostgreSQL', () => {
  let cluster: PgCluster;
  let s: TestServer;
  beforeAll(async () => {
    cluster = await startPgCluster();
    const admin = await connectPool(cluster.url(), { max: 1 });
    await admin.query('CREATE DATABASE probes');
    await admin.end();
    s = await startServer({ databaseUrl: cluster.url('probes') });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    cluster?.stop();
  });

  it('is ready while PostgreSQL runs, answers 503 naming the reason while it is stopped, and ready again after', async () => {
    expect((await get(s, '/ready')).body).toEqual({ result: true, status: 'ready', version: pkg.version });

    cluster.pause();
    try {
      const ready = await get(s, '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ result: false, errorMessage: 'Not ready: the database does not answer.' });
      expectNothingRevealed(ready.body);
      // The process itself is fine: a restart would not help, so liveness stays 200.
      expect((await get(s, '/health')).status).toBe(200);
    } finally {
      cluster.resume();
    }
    await until(async () => (await get(s, '/ready')).status === 200, 15_000);
  }, 60_000);

  it('answers 503 with the reason while a migration is missing, 200 again once it is applied', () => expectReadyAfterMigration(s));
});
