import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUrl } from '../../server/services/parse/index.js';
import { redirectTo, respond, startPageServer, streamBytes, type PageServer } from '../fixtures/import/page-server.js';

let server: PageServer;
const local = { allowPrivateNetwork: true };
const html = { 'content-type': 'text/html; charset=utf-8' };

const paragraph = (n: number) =>
  `<p>Paragraph ${n} of a real article, long enough to count as reading matter: tides rise and fall twice a day, ` +
  'pulled by the moon and, to a lesser degree, the sun; the harbour master keeps a table of them, and the fishermen, ' +
  'who know better, keep their own.</p>';

const ARTICLE = `<!DOCTYPE html>
<html lang="en"><head>
  <meta charset="utf-8">
  <title>Tides explained | Harbour Weekly</title>
  <meta property="og:title" content="Tides, explained">
  <meta property="og:description" content="Why the sea comes and goes twice a day.">
  <meta property="og:type" content="article">
  <meta property="og:site_name" content="Harbour Weekly">
  <meta property="og:image" content="/images/tide.jpg">
  <meta property="og:image" content="https://cdn.example.com/tide-2.png">
  <meta property="og:video" content="//video.example.com/tide.mp4">
  <meta property="article:tag" content="Oceans">
  <meta property="article:tag" content="Moon">
  <meta name="keywords" content="tides, moon, oceans">
  <link rel="canonical" href="/articles/tides">
</head><body>
  <nav><a href="/">Home</a></nav>
  <article><h1>Tides, explained</h1>${[1, 2, 3, 4, 5, 6].map(paragraph).join('')}</article>
</body></html>`;

const LINK_PAGE = `<html><HEAD><TITLE>Shop front</TITLE>
  <META NAME="Description" CONTENT="Buy nets and ropes.">
  <META NAME="KEYWORDS" CONTENT="nets, ropes ,  , Nets">
  <meta name="twitter:image" content="logo.png">
</HEAD><body><div><a href="/nets">Nets</a> <a href="/ropes">Ropes</a></div></body></html>`;

const NO_DESCRIPTION = `<!DOCTYPE html><html><head><title>Plain essay</title></head><body><main><article>
  ${[1, 2, 3, 4, 5].map(paragraph).join('')}
</article></main></body></html>`;

const LATIN1 = Buffer.from('<html><head><title>Caf\xe9 cr\xe8me</title></head><body>x</body></html>', 'latin1');

beforeAll(async () => {
  server = await startPageServer({
    '/article': respond(200, html, ARTICLE),
    '/shop': respond(200, { 'content-type': 'text/html' }, LINK_PAGE),
    '/essay': respond(200, html, NO_DESCRIPTION),
    '/latin1': respond(200, { 'content-type': 'text/html; charset=ISO-8859-1' }, LATIN1),
    '/meta-charset': respond(200, { 'content-type': 'text/html' }, Buffer.concat([Buffer.from('<meta charset="windows-1252">'), LATIN1])),
    '/docs/annual%20report.pdf': streamBytes(40 * 1024 * 1024, 'application/pdf'),
    '/photo.png': respond(200, { 'content-type': 'image/png' }, Buffer.from([0x89, 0x50, 0x4e, 0x47])),
    '/clip': respond(200, { 'content-type': 'video/mp4' }, Buffer.alloc(10)),
    '/broken': respond(503, html, '<title>Down for maintenance</title>'),
    '/r1': redirectTo('/r2'),
    '/r2': redirectTo('/r3'),
    '/r3': redirectTo('/r4'),
    '/r4': redirectTo('/r5'),
    '/r5': redirectTo('/article'),
    '/r0': redirectTo('/r1'),
    '/huge': streamBytes(6 * 1024 * 1024),
    '/slow': (_req, res) => {
      res.writeHead(200, html);
      res.write('<title>slow</title>');
    },
    '/video-page': respond(
      200,
      html,
      '<html><head><title>Clip</title><meta property="og:type" content="video.other"><meta property="og:image" content="https://img.example.com/t.jpg"></head><body></body></html>',
    ),
  });
});

afterAll(async () => {
  await server?.close();
});

describe('parseUrl of an article', () => {
  it('reads og tags, canonical, site, tags and absolute media', async () => {
    const result = await parseUrl(`${server.origin}/article`, local);
    expect(result).toEqual({
      result: true,
      item: {
        title: 'Tides, explained',
        excerpt: 'Why the sea comes and goes twice a day.',
        media: [
          { type: 'image', link: `${server.origin}/images/tide.jpg` },
          { type: 'image', link: 'https://cdn.example.com/tide-2.png' },
          { type: 'video', link: 'http://video.example.com/tide.mp4' },
        ],
        type: 'article',
        meta: {
          possibleArticle: true,
          canonical: `${server.origin}/articles/tides`,
          site: 'Harbour Weekly',
          tags: ['Oceans', 'Moon', 'tides'],
        },
      },
    });
  });

  it('falls back to the Readability excerpt when the page has no description', async () => {
    const { item } = await parseUrl(`${server.origin}/essay`, local);
    expect(item.type).toBe('article');
    expect(item.meta.possibleArticle).toBe(true);
    expect(item.excerpt).toMatch(/^Paragraph 1 of a real article/);
    expect(item.title).toBe('Plain essay');
  });
});

