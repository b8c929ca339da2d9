import { Parser } from 'htmlparser2';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArchiveImageFetcher, sanitizeForArchive } from '../../server/services/parse/index.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';

interface Tag {
  name: string;
  attribs: Record<string, string>;
}

/** Every element of the output, read back with an independent HTML parser. */
function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  const parser = new Parser({ onopentag: (name, attribs) => tags.push({ name, attribs }) }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return tags;
}

const PAGE = `<!DOCTYPE html>
<html><head>
  <meta charset="iso-8859-1">
  <meta http-equiv="refresh" content="0; url=https://evil.example/">
  <title>Saved page</title>
  <base href="/blog/">
  <script>steal()</script>
  <script src="https://cdn.example.com/app.js"></script>
  <link rel="stylesheet" href="style.css">
  <link rel="preload" href="font.woff2" as="font">
</head>
<body ONLOAD="boot()">
  <h1 onclick="track()">Title</h1>
  <p>Text with <a href="javascript:alert(1)">a bad link</a>, <a href=" JaVaScRiPt:alert(2)">another</a>
     and <a href="next.html">a good one</a>.</p>
  <iframe src="https://ads.example.com/"></iframe>
  <iframe srcdoc="<script>x()</script>"></iframe>
  <object data="movie.swf"></object><embed src="movie.swf">
  <form action="javascript:go()"><button formaction="javascript:go()">Go</button></form>
  <img src="small.png" srcset="small-2x.png 2x" onerror="pwn()">
  <img src="large.png">
  <img src="/missing.png">
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <noscript><img src="lazy.png"></noscript>
  <svg viewBox="0 0 10 10"><a xlink:href="javascript:alert(3)"><rect width="5" height="5"/></a>
    <set attributeName="href" to="javascript:alert(4)"/></svg>
</body></html>`;

const SMALL_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 1)]);
const LARGE_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(150 * 1024, 1)]);

let server: PageServer;

beforeAll(async () => {
  server = await startPageServer({
    '/blog/small.png': respond(200, { 'content-type': 'image/png' }, SMALL_PNG),
    '/blog/large.png': respond(200, { 'content-type': 'image/png' }, LARGE_PNG),
    '/blog/lazy.png': respond(200, { 'content-type': 'image/png' }, SMALL_PNG),
  });
});

afterAll(async () => {
  await server?.close();
});

