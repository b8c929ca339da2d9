// Two `serve` processes behind a round-robin balancer, as a deployment with several stateless
// instances runs: every request may land on either instance, and what one instance did must hold
// on the other. PostgreSQL is the backend made for this; SQLite (two processes on one data
// directory) runs the parts whose state SQLite keeps in the shared database file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { createTestDatabase, type TestPgDatabase } from '../helpers/pg-database.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { readApiResponse } from '../helpers/server.js';
import { authorizeAs, authorizeUrl, WebClient, type WebResponse } from '../helpers/web-client.js';
import { joinLinkIn, lastMailTo } from './sharing-mail.js';

interface Backend {
  name: string;
  /** A fresh PostgreSQL database, or undefined for SQLite. */
  database?: () => Promise<TestPgDatabase>;
  /** Rate limits and sign-in throttling are kept in the database (not per process). */
  sharedState: boolean;
  /** Files in an S3 bucket (s3rver) instead of a shared directory. */
  s3: boolean;
}

// Each variant costs two server starts and about 45 s, so the S3 bucket is used with the backend
// made for several instances (PostgreSQL), and SQLite shares a files directory.
const backends: Backend[] = [
  { name: 'PostgreSQL, S3 bucket', database: () => createTestDatabase(), sharedState: true, s3: true },
  { name: 'SQLite, one data directory, shared files directory', sharedState: false, s3: false },
];

