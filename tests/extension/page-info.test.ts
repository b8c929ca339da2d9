// @vitest-environment jsdom
// Reading a page's metadata: Open Graph first, then Twitter cards and plain meta tags, relative
// image URLs resolved, and everything the page says bounded and cleaned as untrusted text.
import { describe, expect, it, vi } from 'vitest';
vi.mock('wxt/browser', () => import('./helpers/jsdom-browser.js'));

import { cleanPageInfo, extractPageInfo } from '../../lib/background/page-info.js';

function page(head: string, title = 'Doc title') {
  document.head.innerHTML = `<title>${title}</title>${head}`;
}

describe('extractPageInfo (runs in the page)', () => {
  it('prefers Open Graph, resolving a relative image', () => {
    page(`<meta property="og:title" content="OG title"><meta name="twitter:title" content="TW">
      <meta property="og:description" content="OG description"><meta name="description" content="plain">
      <meta property="og:image" content="/img/cover.png">`);
    expect(extractPageInfo()).toEqual({ title: 'OG title', excerpt: 'OG description', cover: new URL('/img/cover.png', document.baseURI).href });
  });

  it('falls back to Twitter cards, plain description, link rel=image_src and the document title', () => {
    page(`<meta name="twitter:description" content="TW description"><link rel="image_src" href="https://cdn.example/i.jpg">`, 'Only a title');
    expect(extractPageInfo()).toEqual({ title: 'Only a title', excerpt: 'TW description', cover: 'https://cdn.example/i.jpg' });
    page(`<meta name="description" content="Plain description">`);
    expect(extractPageInfo()).toMatchObject({ excerpt: 'Plain description', cover: '' });
  });
});

describe('cleanPageInfo (background)', () => {
  const tab = { url: 'https://site.example/a', title: 'Tab title' };

  it('collapses whitespace, strips control characters and bounds the length', () => {
    const info = cleanPageInfo({ title: '  Two\n\n  lines\u0000 ', excerpt: 'x'.repeat(5000), cover: 'https://img.example/a.png' }, tab);
    expect(info.title).toBe('Two lines');
    expect(info.excerpt).toHaveLength(1000);
    expect(info.excerpt.endsWith('…')).toBe(true);
    expect(info.cover).toBe('https://img.example/a.png');
  });

  it('refuses covers that are not http(s) and values that are not text', () => {
    expect(cleanPageInfo({ title: 42, excerpt: { evil: true }, cover: 'javascript:alert(1)' }, tab)).toEqual({
      url: tab.url,
      title: 'Tab title',
      excerpt: '',
      cover: '',
    });
    expect(cleanPageInfo({ cover: 'data:image/png;base64,AAAA' }, tab).cover).toBe('');
  });

  it('falls back to the tab, then to the URL, when the page cannot be read', () => {
    expect(cleanPageInfo(null, tab)).toEqual({ url: tab.url, title: 'Tab title', excerpt: '', cover: '' });
    expect(cleanPageInfo(undefined, { url: tab.url })).toMatchObject({ title: tab.url });
  });
});
