import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PoliteFetcher } from '../../server/services/jobs/text-job/polite-fetch.js';
import { makePdf } from '../helpers/make-pdf.js';

// The text job's fetcher against real local sites: one request at a time per host, answers sorted
// into documents or reasons a person can read. Distinct ports are distinct hosts.

interface Site {
  url: string;
  /** requests being answered right now, and the most there ever were */
  open: number;
  mostOpen: number;
  served: number;
  server: http.Server;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

async function startSite(): Promise<Site> {
  const site = { url: '', open: 0, mostOpen: 0, served: 0 } as Site;
  site.server = http.createServer((req, res) => {
    site.open++;
    site.mostOpen = Math.max(site.mostOpen, site.open);
    const done = () => {
      site.open--;
      site.served++;
    };
    res.on('finish', done);
    const path = req.url ?? '/';
    // Each page answers on the next turn of the event loop, so overlapping requests would show.
    setImmediate(() => {
      if (path === '/forbidden') {
        res.writeHead(403, { 'content-type': 'text/html' }).end('<p>no</p>');
      } else if (path === '/busy') {
        res.writeHead(503, { 'retry-after': '120' }).end();
      } else if (path === '/image') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      } else if (path === '/unlabelled.pdf') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(makePdf(['A PDF without its type']));
      } else if (path === '/silent') {
        res.on('close', done);
        // never answers
      } else {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>${path}</title><p>Page ${path}</p>`);
      }
    });
  });
  await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
  return site;
}

let a: Site;
let b: Site;
beforeAll(async () => {
  [a, b] = await Promise.all([startSite(), startSite()]);
});
afterAll(async () => {
  for (const site of [a, b]) {
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
  }
});

const fetcher = (over: Partial<ConstructorParameters<typeof PoliteFetcher>[0]> = {}) =>
  new PoliteFetcher({ hostDelayMs: 5, timeoutMs: 5000, maxBytes: 1024 * 1024, allowPrivateNetwork: true, ...over });

describe('the text job\'s fetcher', () => {
  it('sends one request at a time to a host, while another host is read beside it', async () => {
    const polite = fetcher();
    const before = { a: a.served, b: b.served };
    const results = await Promise.all([
      ...[1, 2, 3, 4, 5].map((n) => polite.fetch(`${a.url}/page-${n}`)),
      ...[1, 2, 3].map((n) => polite.fetch(`${b.url}/page-${n}`)),
    ]);
    expect(results.every((r) => r.ok && r.document.kind === 'html')).toBe(true);
    expect(a.served - before.a).toBe(5);
    expect(b.served - before.b).toBe(3);
    expect(a.mostOpen).toBe(1);
    expect(b.mostOpen).toBe(1);
  });

  it('keeps the status in the reason of a refusal, and retries it later', async () => {
    const result = await fetcher().fetch(`${a.url}/forbidden`);
    expect(result).toMatchObject({ ok: false, failure: { status: 'failed', retry: true } });
    expect(!result.ok && result.failure.reason).toMatch(/^the site answered 403 \(Forbidden\)/);
  });

  it('passes on the Retry-After of a busy site', async () => {
    const result = await fetcher().fetch(`${a.url}/busy`);
    expect(result).toMatchObject({ ok: false, failure: { retry: true, retryAfterMs: 120_000 } });
    expect(!result.ok && result.failure.reason).toContain('503');
  });

  it('says an image has no text, without reading it', async () => {
    expect(await fetcher().fetch(`${a.url}/image`)).toEqual({ ok: false, failure: { status: 'none', reason: 'this is an image: no text', retry: false } });
  });

  it('knows a PDF sent as octet-stream by its first bytes', async () => {
    const result = await fetcher().fetch(`${a.url}/unlabelled.pdf`);
    expect(result.ok && result.document.kind).toBe('pdf');
  });

  it('says how long it waited for a site that does not answer', async () => {
    const result = await fetcher({ timeoutMs: 300 }).fetch(`${b.url}/silent`);
    expect(result).toMatchObject({ ok: false, failure: { status: 'failed', retry: true } });
    expect(!result.ok && result.failure.reason).toBe('the site did not answer in 0.3 s; it may be slow or down');
  });

  it('refuses local addresses unless allowed, as the other fetchers do', async () => {
    const result = await fetcher({ allowPrivateNetwork: false }).fetch(`${a.url}/page`);
    expect(result).toMatchObject({ ok: false, failure: { status: 'failed', retry: false } });
    expect(!result.ok && result.failure.reason).toContain('private or local network');
  });

  it('cuts a page at the page limit and says so', async () => {
    const result = await fetcher({ maxPageBytes: 10 }).fetch(`${a.url}/long-page-name`);
    expect(result.ok && { length: result.document.bytes.length, truncated: result.document.truncated }).toEqual({ length: 10, truncated: true });
  });

  it('refuses a PDF larger than the limit rather than cut it', async () => {
    const result = await fetcher({ maxBytes: 100 }).fetch(`${a.url}/unlabelled.pdf`);
    expect(result).toEqual({ ok: false, failure: { status: 'failed', reason: 'the PDF is larger than 1 KB, the most the server reads', retry: false } });
  });
});
