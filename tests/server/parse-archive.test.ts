import { Parser } from 'htmlparser2';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArchiveImageFetcher, createArchiveStylesheetFetcher, sanitizeForArchive } from '../../server/services/parse/index.js';
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

const BASE_CSS = '\ufeff@import url(other.css);\nh1 { color: rgb(1, 2, 3); background: url(/bg.png) }\n@font-face { font-family: X; src: url(x.woff2) }';

let server: PageServer;

beforeAll(async () => {
  server = await startPageServer({
    '/blog/small.png': respond(200, { 'content-type': 'image/png' }, SMALL_PNG),
    '/blog/large.png': respond(200, { 'content-type': 'image/png' }, LARGE_PNG),
    '/blog/lazy.png': respond(200, { 'content-type': 'image/png' }, SMALL_PNG),
    '/css/base.css': respond(200, { 'content-type': 'text/css' }, BASE_CSS),
    '/css/alt.css': respond(200, { 'content-type': 'text/css' }, 'body { color: green }'),
    '/css/print.css': respond(200, { 'content-type': 'text/css; charset=utf-8' }, 'nav { display: none }'),
    '/css/latin1.css': respond(200, { 'content-type': 'text/css; charset=iso-8859-1' }, Buffer.from('q::before { content: "\xe9" }', 'latin1')),
    '/css/wrong-type.css': respond(200, { 'content-type': 'text/html' }, 'p { color: red }'),
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

  it('sets one <base href> (the page\'s own, resolved) opening links in a new tab, a UTF-8 charset and a script-forbidding CSP', () => {
    const bases = tags.filter((t) => t.name === 'base');
    expect(bases).toEqual([{ name: 'base', attribs: { href: 'https://site.example.com/blog/', target: '_blank' } }]);
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

describe('sanitizeForArchive with a stylesheet fetcher: the copy keeps the look of its page', () => {
  const STYLED = `<html><head><title>Styled</title>
    <link rel="stylesheet" href="/css/base.css">
    <link rel="alternate stylesheet" href="/css/alt.css" title="Green">
    <link rel="stylesheet" href="/css/print.css" media="print">
    <link rel="stylesheet" href="/css/missing.css">
    <link rel="stylesheet" href="/css/wrong-type.css">
    <link rel="Stylesheet" href="/css/latin1.css">
    <link rel="stylesheet" href="/css/base.css">
    <style>p { margin: 0 }</style>
  </head><body><h1>Styled</h1><p>Text.</p></body></html>`;

  it('puts each applied sheet in place of its link as cleaned <style>, in order, fetching each once', async () => {
    const before = (p: string) => server.hits.get(p) ?? 0;
    const hits = { base: before('/css/base.css'), alt: before('/css/alt.css') };
    const out = await sanitizeForArchive(STYLED, `${server.origin}/post.html`, { fetchStylesheet: createArchiveStylesheetFetcher({ allowPrivateNetwork: true }) });
    const { document } = new JSDOM(out).window;
    const styles = [...document.querySelectorAll('style')].map((e) => ({ media: e.getAttribute('media'), css: e.textContent!.trim() }));
    const base = '\nh1 { color: rgb(1, 2, 3); background: none }\n@font-face { font-family: X; src: none }'.trim();
    expect(styles).toEqual([
      { media: null, css: base },
      { media: 'print', css: 'nav { display: none }' },
      { media: null, css: 'q::before { content: "é" }' },
      { media: null, css: base },
      { media: null, css: 'p { margin: 0 }' },
    ]);
    // Nothing left that fetches: no link, no url(), no @import; the alternate sheet was not asked for.
    expect(document.querySelectorAll('link')).toHaveLength(0);
    expect(out).not.toMatch(/url\(|@import/);
    expect(before('/css/base.css') - hits.base).toBe(1);
    expect(before('/css/alt.css') - hits.alt).toBe(0);
    // The sheet really applies in the copy.
    const { window } = new JSDOM(out);
    expect(window.getComputedStyle(window.document.querySelector('h1')!).color).toBe('rgb(1, 2, 3)');
  });

  it('does not fetch stylesheets from private addresses unless allowed', async () => {
    const before = server.hits.get('/css/base.css') ?? 0;
    const out = await sanitizeForArchive(STYLED, `${server.origin}/post.html`, { fetchStylesheet: createArchiveStylesheetFetcher() });
    expect(server.hits.get('/css/base.css') ?? 0).toBe(before);
    expect(new JSDOM(out).window.document.querySelectorAll('style')).toHaveLength(1);
  });

  it('keeps at most the limits: sheets past the bytes left are left out, and at most maxSheets are asked for', async () => {
    const asked: string[] = [];
    const fetchStylesheet = async (url: string) => {
      asked.push(url);
      return url.endsWith('big.css') ? `a { color: red }${' '.repeat(2000)}` : 'b { color: blue }';
    };
    const page = '<head><link rel=stylesheet href=a.css><link rel=stylesheet href=big.css><link rel=stylesheet href=c.css><link rel=stylesheet href=d.css></head>';
    const out = await sanitizeForArchive(page, 'https://site.example.com/', { fetchStylesheet, stylesheetLimits: { maxSheets: 3, maxTotalBytes: 1000 } });
    expect(asked.sort()).toEqual(['https://site.example.com/a.css', 'https://site.example.com/big.css', 'https://site.example.com/c.css']);
    const css = [...new JSDOM(out).window.document.querySelectorAll('style')].map((e) => e.textContent);
    expect(css).toEqual(['b { color: blue }', 'b { color: blue }']);
  });
});
