import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../server/services/parse/index.js';

const URL_ = 'https://news.example.com/section/story?id=1';

describe('extractMetadata', () => {
  it('prefers og:title, then twitter:title, then <title>, then <h1>, then the file name', () => {
    const title = (head: string, body = '') => extractMetadata(`<html><head>${head}</head><body>${body}</body></html>`, URL_, 'text/html').title;
    expect(title('<title>T</title><meta name="twitter:title" content="Tw"><meta property="og:title" content="Og">')).toBe('Og');
    expect(title('<title>T</title><meta name="twitter:title" content="Tw">')).toBe('Tw');
    expect(title('<title>  Plain \n title </title>')).toBe('Plain title');
    expect(title('', '<h1>Heading</h1>')).toBe('Heading');
    expect(title('')).toBe('story');
  });

  it('resolves media and canonical against <base href> and drops non-http media', () => {
    const html = `<html><head><base href="https://static.example.net/assets/">
      <meta property="og:image" content="img/cover.jpg">
      <meta property="og:image" content="javascript:alert(1)">
      <meta property="og:image" content="data:image/png;base64,AAAA">
      <meta property="og:image:secure_url" content="img/cover.jpg">
      <link rel="image_src" href="/thumb.png">
      <link rel="alternate canonical" href="canon.html">
    </head><body></body></html>`;
    const meta = extractMetadata(html, URL_, 'text/html');
    expect(meta.media).toEqual([
      { type: 'image', link: 'https://static.example.net/assets/img/cover.jpg' },
      { type: 'image', link: 'https://static.example.net/thumb.png' },
    ]);
    expect(meta.meta.canonical).toBe('https://static.example.net/assets/canon.html');
  });

  it('uses og:url when there is no canonical link, else the page URL', () => {
    const withOgUrl = extractMetadata('<html><head><meta property="og:url" content="https://news.example.com/story"></head></html>', URL_, 'text/html');
    expect(withOgUrl.meta.canonical).toBe('https://news.example.com/story');
    expect(extractMetadata('<p>x</p>', URL_, 'text/html').meta.canonical).toBe(URL_);
  });

  it('decides the type from og:type and readability', () => {
    const type = (ogType: string) =>
      extractMetadata(`<html><head><meta property="og:type" content="${ogType}"></head><body><p>short</p></body></html>`, URL_, 'text/html').type;
    expect(type('video.movie')).toBe('video');
    expect(type('music.song')).toBe('audio');
    expect(type('article')).toBe('article');
    expect(type('website')).toBe('link');
  });

  it('types files from their Content-Type', () => {
    const type = (contentType: string) => extractMetadata('', 'https://files.example.com/a/b.bin', contentType).type;
    expect(type('application/pdf')).toBe('document');
    expect(type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('document');
    expect(type('image/webp')).toBe('image');
    expect(type('audio/mpeg')).toBe('audio');
    expect(type('video/webm')).toBe('video');
    expect(type('application/zip')).toBe('link');
    expect(type('application/xhtml+xml; charset=utf-8')).toBe('link');
  });

  it('caps and cleans keyword tags', () => {
    const keywords = Array.from({ length: 40 }, (_, i) => `k${i}`).join(',');
    const meta = extractMetadata(`<meta name="keywords" content="${keywords}, ${'x'.repeat(150)}">`, URL_, 'text/html');
    expect(meta.meta.tags).toHaveLength(20);
    expect(meta.meta.tags[0]).toBe('k0');
  });

  it('uses the host as site without og:site_name', () => {
    expect(extractMetadata('<title>x</title>', URL_, 'text/html').meta.site).toBe('news.example.com');
  });
});
