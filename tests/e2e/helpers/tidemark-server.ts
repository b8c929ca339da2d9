// The real Tidemark server for browser tests: on a fixed loopback port and data directory, so it
// can be stopped and started again at the same address (the offline-queue test). The port lies below
// the kernel's ephemeral range (tests/helpers/ports.ts), so no other process is handed it while the
// server is down. The extension reaches it as http://localhost:<port> (its built-in host permission).
import fs from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { defaultConfig } from '../../../server/config.js';
import { openSqliteStore } from '../../../server/db/sqlite-store.js';
import { ensureExtensionClient } from '../../../server/services/oauth/extension-client.js';
import { hashPassword } from '../../../server/services/passwords.js';
import { CHROME_REDIRECT_URL, FIREFOX_REDIRECT_URL } from '../../../lib/api/extension-identity.js';
import { stablePort } from '../../helpers/ports.js';

export class TidemarkServer {
  app: FastifyInstance | null = null;
  /** Every API request the server received (method and path), oldest first. */
  readonly requests: string[] = [];
  /** When each API request arrived and finished (epoch ms), for the benchmarks. */
  readonly timings: { route: string; startedAt: number; finishedAt: number }[] = [];
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-e2e-'));

  private constructor(
    readonly port: number,
    /** The web app build it serves at / (tests/e2e/helpers/web-build.ts); none when not given. */
    readonly webAppDir?: string,
  ) {}

  static async start(opts: { webAppDir?: string } = {}): Promise<TidemarkServer> {
    const s = new TidemarkServer(await stablePort(), opts.webAppDir);
    await s.start();
    return s;
  }

  /** What the extension is told: the server's origin. */
  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    const config = defaultConfig({
      port: this.port,
      dataDir: this.dataDir,
      logLevel: 'silent',
      rateLimit: { perMinute: 100_000, smallPerMinute: 100_000 },
      webAppDir: this.webAppDir ?? path.join(this.dataDir, 'no-web-app-build'),
    });
    const app = await buildApp(config, openSqliteStore(this.dataDir, config.clock));
    await ensureExtensionClient(app.repos, { name: 'Tidemark for Chrome and Firefox', redirectUri: CHROME_REDIRECT_URL, redirectUris: [FIREFOX_REDIRECT_URL] });
    app.addHook('onRequest', async (request) => {
      if (request.url.startsWith('/rest/v1/')) this.requests.push(`${request.method} ${request.url.split('?')[0]}`);
    });
    const arrived = new WeakMap<object, number>();
    app.addHook('onRequest', async (request) => {
      arrived.set(request, Date.now());
    });
    app.addHook('onResponse', async (request) => {
      if (request.url.startsWith('/rest/v1/')) {
        const finishedAt = Date.now();
        this.timings.push({ route: `${request.method} ${request.url.split('?')[0]}`, startedAt: arrived.get(request) ?? finishedAt, finishedAt });
      }
    });
    // Runs after the app's own preClose hooks (the job runner's stop first): when a stop is slow, says which part.
    app.addHook('preClose', async () => {
      this.preClosedAt = Date.now();
    });
    app.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await app.listen({ port: this.port, host: '127.0.0.1' });
    this.app = app;
  }

  /** The server's open connections (what a slow stop waits for). */
  private readonly sockets = new Set<Socket>();
  /** When the app's preClose hooks (background jobs stopped) were done, in the current stop. */
  private preClosedAt = 0;

  async stop(): Promise<void> {
    const app = this.app;
    if (!app) return;
    const started = Date.now();
    this.preClosedAt = 0;
    // A stop that takes long says what it waits for (printed at once: the test's time limit may come first).
    const report = () => {
      const open = [...this.sockets].map((s) => {
        const req = (s as Socket & { _httpMessage?: { req?: { method?: string; url?: string }; finished?: boolean } })._httpMessage;
        return `:${s.remotePort} read ${s.bytesRead} B written ${s.bytesWritten} B${req ? ` answering ${req.req?.method} ${req.req?.url}${req.finished ? ' (finished)' : ''}` : ' (no request)'}`;
      });
      console.error(`[server stop ${new Date().toISOString()}] still closing after ${Date.now() - started} ms; ${this.preClosedAt ? `background jobs stopped after ${this.preClosedAt - started} ms` : 'background jobs not stopped yet'}; listening ${app.server.listening}; ${open.length} connections open${open.length ? `: ${open.join(', ')}` : ''}`);
    };
    const timers = [2000, 10_000, 30_000].map((ms) => setTimeout(report, ms));
    try {
      await app.close();
    } finally {
      timers.forEach(clearTimeout);
      const took = Date.now() - started;
      if (took > 2000) console.error(`[server stop ${new Date().toISOString()}] took ${took} ms`);
    }
    this.app = null;
  }

  async close(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  private get repos() {
    if (!this.app) throw new Error('The server is stopped.');
    return this.app.repos;
  }

  /** A user with a test token; `pro` gives them the paid plan (permanent copies). */
  async createUser(email: string, password: string, name = 'Test Reader', opts: { pro?: boolean } = {}): Promise<{ id: number; token: string }> {
    const row = await this.repos.users.create({ email, passwordHash: await hashPassword(password, this.app!.config.passwordHashCost), fullName: name, pro: opts.pro });
    const { token } = await this.repos.tokens.create({ userId: row.id, kind: 'test' });
    return { id: row.id, token };
  }

  /** Calls the API over HTTP, as any client would. */
  async api<T = any>(method: string, p: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`http://127.0.0.1:${this.port}/rest/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
}
