import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, fetchPage, type FetchErrorCode, type Resolver } from '../../server/services/parse/index.js';
import { redirectTo, respond, startPageServer, streamBytes, type PageServer } from '../fixtures/import/page-server.js';

const MB = 1024 * 1024;
let server: PageServer;
let other: PageServer; // a second local server, the "internal" target of redirects

async function failure(run: Promise<unknown>): Promise<FetchError> {
  try {
    await run;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchError);
    return error as FetchError;
  }
  throw new Error('expected the fetch to fail');
}

async function expectCode(run: Promise<unknown>, code: FetchErrorCode): Promise<FetchError> {
  const error = await failure(run);
  expect(error.code, error.message).toBe(code);
  return error;
}

beforeAll(async () => {
  other = await startPageServer({ '/secret': respond(200, { 'content-type': 'text/plain' }, 'internal secret') });
  const chain: Record<string, ReturnType<typeof redirectTo>> = {};
  for (let i = 1; i <= 6; i++) chain[`/hop${i}`] = redirectTo(i === 6 ? '/page' : `/hop${i + 1}`);
  server = await startPageServer({
    '/page': respond(200, { 'content-type': 'text/html; charset=utf-8' }, '<title>Hello</title>'),
    ...chain,
    '/relative': redirectTo('sub/../page', 301),
    '/to-ftp': redirectTo('ftp://files.example.com/x'),
    '/to-loopback': (_req, res) => res.writeHead(302, { location: `${other.origin}/secret` }).end(),
    '/to-localhost': (_req, res) => res.writeHead(307, { location: `http://localhost:${other.port}/secret` }).end(),
    '/to-ipv6-loopback': (_req, res) => res.writeHead(301, { location: `http://[::1]:${other.port}/secret` }).end(),
    '/to-metadata': redirectTo('http://169.254.169.254/latest/meta-data/'),
    '/big-chunked': streamBytes(64 * MB),
    '/big-declared': streamBytes(6 * MB, 'text/html', true),
    '/just-under': streamBytes(5 * MB),
    '/gzip': respond(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }, gzipSync('<p>compressed</p>')),
    '/gzip-bomb': respond(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }, gzipSync(Buffer.alloc(20 * MB, ' '))),
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><title>never finishes</title>');
    },
    '/slow-headers': () => {
      /* never answers */
    },
    '/pdf': streamBytes(64 * MB, 'application/pdf'),
    '/missing': respond(404, { 'content-type': 'text/html' }, 'gone'),
  });
});

afterAll(async () => {
  await server?.close();
  await other?.close();
});

const local = { allowPrivateNetwork: true };

describe('fetchPage on a local server (allowPrivateNetwork)', () => {
  it('returns status, media type, body and final URL, sending a browser-like User-Agent', async () => {
    const page = await fetchPage(`${server.origin}/page`, local);
    expect(page).toMatchObject({
      finalUrl: `${server.origin}/page`,
      status: 200,
      contentType: 'text/html',
      contentTypeHeader: 'text/html; charset=utf-8',
      truncated: false,
      redirects: [],
    });
    expect(page.body.toString()).toBe('<title>Hello</title>');
    const ua = server.headers.get('/page')!['user-agent']!;
    expect(ua).toMatch(/^Mozilla\/5\.0 .*Chrome\/\d+/);
  });

  it('returns non-2xx answers instead of throwing', async () => {
    const page = await fetchPage(`${server.origin}/missing`, local);
    expect(page.status).toBe(404);
  });

  it('follows 5 redirects', async () => {
    const page = await fetchPage(`${server.origin}/hop2`, local);
    expect(page.redirects).toHaveLength(5);
    expect(page.finalUrl).toBe(`${server.origin}/page`);
    expect(page.body.toString()).toContain('Hello');
  });

  it('fails at the 6th redirect without following it', async () => {
    const before = server.hits.get('/page') ?? 0;
    const error = await expectCode(fetchPage(`${server.origin}/hop1`, local), 'too_many_redirects');
    expect(error.message).toContain('more than 5 times');
    expect(server.hits.get('/page') ?? 0).toBe(before);
  });

  it('resolves a relative Location against the current URL', async () => {
    const page = await fetchPage(`${server.origin}/relative`, local);
    expect(page.finalUrl).toBe(`${server.origin}/page`);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    await expectCode(fetchPage(`${server.origin}/to-ftp`, local), 'invalid_redirect');
  });

  it('stops reading a chunked body past 5 MB', async () => {
    const error = await expectCode(fetchPage(`${server.origin}/big-chunked`, local), 'too_large');
    expect(error.message).toContain('5 MB');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // the server could push only what the socket buffers hold before the client hung up
    expect(server.written.get('/big-chunked')!).toBeLessThan(24 * MB);
  });

  it('refuses a body whose Content-Length is over 5 MB before reading it', async () => {
    await expectCode(fetchPage(`${server.origin}/big-declared`, local), 'too_large');
  });

  it('reads a body of exactly 5 MB', async () => {
    const page = await fetchPage(`${server.origin}/just-under`, local);
    expect(page.body.length).toBe(5 * MB);
  });

  it('keeps the first maxBytes with onTooLarge: truncate', async () => {
    const page = await fetchPage(`${server.origin}/big-chunked`, { ...local, maxBytes: 100_000, onTooLarge: 'truncate' });
    expect(page.body.length).toBe(100_000);
    expect(page.truncated).toBe(true);
  });

  it('decompresses gzip and counts the limit after decompression', async () => {
    expect((await fetchPage(`${server.origin}/gzip`, local)).body.toString()).toBe('<p>compressed</p>');
    await expectCode(fetchPage(`${server.origin}/gzip-bomb`, local), 'too_large');
  });

  it('gives up on a body that never finishes after the timeout', async () => {
    // The body never ends: without the timeout this would not settle at all (the test's own limit fails it).
    const error = await expectCode(fetchPage(`${server.origin}/slow-body`, { ...local, timeoutMs: 500 }), 'timeout');
    expect(error.message).toContain('500 ms');
  });

  it('gives up on a server that never answers after the timeout', async () => {
    await expectCode(fetchPage(`${server.origin}/slow-headers`, { ...local, timeoutMs: 500 }), 'timeout');
  });

  it('skips the body when wantBody says so (a 64 MB PDF is not downloaded)', async () => {
    const page = await fetchPage(`${server.origin}/pdf`, { ...local, wantBody: ({ contentType }) => contentType === 'text/html' });
    expect(page).toMatchObject({ status: 200, contentType: 'application/pdf' });
    expect(page.body.length).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.written.get('/pdf')!).toBeLessThan(24 * MB);
  });

  it('reports a closed port as connection_failed', async () => {
    const gone = await startPageServer({});
    const origin = gone.origin;
    await gone.close();
    await expectCode(fetchPage(`${origin}/`, local), 'connection_failed');
  });

  it('refuses anything but http(s)', async () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '']) {
      await expectCode(fetchPage(url, local), 'invalid_url');
    }
  });
});

