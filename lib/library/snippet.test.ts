// A search result's snippet is read as text with marks, never as HTML: what a page says can never
// become an element in the library.
import { describe, expect, it } from 'vitest';
import { snippetParts, unescapeHtml } from './snippet.js';

describe('snippetParts', () => {
  it('reads the marked words and the text around them', () => {
    expect(snippetParts('…the <mark>tide</mark> gauge in <mark>Brest</mark>, since 1711')).toEqual([
      { text: '…the ', mark: false },
      { text: 'tide', mark: true },
      { text: ' gauge in ', mark: false },
      { text: 'Brest', mark: true },
      { text: ', since 1711', mark: false },
    ]);
  });

  it('decodes the escaped text to what the page said', () => {
    expect(snippetParts('a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39; &#x263A; <mark>&amp;</mark>')).toEqual([
      { text: 'a <b> & "c" \'d\' ☺ ', mark: false },
      { text: '&', mark: true },
    ]);
  });

  it('keeps escaped markup as text, including a mark written in the page', () => {
    const parts = snippetParts('&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; &lt;mark&gt;no&lt;/mark&gt;');
    expect(parts).toEqual([{ text: '<script>alert(1)</script> <img src=x onerror=alert(1)> <mark>no</mark>', mark: false }]);
  });

  it('keeps unknown or impossible character references as written', () => {
    expect(unescapeHtml('&bogus; &#0; &#xD800; &#x110000; &amp')).toBe('&bogus; &#0; &#xD800; &#x110000; &amp');
  });
});
