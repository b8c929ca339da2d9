// @vitest-environment jsdom
// The reader's pure parts: reading time, the article made safe for the library's page (nothing runs,
// no referrer, nothing restyles the library), and highlights anchored within the reader's root with
// the live page's code, both ways (made on the live page, found in the reader; made in the reader,
// found on the live page), with what is not in the reader's text reported, never guessed.
import { describe, expect, it } from 'vitest';
import { TextIndex, anchor } from '../../lib/anchoring/index.js';
import { readingMinutes, wordCount } from '../../lib/library/reading-time.js';
import { readerFragment, safeUrl } from '../../lib/library/reader-html.js';
import { describeSelection, indexArticle, placeHighlights } from '../../lib/library/reader-anchoring.js';
import type { StoredHighlight } from '../../lib/model.js';

describe('reading time', () => {
  it('counts words at 230 a minute, at least a minute for any text', () => {
    expect(readingMinutes('')).toBe(0);
    expect(readingMinutes('  \n ')).toBe(0);
    expect(readingMinutes('Tide gauges')).toBe(1);
    expect(readingMinutes(Array(2300).fill('tide').join(' '))).toBe(10);
    expect(readingMinutes(Array(345).fill('word').join('\n'))).toBe(2);
  });

  it('counts words, not punctuation, and CJK characters as half a word each', () => {
    expect(wordCount('The gauge — at Brest — reads 7.5 m; it’s old.')).toBe(9);
    expect(wordCount('潮位計'.repeat(100))).toBe(150);
    expect(readingMinutes('潮'.repeat(920))).toBe(2);
  });
});

describe('the article made safe for the reader', () => {
  const base = 'https://news.example/2024/tides/';
  const render = (html: string) => {
    const root = document.createElement('div');
    root.append(readerFragment(html, base));
    return root;
  };

  it('drops scripts, event handlers, forms, frames and styles, keeping the text', () => {
    const root = render(`
      <p id="lede" class="x" style="position:fixed" onclick="alert(1)">Tides <b onmouseover="x()">rise</b>.</p>
      <script>window.ran = true</script><noscript>no</noscript>
      <img src="x.png" onerror="window.ran = true">
      <iframe src="https://evil.example/"></iframe>
      <form action="https://evil.example/"><input name="q"><button>Go</button></form>
      <style>body { display: none }</style>
      <svg><script>window.ran = true</script></svg>
      <a href="javascript:alert(1)">bad link</a> <a href="/about">about</a>`);
    expect(root.querySelector('script, iframe, form, input, button, style, svg, noscript')).toBeNull();
    const html = root.innerHTML;
    expect(html).not.toMatch(/onclick|onerror|onmouseover|style=|class=|id=|javascript:/i);
    expect(root.textContent).toContain('Tides rise.');
    expect(root.querySelector('a')!.hasAttribute('href')).toBe(false);
    const about = root.querySelectorAll('a')[1]!;
    expect(about.getAttribute('href')).toBe('https://news.example/about');
    expect(about.getAttribute('target')).toBe('_blank');
    expect(about.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('loads every image without a referrer, from the page’s own address', () => {
    const root = render(`<figure><img src="gauge.jpg" srcset="gauge-2x.jpg 2x, javascript:x 3x" alt="A gauge"><figcaption>The gauge</figcaption></figure><img src="data:image/png;base64,iVBORw0KGgo=">`);
    const [img, inline] = root.querySelectorAll('img');
    expect(img!.getAttribute('src')).toBe('https://news.example/2024/tides/gauge.jpg');
    expect(img!.getAttribute('srcset')).toBe('https://news.example/2024/tides/gauge-2x.jpg 2x');
    expect(img!.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(inline!.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(inline!.getAttribute('src')).toMatch(/^data:image\/png/);
  });

  it('allows http(s) and mailto links, http(s) and data images only', () => {
    expect(safeUrl('mailto:a@b.example', base, 'link')).toBe('mailto:a@b.example');
    expect(safeUrl('mailto:a@b.example', base, 'image')).toBeNull();
    expect(safeUrl('data:text/html,<script>', base, 'image')).toBeNull();
    expect(safeUrl('file:///etc/passwd', base, 'link')).toBeNull();
    expect(safeUrl('//cdn.example/a.png', base, 'image')).toBe('https://cdn.example/a.png');
  });
});

describe('highlights anchored within the reader', () => {
  // The live page: navigation and an aside around the article, which repeat the article's words.
  const LIVE = `
    <nav><a>Tide gauges</a> <a>Harbours</a> <p>The gauge at Brest is the oldest in France.</p></nav>
    <article><h1>Tide gauges</h1>
      <p>The gauge at Brest is the oldest in France. It has measured the sea since 1679.</p>
      <p>Sea level there has risen about twenty centimetres in a century.</p>
    </article>
    <aside>Read more: the gauge at Brest is the oldest in France.</aside>`;
  // The reader's version of it: the article alone.
  const READER = `<h1>Tide gauges</h1><p>The gauge at Brest is the oldest in France. It has measured the sea since 1679.</p><p>Sea level there has risen about twenty centimetres in a century.</p>`;

  const page = (html: string) => {
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.replaceChildren(root);
    return root;
  };
  const stored = (key: string, d: { text: string; position?: number; prefix?: string; suffix?: string }): StoredHighlight => ({ key, color: 'yellow', note: '', ...d });
  const rangeOf = (index: TextIndex, quote: string, nth = 0) => {
    let at = -1;
    for (let i = 0; i <= nth; i++) at = index.text.indexOf(quote, at + 1);
    return index.rangeFor(at, at + quote.length);
  };

  it('finds a highlight made on the live page in the reader, and lists one whose text is not there', async () => {
    const live = new TextIndex(page(LIVE));
    // The article's sentence: the second of three on the live page.
    const made = describeSelection(live, rangeOf(live, 'The gauge at Brest is the oldest in France.', 1))!;
    const navOnly = describeSelection(live, rangeOf(live, 'Harbours'))!;
    const root = page(READER);
    const index = await indexArticle(root);
    const { placed, notFound } = await placeHighlights(index, [stored('nav', navOnly), stored('a', made)]);
    expect(placed.map((p) => p.highlight.key)).toEqual(['a']);
    expect(placed[0]!.result.range.toString()).toBe('The gauge at Brest is the oldest in France.');
    expect(root.contains(placed[0]!.result.range.commonAncestorContainer)).toBe(true);
    expect(notFound.map((h) => h.key)).toEqual(['nav']);
  });

  it('describes a selection in the reader so that the live page finds it at the article’s place', async () => {
    const root = page(READER);
    const index = await indexArticle(root);
    const selected = rangeOf(index, 'The gauge at Brest is the oldest in France.');
    const d = describeSelection(index, selected)!;
    expect(d.text).toBe('The gauge at Brest is the oldest in France.');
    const liveRoot = page(LIVE);
    const r = anchor(new TextIndex(liveRoot), d);
    expect(r.status).toBe('anchored');
    if (r.status !== 'anchored') return;
    // In the article, not in the navigation or the aside that repeat it.
    expect(r.range.startContainer.parentElement!.closest('article')).not.toBeNull();
  });

  it('orders what it finds by the article, not by when it was made', async () => {
    const root = page(READER);
    const index = await indexArticle(root);
    const later = describeSelection(index, rangeOf(index, 'twenty centimetres'))!;
    const earlier = describeSelection(index, rangeOf(index, 'since 1679'))!;
    const { placed } = await placeHighlights(index, [stored('later', later), stored('earlier', earlier)]);
    expect(placed.map((p) => p.highlight.key)).toEqual(['earlier', 'later']);
  });
});
