// Behind a reverse proxy (`serve --trust-proxy`): the client's address comes from X-Forwarded-For, so
// per-address limits count each real client rather than the proxy; the scheme from X-Forwarded-Proto,
// so cookies set under https are Secure. Without the flag, both headers are ignored: anyone could
// send them to pick a fresh rate-limit allowance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const signin = (s: TestServer, headers: Record<string, string>) => fetch(`${s.origin}/signin`, { headers });

describe('with --trust-proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ trustProxy: true, rateLimit: { perMinute: 3, smallPerMinute: 2 } });
  });
  afterAll(async () => s?.close());

  it('counts anonymous requests per forwarded client address', async () => {
    const a = { 'x-forwarded-for': '203.0.113.7' };
    for (let i = 0; i < 3; i++) expect((await signin(s, a)).status).toBe(200);
    const fourth = await signin(s, a);
    expect(fourth.status).toBe(429);
    // Refused before its session is read, the page still says what happened and when to come back.
    expect(fourth.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await fourth.text()).toMatch(/Too many requests/);
    // Another client behind the same proxy has its own allowance.
    const b = await signin(s, { 'x-forwarded-for': '198.51.100.23' });
    expect(b.status).toBe(200);
    expect(b.headers.get('x-ratelimit-remaining')).toBe('2');
    // The proxy's own address (the connection) is not what is counted either.
    expect((await signin(s, {})).headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('believes only the address the proxy added: one a client wrote in front of it buys no new allowance', async () => {
    // A proxy that appends (nginx's $proxy_add_x_forwarded_for) passes on what the client sent, then the client's real address.
    const spoofed = (n: number) => signin(s, { 'x-forwarded-for': `10.0.0.${n}, 192.0.2.77` });
    for (let i = 0; i < 3; i++) expect((await spoofed(i)).status).toBe(200);
    expect((await spoofed(3)).status).toBe(429);
  });

  it('sets Secure cookies when the proxy says the request came over https, and not over http', async () => {
    const https = await signin(s, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.1' });
    expect(https.headers.get('set-cookie')).toMatch(/; Secure/i);
    const http = await signin(s, { 'x-forwarded-proto': 'http', 'x-forwarded-for': '192.0.2.2' });
    expect(http.headers.get('set-cookie')).toBeTruthy();
    expect(http.headers.get('set-cookie')).not.toMatch(/; Secure/i);
  });
});

describe('without --trust-proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ trustProxy: false, rateLimit: { perMinute: 3, smallPerMinute: 2 } });
  });
  afterAll(async () => s?.close());

  it('ignores X-Forwarded-For and -Proto', async () => {
    const first = await signin(s, { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' });
    expect(first.headers.get('set-cookie')).not.toMatch(/; Secure/i);
    await signin(s, { 'x-forwarded-for': '203.0.113.8' });
    await signin(s, { 'x-forwarded-for': '203.0.113.9' });
    // A new forwarded address does not buy a new allowance: all four came from one connection address.
    expect((await signin(s, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(429);
  });
});
