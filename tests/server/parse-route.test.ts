import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redirectTo, respond, startPageServer, streamBytes, type PageServer } from '../fixtures/import/page-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /import/url/parse over real HTTP against pages served on loopback. `local` runs with
// allowPrivateNetwork (serve --allow-private-network); `strict` runs as in production.

const html = { 'content-type': 'text/html; charset=utf-8' };
const paragraph = (n: number) =>
  `<p>Paragraph ${n}: the lighthouse keeper writes down the weather every hour, the ships that pass, the state of ` +
  'the lamp and the oil left in the tank, and on quiet nights the birds that strike the glass and fly on.</p>';

const ARTICLE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
  <title>Keeping the light | Coast Notes</title>
  <meta property="og:title" content="Keeping the light">
  <meta property="og:description" content="A night in a lighthouse.">
  <meta property="og:site_name" content="Coast Notes">
  <meta property="og:image" content="/img/lamp.jpg">
  <meta name="twitter:image" content="https://cdn.example.com/lamp-2.png">
  <meta property="article:tag" content="Lighthouses">
  <link rel="canonical" href="/stories/light">
</head><body><article><h1>Keeping the light</h1>${[1, 2, 3, 4, 5, 6].map(paragraph).join('')}</article></body></html>`;

const SHOP = `<html><head><title>Rope shop</title><meta name="description" content="Ropes by the metre.">
  <meta name="keywords" content="rope, knots"></head><body><a href="/a">A</a> <a href="/b">B</a></body></html>`;

let pages: PageServer;
let local: TestServer;
let strict: TestServer;
let localToken: string;
let strictToken: string;

beforeAll(async () => {
  pages = await startPageServer({
    '/article': respond(200, html, ARTICLE),
    '/shop': respond(200, html, SHOP),
    '/gone': respond(404, html, '<title>Not here</title>'),
    '/down': respond(503, html, '<title>Maintenance</title>'),
    '/hop1': redirectTo('/hop2', 301),
    '/hop2': redirectTo('/hop3', 302),
    '/hop3': redirectTo('/article', 307),
    '/loop0': redirectTo('/loop1'),
    '/loop1': redirectTo('/loop2'),
    '/loop2': redirectTo('/loop3'),
    '/loop3': redirectTo('/loop4'),
    '/loop4': redirectTo('/loop5'),
    '/loop5': redirectTo('/article'),
    '/huge': streamBytes(6 * 1024 * 1024),
    '/slow': (_req, res) => {
      res.writeHead(200, html);
      res.write('<title>slow</title>');
    },
  });
  local = await startServer({ allowPrivateNetwork: true, fetchTimeoutMs: 1500 });
  strict = await startServer();
  localToken = (await local.createUser()).token;
  strictToken = (await strict.createUser()).token;
});

afterAll(async () => {
  await local?.close();
  await strict?.close();
  await pages?.close();
});

const parse = (s: TestServer, token: string | null, url?: string) =>
  s.api('GET', url === undefined ? '/import/url/parse' : `/import/url/parse?url=${encodeURIComponent(url)}`, { token });

const fallback = (url: string) => ({
  title: url,
  excerpt: '',
  media: [{ type: 'image', link: '<screenshot>' }],
  type: 'link',
  parser: 'local',
  meta: { possibleArticle: false, tags: [] },
});

describe('GET /import/url/parse on local pages (allow-private-network)', () => {
  it('an article: title, excerpt, absolute media, type, canonical, site, tags', async () => {
    const res = await parse(local, localToken, `${pages.origin}/article`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: true,
      item: {
        title: 'Keeping the light',
        excerpt: 'A night in a lighthouse.',
        media: [
          { type: 'image', link: `${pages.origin}/img/lamp.jpg` },
          { type: 'image', link: 'https://cdn.example.com/lamp-2.png' },
        ],
        type: 'article',
        meta: { possibleArticle: true, canonical: `${pages.origin}/stories/light`, site: 'Coast Notes', tags: ['Lighthouses'] },
      },
    });
  });

  it('a page that is not an article is a link', async () => {
    const res = await parse(local, localToken, `${pages.origin}/shop`);
    expect(res.body.result).toBe(true);
    expect(res.body.error).toBeUndefined();
    expect(res.body.item).toMatchObject({ title: 'Rope shop', excerpt: 'Ropes by the metre.', type: 'link', meta: { possibleArticle: false, tags: ['rope', 'knots'] } });
  });

  it('follows a redirect chain and describes the final page', async () => {
    const res = await parse(local, localToken, `${pages.origin}/hop1`);
    expect(res.body.item.title).toBe('Keeping the light');
    expect(res.body.item.meta.canonical).toBe(`${pages.origin}/stories/light`);
  });

  it('404: result true, url_status_404 and the fallback item', async () => {
    const url = `${pages.origin}/gone`;
    const res = await parse(local, localToken, url);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, error: 'not_found', errorMessage: 'url_status_404', item: fallback(url) });
  });

  it('invalid URL: result true, invalid_url and the fallback item; never a 4xx/5xx', async () => {
    for (const url of ['not a url', 'ftp://files.example.com/x', 'javascript:alert(1)']) {
      const res = await parse(local, localToken, url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: true, error: 'not_found', errorMessage: 'invalid_url', item: fallback(url) });
    }
    const missing = await parse(local, localToken);
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ result: true, error: 'not_found', errorMessage: 'invalid_url' });
  });

  it('other failures answer the fallback item with a clear code: 5xx, too many redirects, too large, too slow', async () => {
    const cases: [string, string][] = [
      ['/down', 'url_status_503'],
      ['/loop0', 'too_many_redirects'],
      ['/huge', 'too_large'],
      ['/slow', 'timeout'],
    ];
    for (const [pathname, code] of cases) {
      const url = `${pages.origin}${pathname}`;
      const res = await parse(local, localToken, url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: true, error: 'not_found', errorMessage: code, item: fallback(url) });
    }
  });

  it('needs a token and counts against the small bucket', async () => {
    expect((await parse(local, null, `${pages.origin}/shop`)).status).toBe(401);
    const limited = await startServer({ allowPrivateNetwork: true, rateLimit: { perMinute: 1000, smallPerMinute: 9 } });
    try {
      const res = await parse(limited, (await limited.createUser()).token, `${pages.origin}/shop`);
      expect(res.headers.get('x-ratelimit-limit')).toBe('9');
    } finally {
      await limited.close();
    }
  });
});

describe('GET /import/url/parse refuses local and private addresses by default (SSRF)', () => {
  it('loopback, private, link-local/metadata and IPv6 loopback: blocked_address, and no request is made', async () => {
    const before = pages.hits.get('/article') ?? 0;
    const urls = [
      `${pages.origin}/article`,
      `http://localhost:${pages.port}/article`,
      'http://10.0.0.1/admin',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${pages.port}/article`,
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
    ];
    for (const url of urls) {
      const res = await parse(strict, strictToken, url);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toMatchObject({ result: true, error: 'not_found', errorMessage: 'blocked_address', item: { type: 'link', parser: 'local' } });
      // What was refused and why goes to the log, not to the caller.
      expect(res.body.detail, url).toBeUndefined();
    }
    expect(pages.hits.get('/article') ?? 0).toBe(before);
  });
});
