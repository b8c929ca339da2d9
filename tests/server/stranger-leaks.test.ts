import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { getRaw } from './upload-client.js';

// What a hostile user could learn or break from outside their own account (issue "strangers learn
// nothing"): the /links cursor, upload links built from the Host header, the rate-limit page,
// CSV formulas behind whitespace, the docs page's framing, PDFs without a sandbox, and the log.

let s: TestServer;
let ann: { id: number; token: string };
let bob: { id: number; token: string };

beforeAll(async () => {
  s = await startServer();
  ann = await s.createUser();
  bob = await s.createUser();
});
afterAll(async () => s?.close());

/** Sends a multipart upload over node:http, so the Host header can be set to anything. */
async function uploadWithHost(path: string, host: string, form: FormData, token: string): Promise<{ status: number; body: any }> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(s.url + path);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'PUT', headers: { host, authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the /links cursor', () => {
  it('does not move when somebody else saves', async () => {
    await s.createItem('/bookmark', ann.token, { link: 'https://ann.example/one' });
    const first = (await s.api('GET', '/links', { token: ann.token })).body.cursor;
    const since = (await s.api('GET', `/links?since=${first}`, { token: ann.token })).body.cursor;
    for (let i = 0; i < 3; i++) await s.createItem('/bookmark', bob.token, { link: `https://bob.example/${i}` });
    expect((await s.api('GET', '/links', { token: ann.token })).body.cursor).toBe(first);
    expect((await s.api('GET', `/links?since=${since}`, { token: ann.token })).body).toMatchObject({ cursor: since, items: [], removed: [] });
    // Ann's own save moves it, and is reported.
    const id = (await s.createItem('/bookmark', ann.token, { link: 'https://ann.example/two' }))._id;
    const after = (await s.api('GET', `/links?since=${since}`, { token: ann.token })).body;
    expect(after.cursor).not.toBe(since);
    expect(after.items.map((entry: unknown[]) => entry[0])).toEqual([id]);
  });

  it('says nothing about how much others changed between two of your own saves', async () => {
    const dora = await s.createUser();
    const cursorAfterSave = async (n: number) => {
      await s.createItem('/bookmark', dora.token, { link: `https://dora.example/${n}` });
      return (await s.api('GET', '/links', { token: dora.token })).body.cursor as number;
    };
    const before = await cursorAfterSave(1);
    const others = 40;
    await s.api('POST', '/bookmarks', { token: bob.token, body: { items: Array.from({ length: others }, (_, i) => ({ link: `https://bob.example/bulk/${i}` })) } });
    const after = await cursorAfterSave(2);
    // A number from the sequence every account shares would have jumped by others + 1.
    expect(after - before).not.toBe(others + 1);
    expect(Math.abs(after - before)).toBeGreaterThan(2 ** 20);
    // Nor can a made-up number probe that sequence: what is not a cursor of hers starts over.
    for (const made of [0, 1, before - 1, before + 1, Number.MAX_SAFE_INTEGER]) {
      const answer = (await s.api('GET', `/links?since=${made}`, { token: dora.token })).body;
      expect(answer.items.map((entry: unknown[]) => entry[1]).sort(), `since=${made}`).toEqual(['dora.example/1', 'dora.example/2']);
    }
    // And one user's cursor is no cursor for another: Bob is given all his changes.
    const bobs = (await s.api('GET', '/links', { token: bob.token })).body.items.length;
    expect(bobs).toBeGreaterThanOrEqual(others);
    expect((await s.api('GET', `/links?since=${after}`, { token: bob.token })).body.items).toHaveLength(bobs);
  });
});

describe('upload links', () => {
  it('never follow the Host header when no public URL is configured', async () => {
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'report.pdf');
    const res = await uploadWithHost('/bookmark/file', 'evil.example', form, ann.token);
    expect(res.status).toBe(200);
    expect(res.body.item.link).toMatch(new RegExp(`^${s.origin}/rest/v1/files/`));
    expect(res.body.item.link).not.toContain('evil.example');
    // ...and the PDF is served inline in a sandbox.
    const got = await getRaw(res.body.item.link, ann.token);
    expect(got.headers.get('content-disposition')).toMatch(/^inline/);
    expect(got.headers.get('content-security-policy')).toMatch(/(^|; )sandbox(;|$)/);
  });
});

describe('the per-IP rate limit on pages', () => {
  it('answers a 429 page, not a 500 (serve --rate-limit 5, GET /signin six times)', async () => {
    const limited = await startServer({ rateLimit: { perMinute: 5, smallPerMinute: 2 } });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 6; i++) {
        last = await fetch(`${limited.origin}/signin`);
        statuses.push(last.status);
        if (i < 5) await last.text();
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(last!.headers.get('content-type')).toMatch(/^text\/html/);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await last!.text()).toContain('Too many requests');
    } finally {
      await limited.close();
    }
  });
});

describe('CSV export', () => {
  it('prefixes formulas hidden behind a space, tab, line feed or a fullwidth sign', async () => {
    const titles = [' =1+1', '\t=SUM(A1)', '\n=cmd()', '＝HYPERLINK("http://evil.example")', '  @SUM(1)', '＋1', 'Plain title'];
    const carol = await s.createUser();
    for (const [i, title] of titles.entries()) await s.createItem('/bookmark', carol.token, { link: `https://csv.example/${i}`, title });
    const res = await getRaw(`${s.url}/bookmarks/0/export.csv`, carol.token);
    expect(res.status).toBe(200);
    for (const title of titles.slice(0, -1)) expect(res.text).toContain(`"'${title.replace(/"/g, '""')}"`);
    expect(res.text).toContain('"Plain title"');
  });
});

describe('the API docs page', () => {
  it('has a CSP that forbids framing', async () => {
    const res = await fetch(`${s.url}/docs/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('an import its client abandons', () => {
  // A server of its own whose log this test reads, as an operator's collector would.
  let own: TestServer;
  const lines: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    own = await startServer({ logLevel: 'info', logDestination: { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) } });
  });
  afterAll(async () => own?.close());

  it('is not logged as an error, whether it leaves mid-upload or while the file converts', async () => {
    const user = await own.createUser();
    const pool = own.app.services.parsePool;
    const head = '--xyz\r\nContent-Disposition: form-data; name="import"; filename="b.html"\r\nContent-Type: text/html\r\n\r\n<DL><p>\n';
    const entries = '<DT><A HREF="https://a.example/">a</A>\n'.repeat(200_000);
    const tail = '</DL>\r\n--xyz--\r\n';
    const send = (whole: boolean) => {
      const url = new URL(`${own.url}/import/file`);
      const length = Buffer.byteLength(head + entries + tail);
      const req = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'multipart/form-data; boundary=xyz', 'content-length': length },
      });
      req.on('error', () => {});
      req.write(head);
      req.write(entries);
      if (whole) req.end(tail);
      return req;
    };
    // Leaves mid-upload: once Fastify has logged the request's arrival.
    const partial = send(false);
    await until(() => lines.some((line) => line.msg === 'incoming request'));
    partial.destroy();
    // Leaves while the file converts: its conversion is cancelled.
    const cancelled = pool.stats().ended.cancelled ?? 0;
    const whole = send(true);
    await until(() => pool.stats().running > 0, 30_000);
    whole.destroy();
    await until(() => (pool.stats().ended.cancelled ?? 0) > cancelled);
    // The server goes on answering, and nothing was logged as an error.
    expect((await own.api('GET', '/user', { token: user.token })).status).toBe(200);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