describe('parseUrl of a page that is not an article', () => {
  it('is a link, with <title>, meta description and keywords read whatever their case', async () => {
    const result = await parseUrl(`${server.origin}/shop`, local);
    expect(result.error).toBeUndefined();
    expect(result.item).toEqual({
      title: 'Shop front',
      excerpt: 'Buy nets and ropes.',
      media: [{ type: 'image', link: `${server.origin}/logo.png` }],
      type: 'link',
      meta: { possibleArticle: false, canonical: `${server.origin}/shop`, site: '127.0.0.1', tags: ['nets', 'ropes'] },
    });
  });

  it('calls a page with og:type video a video', async () => {
    const { item } = await parseUrl(`${server.origin}/video-page`, local);
    expect(item.type).toBe('video');
    expect(item.media).toEqual([{ type: 'image', link: 'https://img.example.com/t.jpg' }]);
  });

  it('decodes the charset from the Content-Type header or a <meta charset>', async () => {
    expect((await parseUrl(`${server.origin}/latin1`, local)).item.title).toBe('Café crème');
    expect((await parseUrl(`${server.origin}/meta-charset`, local)).item.title).toBe('Café crème');
  });
});

describe('parseUrl of files', () => {
  it('calls a PDF a document, titled by its file name, without downloading it', async () => {
    const result = await parseUrl(`${server.origin}/docs/annual%20report.pdf`, local);
    expect(result).toEqual({
      result: true,
      item: {
        title: 'annual report.pdf',
        excerpt: '',
        media: [],
        type: 'document',
        meta: {
          possibleArticle: false,
          canonical: `${server.origin}/docs/annual%20report.pdf`,
          site: '127.0.0.1',
          tags: [],
        },
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.written.get('/docs/annual%20report.pdf')!).toBeLessThan(20 * 1024 * 1024);
  });

  it('calls an image an image and a video a video, with the file as media', async () => {
    const image = await parseUrl(`${server.origin}/photo.png`, local);
    expect(image.item).toMatchObject({ type: 'image', title: 'photo.png', media: [{ type: 'image', link: `${server.origin}/photo.png` }] });
    const video = await parseUrl(`${server.origin}/clip`, local);
    expect(video.item).toMatchObject({ type: 'video', media: [{ type: 'video', link: `${server.origin}/clip` }] });
  });
});

describe('parseUrl redirects', () => {
  it('follows up to 5 redirects and describes the final page', async () => {
    const result = await parseUrl(`${server.origin}/r1`, local);
    expect(result.error).toBeUndefined();
    expect(result.item.title).toBe('Tides, explained');
  });

  it('fails at the 6th redirect with the fallback item', async () => {
    const result = await parseUrl(`${server.origin}/r0`, local);
    expect(result).toMatchObject({ result: true, error: 'not_found', errorMessage: 'too_many_redirects' });
    expect(result.item.parser).toBe('local');
  });
});

function fallback(title: string) {
  return {
    title,
    excerpt: '',
    media: [{ type: 'image', link: '<screenshot>' }],
    type: 'link',
    parser: 'local',
    meta: { possibleArticle: false, tags: [] },
  };
}

describe('parseUrl failures answer result: true, an error and the fallback item', () => {
  it('invalid URL', async () => {
    for (const url of ['not a url', 'ftp://example.com/file', '']) {
      const result = await parseUrl(url, local);
      expect(result).toMatchObject({ result: true, error: 'not_found', errorMessage: 'invalid_url', item: fallback(url) });
    }
  });

  it('404', async () => {
    const url = `${server.origin}/nothing-here`;
    const result = await parseUrl(url, local);
    expect(result).toMatchObject({ result: true, error: 'not_found', errorMessage: 'url_status_404', item: fallback(url) });
    expect(Object.keys(result.item).sort()).toEqual(['excerpt', 'media', 'meta', 'parser', 'title', 'type']);
  });

  it('5xx', async () => {
    const result = await parseUrl(`${server.origin}/broken`, local);
    expect(result).toMatchObject({ error: 'not_found', errorMessage: 'url_status_503', item: fallback(`${server.origin}/broken`) });
  });

  it('too large', async () => {
    const result = await parseUrl(`${server.origin}/huge`, local);
    expect(result).toMatchObject({ error: 'not_found', errorMessage: 'too_large' });
  });

  it('timeout', async () => {
    const result = await parseUrl(`${server.origin}/slow`, { ...local, timeoutMs: 500 });
    expect(result).toMatchObject({ error: 'not_found', errorMessage: 'timeout', item: fallback(`${server.origin}/slow`) });
  });

  it('blocked address, without allowPrivateNetwork, never reaching the server', async () => {
    const before = server.hits.get('/article') ?? 0;
    const result = await parseUrl(`${server.origin}/article`);
    expect(result).toMatchObject({ error: 'not_found', errorMessage: 'blocked_address' });
    expect(result.detail).toContain('private or local networks');
    expect(server.hits.get('/article') ?? 0).toBe(before);
  });

  it('DNS failure', async () => {
    const result = await parseUrl('http://unknown.example/', {
      resolve: async () => {
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(result).toMatchObject({ error: 'not_found', errorMessage: 'dns_failure', item: fallback('http://unknown.example/') });
  });
});
