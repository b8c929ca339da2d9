// Starts the real service on a random loopback port with a fresh temporary data directory, and
// talks to it over HTTP. Used by every server test. The database is SQLite in that directory, or,
// with TIDEMARK_TEST_BACKEND=postgres, a fresh PostgreSQL database copied from the run's migrated
// template (tests/setup/postgres.ts), one per server, dropped when it closes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import type { Clock } from '../../server/clock.js';
import { defaultConfig, DEFAULT_TEXT_JOB_SETTINGS, type ServerConfig } from '../../server/config.js';
import type { Db } from '../../server/db/open.js';
import { openStore } from '../../server/db/open-store.js';
import type { PostgresStore } from '../../server/db/postgres-store.js';
import type { SqliteStore } from '../../server/db/sqlite-store.js';
import type { Store } from '../../server/db/store.js';
import { numberPlaceholders } from '../../server/repositories/postgres/search-sql.js';
import { hashPassword } from '../../server/services/passwords.js';
import { createTestDatabase, type TestPgDatabase } from './pg-database.js';
import { openServerLog } from './suite-log.js';

/** The backend server tests run on: TIDEMARK_TEST_BACKEND=postgres, or SQLite. */
export const TEST_BACKEND: 'sqlite' | 'postgres' = process.env.TIDEMARK_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
/** For `it.skipIf(onPostgres)` on the few tests about SQLite itself (say why in the test's name or a comment). */
export const onPostgres = TEST_BACKEND === 'postgres';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Status, headers and body of a fetch answer; the body parsed as JSON when it is JSON, else the text (undefined when empty). */
export async function readApiResponse<T = any>(res: Response): Promise<ApiResponse<T>> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

/** A clock tests can move forward. */
export class TestClock implements Clock {
  constructor(public t = Date.parse('2026-06-01T12:00:00Z')) {}
  now() {
    return this.t;
  }
  advance(ms: number) {
    this.t += ms;
  }
}

export interface TestServer {
  app: FastifyInstance;
  url: string;
  origin: string;
  dataDir: string;
  config: ServerConfig;
  /** Flags that point a CLI command (run as a process) at this server's database: `--data`, and `--database` on PostgreSQL. */
  cliArgs: string[];
  /** The SQLite connection, for the few tests about SQLite itself (throws on PostgreSQL: skip those with `onPostgres`). */
  readonly db: Db;
  /** The SQLite store, for the few tests about SQLite itself (throws on PostgreSQL). */
  readonly sqliteStore: SqliteStore;
  store: Store;
  /**
   * Runs one statement on whichever backend the server runs (`?` placeholders) and answers its rows,
   * for tests that check what is stored (a secret kept only hashed, rows gone) rather than what the
   * API shows, or set up what no API can (a user removed from the service).
   */
  sql<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T[]>;
  /** Calls `/rest/v1${path}` with JSON; `token` null sends no Authorization header. */
  api<T = any>(method: string, path: string, opts?: { token?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string }): Promise<ApiResponse<T>>;
  /** POSTs `body` to `/rest/v1${path}` and answers the created `item`; throws with the answer when it is not a 200. */
  createItem<T = any>(path: string, token: string, body: unknown): Promise<T>;
  /** Creates a user with a never-expiring test token. */
  createUser(email?: string, opts?: { password?: string; name?: string; pro?: boolean }): Promise<{ id: number; email: string; token: string }>;
  close(): Promise<void>;
}

let seq = 0;

/** Runs one statement on an open store of either backend (`?` placeholders) and answers its rows (see TestServer.sql). */
export async function runSql<T = Record<string, unknown>>(store: Store, query: string, ...params: unknown[]): Promise<T[]> {
  if (store.backend === 'sqlite') {
    const stmt = (store as SqliteStore).db.prepare(query);
    if (!stmt.reader) {
      stmt.run(...params);
      return [];
    }
    return stmt.all(...params) as T[];
  }
  return (await (store as PostgresStore).pool.query(numberPlaceholders(query), params)).rows as T[];
}

export async function startServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-test-'));
  // In a server lane the log is written as `serve` writes it, into the run's log (tests/setup/suite-log.ts).
  const suiteLog = openServerLog();
  const config = defaultConfig({
    port: 0,
    dataDir,
    logLevel: suiteLog ? 'info' : 'silent',
    logDestination: suiteLog?.destination,
    rateLimit: { perMinute: 100_000, smallPerMinute: 100_000 },
    // No web app build unless a test brings one (a build in the checkout would change where sign-in leads).
    webAppDir: path.join(dataDir, 'no-web-app-build'),
    // The text job would read every test bookmark's made-up address; tests of it turn it on.
    textJob: { ...DEFAULT_TEXT_JOB_SETTINGS, enabled: false },
    ...overrides,
  });
  // A database the caller names is used as given; otherwise the run's backend decides.
  let database: TestPgDatabase | undefined;
  if (overrides.databaseUrl === undefined) {
    database = onPostgres ? await createTestDatabase() : undefined;
    config.databaseUrl = database?.url;
  }
  const store = await openStore(config);
  const app = await buildApp(config, store);
  suiteLog?.attach(app);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = address;
  const url = `${origin}/rest/v1`;

  const api: TestServer['api'] = async (method, p, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    return readApiResponse(await fetch(url + p, { method, headers, body }));
  };

  const createItem: TestServer['createItem'] = async (p, token, body) => {
    const res = await api('POST', p, { token, body });
    if (res.status !== 200) throw new Error(`POST ${p} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.item;
  };

  const createUser: TestServer['createUser'] = async (email, opts = {}) => {
    const addr = email ?? `user${++seq}-${process.pid}@example.test`;
    const row = await app.repos.users.create({
      email: addr,
      passwordHash: opts.password ? await hashPassword(opts.password, config.passwordHashCost) : null,
      fullName: opts.name ?? 'Test User',
      pro: opts.pro,
    });
    const { token } = await app.repos.tokens.create({ userId: row.id, kind: 'test' });
    return { id: row.id, email: addr, token };
  };

  const sqliteStore = (): SqliteStore => {
    if (store.backend !== 'sqlite') throw new Error('This test reads SQLite itself: skip it on PostgreSQL (it.skipIf(onPostgres)) or use sql()/the API.');
    return store as SqliteStore;
  };
  const sql: TestServer['sql'] = (query, ...params) => runSql(store, query, ...params);

  return {
    app,
    url,
    origin,
    dataDir,
    config,
    cliArgs: config.databaseUrl ? ['--data', dataDir, '--database', config.databaseUrl] : ['--data', dataDir],
    get db() {
      return sqliteStore().db;
    },
    get sqliteStore() {
      return sqliteStore();
    },
    store,
    sql,
    api,
    createItem,
    createUser,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