describe('sanitizeForArchive without an image fetcher', () => {
  let out: string;
  let tags: Tag[];
  beforeAll(async () => {
    out = await sanitizeForArchive(PAGE, 'https://site.example.com/blog/post.html');
    tags = tagsOf(out);
  });

  it('removes scripts, frames, plugins and refresh redirects', () => {
    const names = new Set(tags.map((t) => t.name));
    for (const name of ['script', 'iframe', 'object', 'embed', 'set']) expect(names.has(name), name).toBe(false);
    expect(tags.some((t) => t.name === 'meta' && (t.attribs['http-equiv'] ?? '').toLowerCase() === 'refresh')).toBe(false);
    expect(out).not.toContain('steal()');
  });

  it('leaves no event handler, srcdoc or script URL on any element', () => {
    for (const tag of tags) {
      for (const [name, value] of Object.entries(tag.attribs)) {
        expect(name.startsWith('on'), `${tag.name} ${name}`).toBe(false);
        expect(name).not.toBe('srcdoc');
        expect(value.replace(/\s/g, '').toLowerCase().startsWith('javascript:'), `${tag.name} ${name}=${value}`).toBe(false);
      }
    }
    expect(tags.find((t) => t.name === 'a' && t.attribs.href === 'next.html')).toBeDefined();
  });

  it('sets one <base href> (the page\'s own, resolved), a UTF-8 charset and a script-forbidding CSP', () => {
    const bases = tags.filter((t) => t.name === 'base');
    expect(bases).toEqual([{ name: 'base', attribs: { href: 'https://site.example.com/blog/' } }]);
    const metas = tags.filter((t) => t.name === 'meta');
    expect(metas[0]!.attribs).toEqual({ charset: 'utf-8' });
    expect(metas.filter((m) => m.attribs.charset)).toHaveLength(1);
    expect(metas[1]!.attribs.content).toContain("script-src 'none'");
    expect(tags.findIndex((t) => t.name === 'base')).toBeLessThan(tags.findIndex((t) => t.name === 'title'));
  });

  it('keeps content and images, unwraps <noscript>, drops <link> and SVG, and inlines nothing', () => {
    expect(out).toContain('Saved page');
    // external stylesheets could load anything (CSS url() to the reader's own machine): not kept
    expect(tags.filter((t) => t.name === 'link')).toEqual([]);
    const imgs = tags.filter((t) => t.name === 'img').map((t) => t.attribs.src);
    expect(imgs).toEqual(['small.png', 'large.png', '/missing.png', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', 'lazy.png']);
    expect(out).not.toContain('noscript');
    expect(tags.some((t) => ['svg', 'rect', 'set', 'a'].includes(t.name) && Object.values(t.attribs).some((v) => v.includes('alert')))).toBe(false);
    expect(out).not.toContain('<svg');
  });

  it('starts with a doctype', () => {
    expect(out.trimStart().toLowerCase().startsWith('<!doctype html>')).toBe(true);
  });
});

describe('sanitizeForArchive with an image fetcher', () => {
  it('inlines images of at most 100 KB as data URIs and leaves larger or missing ones alone', async () => {
    const fetchImage = createArchiveImageFetcher({ allowPrivateNetwork: true });
    const html = PAGE.replace('<base href="/blog/">', '');
    const out = await sanitizeForArchive(html, `${server.origin}/blog/post.html`, { fetchImage });
    const imgs = tagsOf(out).filter((t) => t.name === 'img');
    const small = `data:image/png;base64,${SMALL_PNG.toString('base64')}`;
    expect(imgs[0]!.attribs).toEqual({ src: small }); // srcset dropped with the inlined src
    expect(imgs[1]!.attribs.src).toBe('large.png');
    expect(imgs[2]!.attribs.src).toBe('/missing.png');
    expect(imgs[4]!.attribs.src).toBe(small);
    expect(server.hits.get('/missing.png')).toBe(1);
  });

  it('uses the fetcher it is given and ignores what it cannot use', async () => {
    const asked: string[] = [];
    const out = await sanitizeForArchive(
      '<img src="a.png"><img src="b.png"><img src="a.png"><img src="c.png">',
      'https://site.example.com/',
      {
        fetchImage: async (url) => {
          asked.push(url);
          if (url.endsWith('a.png')) return { contentType: 'image/png', body: Buffer.from('png') };
          if (url.endsWith('b.png')) return { contentType: 'text/html', body: Buffer.from('<html>') };
          throw new Error('network down');
        },
      },
    );
    expect(asked.sort()).toEqual(['https://site.example.com/a.png', 'https://site.example.com/b.png', 'https://site.example.com/c.png']);
    const srcs = tagsOf(out).filter((t) => t.name === 'img').map((t) => t.attribs.src);
    expect(srcs).toEqual(['data:image/png;base64,cG5n', 'b.png', 'data:image/png;base64,cG5n', 'c.png']);
  });

  it('does not fetch images from private addresses unless allowed', async () => {
    const before = server.hits.get('/blog/small.png') ?? 0;
    const out = await sanitizeForArchive('<img src="small.png">', `${server.origin}/blog/`, { fetchImage: createArchiveImageFetcher() });
    expect(tagsOf(out).find((t) => t.name === 'img')!.attribs.src).toBe('small.png');
    expect(server.hits.get('/blog/small.png') ?? 0).toBe(before);
  });
});

describe('sanitizeForArchive output read by a standards-conforming parser (jsdom)', () => {
  const TRICKY = `<html><head><title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title></head><body>
    <p title="a&quot; onmouseover=&quot;x()">&lt;script&gt;alert(2)&lt;/script&gt;</p>
    <textarea>&lt;/textarea&gt;&lt;img src=x onerror=alert(3)&gt;</textarea>
    <xmp><img src=x onerror=alert(4)></xmp>
    <plaintext><img src=x onerror=alert(5)>
  </body></html>`;

  it('contains no script and no handler however the text was escaped in the source', async () => {
    const out = await sanitizeForArchive(TRICKY, 'https://site.example.com/');
    const { document } = new JSDOM(out).window;
    expect(document.querySelectorAll('script')).toHaveLength(0);
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) expect(attribute.name.startsWith('on'), attribute.name).toBe(false);
    }
    expect(document.querySelectorAll('img')).toHaveLength(0);
  });

  it('keeps the text a reader saw', async () => {
    const out = await sanitizeForArchive(TRICKY, 'https://site.example.com/');
    const { document } = new JSDOM(out).window;
    expect(document.title).toBe('</title><script>alert(1)</script>');
    expect(document.querySelector('p')!.textContent).toBe('<script>alert(2)</script>');
    expect(document.querySelector('p')!.getAttribute('title')).toBe('a" onmouseover="x()');
    // form controls are not kept; a textarea's text stays as text
    expect(document.querySelector('textarea')).toBeNull();
    expect(document.body.textContent).toContain('</textarea><img src=x onerror=alert(3)>');
    // <xmp> shows its content as text; it becomes a <pre> that shows the same
    expect(document.querySelector('pre')!.textContent).toBe('<img src=x onerror=alert(4)>');
  });
});
