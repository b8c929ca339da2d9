// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { copyDocument, copyTitle, metaPolicy } from './saved-copy.js';

const SERVER_CSP = "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline' http: https:";

describe('the saved copy\'s frame document', () => {
  it('keeps the server\'s policy without the directives a <meta> cannot carry', () => {
    expect(metaPolicy(SERVER_CSP)).toBe("default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline' http: https:");
    expect(metaPolicy("sandbox; frame-ancestors 'none'; default-src 'none'; report-uri /x")).toBe("default-src 'none'");
  });

  it('falls back to a policy that runs nothing when the server sent none (or one without default-src)', () => {
    expect(metaPolicy('')).toMatch(/^default-src 'none'; /);
    expect(metaPolicy('img-src *')).toMatch(/^default-src 'none'; /);
  });

  it('puts the policy and a new-tab base first, after the doctype when there is one', () => {
    const doc = copyDocument('<!DOCTYPE html><html><head><title>T</title></head><body>x</body></html>', SERVER_CSP);
    expect(doc.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src \'none\'; img-src')).toBe(true);
    expect(doc).toContain('<base target="_blank"><html><head><title>T</title>');
    const parsed = new DOMParser().parseFromString(doc, 'text/html');
    expect(parsed.compatMode).toBe('CSS1Compat');
    expect(parsed.head.firstElementChild?.getAttribute('http-equiv')).toBe('Content-Security-Policy');
    expect(parsed.head.firstElementChild?.getAttribute('content')).toBe(metaPolicy(SERVER_CSP));
    expect(parsed.querySelector('base')?.getAttribute('target')).toBe('_blank');
    expect(parsed.body.textContent).toBe('x');
  });

  it('a copy without a doctype stays without one (its rendering mode is kept)', () => {
    const doc = copyDocument('<p>old page</p>', SERVER_CSP);
    expect(doc.startsWith('<meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(new DOMParser().parseFromString(doc, 'text/html').compatMode).toBe('BackCompat');
  });

  it('escapes the policy inside the attribute', () => {
    const doc = copyDocument('<p>x</p>', `default-src 'none'; img-src "x" <y> &z`);
    const meta = new DOMParser().parseFromString(doc, 'text/html').querySelector('meta')!;
    expect(meta.getAttribute('content')).toBe(`default-src 'none'; img-src "x" <y> &z`);
  });

  it('reads the copy\'s title as text, entities decoded, markup not run', () => {
    expect(copyTitle('<html><head><title>Tides &amp; moons</title></head></html>')).toBe('Tides & moons');
    expect(copyTitle('<html><head></head></html>')).toBe('');
  });
});