describe('fetchPage address policy (no allowPrivateNetwork)', () => {
  it.each([
    ['loopback IPv4', () => `${server.origin}/page`],
    ['private 10/8', () => 'http://10.0.0.1/'],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['loopback IPv6', () => `http://[::1]:${server.port}/page`],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${server.port}/page`],
    ['localhost by name', () => `http://localhost:${server.port}/page`],
    ['decimal-encoded loopback', () => `http://2130706433:${server.port}/page`],
    ['unspecified', () => `http://0.0.0.0:${server.port}/page`],
  ])('refuses %s before connecting', async (_name, url) => {
    const before = server.hits.get('/page') ?? 0;
    const error = await expectCode(fetchPage(url()), 'blocked_address');
    expect(error.message).toContain('private or local networks');
    expect(server.hits.get('/page') ?? 0).toBe(before);
  });

  it.each([
    ['an IPv4 loopback address', '/to-loopback'],
    ['localhost', '/to-localhost'],
    ['the IPv6 loopback', '/to-ipv6-loopback'],
    ['the metadata service', '/to-metadata'],
  ])('checks every redirect: a trusted first hop redirecting to %s is refused', async (_name, path) => {
    const error = await expectCode(fetchPage(`${server.origin}${path}`, { testOnlyTrustInitialAddress: true }), 'blocked_address');
    expect(error.message).toMatch(/points to/);
    expect(server.hits.get(path)).toBeGreaterThan(0); // the first hop was really fetched
    expect(other.hits.get('/secret') ?? 0).toBe(0); // the internal target never was
  });

  it('checks what a host name resolves to', async () => {
    const resolve: Resolver = async () => [{ address: '10.1.2.3', family: 4 }];
    const error = await expectCode(fetchPage('http://public-looking.example/', { resolve }), 'blocked_address');
    expect(error.message).toContain('10.1.2.3');
  });

  it('refuses a name that resolves to public and private addresses alike', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: 'fd00::1', family: 6 },
    ];
    await expectCode(fetchPage('http://mixed.example/', { resolve }), 'blocked_address');
  });

  it('a fetch cancelled while its name is being looked up leaves no unhandled failure behind (it would end the server)', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const outer = new AbortController();
      // The job is cancelled (server shutting down) just as the lookup starts; the lookup fails later.
      const resolve: Resolver = () => {
        outer.abort();
        return new Promise((_, reject) => setTimeout(() => reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })), 20));
      };
      await expectCode(fetchPage('http://cancelled.example/', { resolve, signal: outer.signal }), 'aborted');
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it('reports names that do not resolve as dns_failure', async () => {
    const resolve: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expectCode(fetchPage('http://no-such-host.example/', { resolve }), 'dns_failure');
    await expectCode(fetchPage('http://nothing.example/', { resolve: async () => [] }), 'dns_failure');
  });

  it('connects to the address it checked, not to a second DNS answer (no rebinding)', async () => {
    let calls = 0;
    const resolve: Resolver = async () => {
      calls++;
      // a rebinding resolver: right the first time, elsewhere afterwards
      return calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '192.0.2.1', family: 4 }];
    };
    const page = await fetchPage(`http://pinned.test:${server.port}/page`, { resolve, allowPrivateNetwork: true, timeoutMs: 3000 });
    expect(page.body.toString()).toContain('Hello');
    expect(calls).toBe(1);
    expect(server.headers.get('/page')!.host).toBe(`pinned.test:${server.port}`);
  });
});