describe.each(backends)('two instances behind one address ($name)', (backend) => {
  let c: Cluster;
  let s3: TestS3 | undefined;
  let pg: TestPgDatabase | undefined;
  const servedBy = (res: { headers: Headers }) => Number(res.headers.get('x-served-by'));

  async function api(method: string, path: string, token: string | null, body?: unknown, base?: string) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base ?? c.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return readApiResponse(res);
  }
  /** The API of instance `i` itself, not through the balancer. */
  const direct = (i: number) => c.instances[i]!.url;

  /** Polls `check` on instance `i` until it holds; answers the milliseconds it took. */
  async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
    const start = Date.now();
    for (;;) {
      if (await check()) return Date.now() - start;
      if (Date.now() - start > ms * 3) throw new Error(`still not true after ${Date.now() - start} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  beforeAll(async () => {
    if (backend.s3) s3 = await startS3();
    pg = await backend.database?.();
    c = await startCluster({ database: pg?.url, rateLimit: 120, env: s3?.env });
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await s3?.close();
    await pg?.drop();
  });

  it('the sharing flow works whichever instance takes each step, and changes reach both instances within 1 s', async () => {
    const [owner, member] = await Promise.all([c.createUser('owner@two.test'), c.createUser('member@two.test')]);
    const memberId = (await api('GET', '/user', member.token)).body.user._id as number;
    const collection = (await api('POST', '/collection', owner.token, { title: 'Harbour charts' })).body.item._id as number;
    const invited = await api('POST', `/collection/${collection}/sharing`, owner.token, { role: 'member', emails: [member.email] });
    expect(invited.status).toBe(200);

    const mail = c.dataDirs.map((dir) => { try { return lastMailTo(dir, member.email); } catch { return undefined; } }).find(Boolean);
    expect(mail).toBeDefined();
    const link = joinLinkIn(mail!.text);
    expect(link.url.startsWith(`${c.origin}/join?`)).toBe(true); // the public address, not an instance's own
    const joined = await api('POST', `/collection/${collection}/join`, member.token, { token: link.token });
    expect(joined.status).toBe(200);

    // Both instances list the shared collection for the member.
    for (const i of [0, 1]) {
      const list = await api('GET', '/collections', member.token, undefined, direct(i));
      expect(list.body.items.map((x: { _id: number }) => x._id)).toContain(collection);
    }
    const saved = await api('POST', '/bookmark', member.token, { link: 'https://example.com/tide-tables', collectionId: collection });
    expect(saved.status).toBe(200);
    for (const i of [0, 1]) {
      const seen = await api('GET', `/bookmarks/${collection}`, owner.token, undefined, direct(i));
      expect(seen.body.items.map((b: { _id: number }) => b._id)).toContain(saved.body.item._id);
    }

    // The owner makes the member a viewer on one instance: the other refuses the member's writes within 1 s.
    const demoted = await api('PUT', `/collection/${collection}/sharing/${memberId}`, owner.token, { role: 'viewer' });
    expect(demoted.status).toBe(200);
    const other = 1 - servedBy(demoted);
    const writeRefused = await within(1000, async () => {
      const res = await api('PUT', `/bookmark/${saved.body.item._id}`, member.token, { title: 'Renamed by a viewer' }, direct(other));
      return res.status === 403;
    });
    expect(writeRefused).toBeLessThanOrEqual(1000);

    // Removed on one instance: the other shows the member nothing of the collection within 1 s.
    const removed = await api('DELETE', `/collection/${collection}/sharing/${memberId}`, owner.token);
    expect(removed.status).toBe(200);
    const gone = await within(1000, async () => (await api('GET', `/collection/${collection}`, member.token, undefined, direct(1 - servedBy(removed)))).status === 403);
    expect(gone).toBeLessThanOrEqual(1000);
  });

  it('a bookmark moved on one instance is seen moved on the other within 1 s (both have read it before)', async () => {
    const owner = await c.createUser('mover@two.test');
    const [from, to] = await Promise.all(
      ['Inbox', 'Archive'].map(async (title) => (await api('POST', '/collection', owner.token, { title }, direct(0))).body.item._id as number),
    );
    const saved = await api('POST', '/bookmark', owner.token, { link: 'https://example.com/moving-tides', collectionId: from }, direct(0));
    expect(saved.status).toBe(200);
    const id = saved.body.item._id as number;
    for (const i of [0, 1]) expect((await api('GET', `/bookmark/${id}`, owner.token, undefined, direct(i))).body.item.collectionId).toBe(from);

    const moved = await api('PUT', `/bookmark/${id}`, owner.token, { collection: { $id: to } }, direct(0));
    expect(moved.status).toBe(200);
    // The instance that moved it answers with the move at once; the other within 1 s.
    expect((await api('GET', `/bookmark/${id}`, owner.token, undefined, direct(0))).body.item.collectionId).toBe(to);
    const took = await within(1000, async () => (await api('GET', `/bookmark/${id}`, owner.token, undefined, direct(1))).body.item.collectionId === to);
    expect(took).toBeLessThanOrEqual(1000);
  });

  it('files uploaded through one instance are served by the other (one shared files directory or bucket)', async () => {
    const user = await c.createUser('files@two.test');
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\nshared across instances\n%%EOF\n')]), 'tides.pdf');
    const up = await readApiResponse(await fetch(`${c.url}/bookmark/file`, { method: 'PUT', headers: { authorization: `Bearer ${user.token}` }, body: form }));
    expect(up.status).toBe(200);
    const link = new URL(up.body.item.link as string);
    expect(link.origin).toBe(c.origin);
    for (const i of [0, 1]) {
      const res = await fetch(`${new URL(direct(i)).origin}${link.pathname}`, { headers: { authorization: `Bearer ${user.token}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('shared across instances');
    }
    const id = /\/files\/([0-9a-f]{32})\//.exec(link.pathname)![1];
    const key = `uploads/${id.slice(0, 2)}/${id}`;
    if (s3) expect(await s3.has(key)).toBe(true);
    else expect(fs.existsSync(path.join(c.filesDir, key))).toBe(true);
  });

  const REDIRECT = 'https://app.example/callback';
  let registered: Promise<{ client_id: string; client_secret: string }> | undefined;
  /** One OAuth application for the tests below, registered with app:create. */
  const oauthApp = () =>
    (registered ??= (async () => {
      const dev = await c.createUser('dev@two.test');
      const made = await c.cli(['app:create', '--email', dev.email, '--name', 'Tide Reader', '--redirect', REDIRECT]);
      if (made.status !== 0) throw new Error(`app:create failed: ${made.stderr}`);
      return JSON.parse(made.stdout) as { client_id: string; client_secret: string };
    })());

  /** Exchanges a code at `origin`'s token endpoint. */
  async function exchange(origin: string, app: { client_id: string; client_secret: string }, code: string | null) {
    const res = await fetch(`${origin}/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT }),
    });
    return readApiResponse(res);
  }

  it('an OAuth authorize, consent and code exchange whose steps alternate instances gives a working token', async () => {
    const app = await oauthApp();
    const browser = new WebClient(c.origin);
    const steps: WebResponse[] = [];
    const step = (res: WebResponse) => (steps.push(res), res);
    step(await browser.get('/signup'));
    expect(step(await browser.post('/signup', { name: 'Reader', email: 'reader@two.test', password: 'a-long-password', next: '/account' })).status).toBe(303);
    const consent = step(await browser.get(authorizeUrl({ client_id: app.client_id, redirect_uri: REDIRECT, state: 'st-1' })));
    expect(consent.status).toBe(200);
    const answer = step(await browser.post('/oauth/authorize', { decision: 'allow', client_id: browser.hidden('client_id')!, redirect_uri: browser.hidden('redirect_uri')!, state: browser.hidden('state')! }));
    expect(answer.status).toBe(303);
    const handoff = step(await browser.get(answer.location!));
    expect(handoff.status).toBe(307);
    const code = new URL(handoff.location!).searchParams.get('code');
    expect(new URL(handoff.location!).searchParams.get('state')).toBe('st-1');
    const token = await exchange(c.origin, app, code);
    expect(token.status).toBe(200);
    // Every step landed on the other instance than the step before it.
    const order = [...steps.map(servedBy), servedBy(token)];
    for (let k = 1; k < order.length; k++) expect(order[k]).not.toBe(order[k - 1]);

    const me = await api('GET', '/user', token.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('reader@two.test');
  });

  it('an OAuth token revoked on one instance is refused by the other within 1 s', async () => {
    const app = await oauthApp();
    // The whole authorization on instance 0 (this test is about the revocation, not the walk).
    const browser = new WebClient(new URL(direct(0)).origin);
    expect((await browser.signUp('revoker@two.test', 'a-long-password')).status).toBe(303);
    const redirect = await authorizeAs(browser, { client_id: app.client_id, redirect_uri: REDIRECT });
    const token = await exchange(browser.origin, app, redirect.searchParams.get('code'));
    expect(token.status).toBe(200);
    const access = token.body.access_token as string;
    // Both instances have used (and may have cached) the token.
    for (const i of [0, 1]) expect((await api('GET', '/user', access, undefined, direct(i))).status).toBe(200);

    await browser.get('/apps');
    const revoked = await browser.post(`/apps/authorized/${encodeURIComponent(app.client_id)}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect((await api('GET', '/user', access, undefined, direct(0))).status).toBe(401);
    const took = await within(1000, async () => (await api('GET', '/user', access, undefined, direct(1))).status === 401);
    expect(took).toBeLessThanOrEqual(1000);
  });

  it.skipIf(!backend.sharedState)('121 requests of one user spread over both instances: the 121st is refused (120 a minute in all)', async () => {
    const user = await c.createUser('limit@two.test');
    const counts = [0, 0];
    for (let k = 0; k < 120; k++) {
      const res = await api('GET', '/user', user.token);
      expect(res.status).toBe(200);
      counts[servedBy(res)]++;
    }
    expect(counts[0]).toBeGreaterThanOrEqual(50);
    expect(counts[1]).toBeGreaterThanOrEqual(50);
    const last = await api('GET', '/user', user.token);
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({ result: false, status: 429, errorMessage: expect.stringMatching(/120 a minute/) });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('kill -9 of one instance during concurrent writes: every acknowledged write is there afterwards, on both instances', async () => {
    const writer = await c.createUser('writer@two.test');
    const acknowledged = new Map<number, string>();
    let requests = 0;
    let acknowledgedRequests = 0;
    let killed: Promise<void> | null = null;
    // 8 connections posting batches of 10 (the user's 120 requests a minute allow about 100 batches).
    const loop = async (w: number) => {
      while (requests < 96) {
        const n = requests++;
        const items = Array.from({ length: 10 }, (_, k) => ({ link: `https://example.com/kill/${w}/${n}/${k}`, title: `Write ${n}.${k}` }));
        try {
          const res = await fetch(`${c.url}/bookmarks`, {
            method: 'POST',
            headers: { authorization: `Bearer ${writer.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ items }),
          });
          if (res.status === 200) {
            const body = (await res.json()) as { items: { _id: number; link: string }[] };
            for (const item of body.items) acknowledged.set(item._id, item.link);
            acknowledgedRequests++;
          } else {
            await res.arrayBuffer(); // 502 from the balancer: that instance died mid-request, not acknowledged
          }
        } catch {
          // the connection broke: not acknowledged
        }
        if (acknowledgedRequests >= 30 && !killed) killed = c.kill(1);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => loop(w)));
    await killed;
    expect(killed).not.toBeNull();
    expect(acknowledged.size).toBeGreaterThanOrEqual(500);

    const stored = async (base: string) => {
      const res = await api('GET', '/links', writer.token, undefined, base);
      expect(res.status).toBe(200);
      return new Set((res.body.items as [number, string, number][]).map(([id]) => id));
    };
    const onSurvivor = await stored(direct(0));
    expect([...acknowledged.keys()].filter((id) => !onSurvivor.has(id))).toEqual([]);
    await c.restart(1);
    const onRestarted = await stored(direct(1));
    expect([...acknowledged.keys()].filter((id) => !onRestarted.has(id))).toEqual([]);
    const sample = [...acknowledged][acknowledged.size - 1];
    const one = await api('GET', `/bookmark/${sample[0]}`, writer.token, undefined, direct(1));
    expect(one.body.item.link).toBe(sample[1]);
  }, 120_000);
});
