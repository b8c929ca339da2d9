// @vitest-environment jsdom
// A snippet renders as text with <mark> only: markup in it, escaped or not, never becomes an element.
import { h, render } from 'preact';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Snippet } from './Snippet.js';

let root: HTMLElement;
beforeEach(() => {
  root = document.createElement('div');
  document.body.append(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
});

it('shows the matched words marked and the rest as text', () => {
  render(h(Snippet, { snippet: 'the <mark>tide</mark> gauge &amp; the <mark>sea</mark>' }), root);
  const p = root.querySelector('p.snippet')!;
  expect(p.textContent).toBe('the tide gauge & the sea');
  expect([...p.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['tide', 'sea']);
  expect(p.querySelectorAll('*')).toHaveLength(2);
});

it('renders a script or an image with onerror as text, escaped or not', () => {
  const hostile = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> &lt;img src=y onerror=alert(1)&gt; <mark>ok</mark>';
  render(h(Snippet, { snippet: hostile }), root);
  const p = root.querySelector('p.snippet')!;
  expect(p.querySelector('script, img')).toBeNull();
  expect([...p.querySelectorAll('*')].map((e) => e.tagName)).toEqual(['MARK']);
  expect(p.textContent).toContain('<script>window.pwned = 1</script>');
  expect(p.textContent).toContain('<img src=y onerror=alert(1)>');
  expect((window as { pwned?: number }).pwned).toBeUndefined();
});
