// PostgreSQL going away: at start, `serve` names the server and what to check and exits non-zero;
// during operation, requests answer 503 with the error envelope, and the same process serves again
// once the database is back, without a restart. Runs its own cluster, stopped and started by the test.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPool } from '../../server/db/postgres/pool.js';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.js';
import { runCliAsync } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';

let cluster: PgCluster;
let s: TestServer;

beforeAll(async () => {
  cluster = await startPgCluster();
  const admin = await connectPool(cluster.url(), { max: 1 });
  await admin.query('CREATE DATABASE outage');
  await admin.end();
  s = await startServer({ databaseUrl: cluster.url('outage') }); // migrates on start
}, 120_000);

afterAll(async () => {
  await s?.close();
  cluster?.stop();
});

it('answers 503 with the envelope while the database is down and recovers by itself when it is back', async () => {
  const u = await s.createUser();
  expect((await s.api('GET', '/user', { token: u.token })).status).toBe(200);

  cluster.pause();
  try {
    for (const [method, path, body] of [
      ['GET', '/user', undefined],
      ['POST', '/collection', { title: 'During the outage' }],
    ] as const) {
      const res = await s.api(method, path, { token: u.token, body });
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(res.body).toMatchObject({ result: false, status: 503 });
      expect(res.body.errorMessage).toMatch(/database is not reachable.*Try again/);
      expect(res.headers.get('retry-after')).toBe('5');
    }
  } finally {
    cluster.resume();
  }

  // The same process, no restart: the pool opens new connections on the next requests.
  await until(async () => (await s.api('GET', '/user', { token: u.token })).status === 200, 15_000);
  const user = await s.api('GET', '/user', { token: u.token });
  expect(user.body.user.email).toBe(u.email);
  const token = await s.app.repos.tokens.create({ userId: u.id, kind: 'test' });
  expect((await s.api('GET', '/user', { token: token.token })).status).toBe(200);
}, 120_000);

it('serve refuses to start on an unreachable database, naming the server and what to check', async () => {
  const res = await runCliAsync(['serve', '--port', '0', '--database', 'postgres://tidemark@127.0.0.1:1/tidemark']);
  expect(res.status).not.toBe(0);
  expect(res.stdout).not.toMatch(/listening/);
  expect(res.stderr.trim()).toBe(
    'Cannot connect to PostgreSQL at tidemark@127.0.0.1:1/tidemark: nothing is listening there. Check that PostgreSQL is running, and the host and port in the URL.',
  );
  const wrong = await runCliAsync(['serve', '--port', '0', '--database', 'mysql://x@y/z']);
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toMatch(/must be a PostgreSQL URL such as postgres:\/\//);
}, 60_000);
