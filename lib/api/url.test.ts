import { describe, expect, it } from 'vitest';
import { domainOf, isHttpUrl, normalizeUrl, parseHttpUrl } from './url.js';

describe('parseHttpUrl / isHttpUrl', () => {
  it('accepts http and https URLs, trimming whitespace', () => {
    expect(parseHttpUrl('https://example.com/a?b=1')?.href).toBe('https://example.com/a?b=1');
    expect(parseHttpUrl('  http://example.com  ')?.hostname).toBe('example.com');
    expect(parseHttpUrl('HTTPS://EXAMPLE.COM/')?.protocol).toBe('https:');
    expect(isHttpUrl('http://localhost:8080/x')).toBe(true);
  });

  it('refuses other schemes, relative links, junk and non-strings', () => {
    for (const input of ['ftp://example.com/', 'javascript:alert(1)', 'data:text/html,hi', 'mailto:a@b.c', 'file:///etc/passwd',
      '/relative/path', 'example.com', '', '   ', 'http://', 'https:// spaced.example/']) {
      expect(parseHttpUrl(input), input).toBeNull();
      expect(isHttpUrl(input), input).toBe(false);
    }
    expect(parseHttpUrl(undefined as unknown as string)).toBeNull();
    expect(parseHttpUrl(42 as unknown as string)).toBeNull();
  });
});

describe('domainOf', () => {
  it('is the host without www., lower-cased by URL parsing', () => {
    expect(domainOf('https://www.Example.COM/page')).toBe('example.com');
    expect(domainOf('http://sub.example.org:8080/')).toBe('sub.example.org');
    expect(domainOf('https://wwwx.example/')).toBe('wwwx.example');
  });

  it('is empty for links that are not http(s)', () => {
    expect(domainOf('ftp://example.com/')).toBe('');
    expect(domainOf('nonsense')).toBe('');
  });
});

describe('normalizeUrl', () => {
  const key = 'example.com/path?id=1';

  it('folds what a person would call the same page', () => {
    for (const url of [
      'https://example.com/path?id=1',
      'http://example.com/path?id=1',
      'HTTPS://EXAMPLE.com/path?id=1',
      'https://www.example.com/path?id=1',
      'https://example.com/path/?id=1',
      'https://example.com/path//?id=1',
      'https://example.com:443/path?id=1',
      'http://example.com:80/path?id=1',
      'https://example.com/path?utm_source=x&id=1&utm_campaign=y',
      'https://example.com/path?id=1&UTM_Medium=z',
      'https://example.com/path?id=1&fbclid=1&gclid=2&msclkid=3&mc_cid=4',
      'https://example.com/path?id=1#section',
      '  https://example.com/path?id=1  ',
    ]) {
      expect(normalizeUrl(url), url).toBe(key);
    }
  });

  it('keeps what makes pages different: path case, other parameters, ports, app-route fragments', () => {
    expect(normalizeUrl('https://example.com/Path?id=1')).not.toBe(key);
    expect(normalizeUrl('https://example.com/path?id=2')).not.toBe(key);
    expect(normalizeUrl('https://example.com/path')).not.toBe(key);
    expect(normalizeUrl('https://example.com:8443/path?id=1')).toBe('example.com:8443/path?id=1');
    expect(normalizeUrl('https://mail.example.com/#/inbox')).toBe('mail.example.com/#/inbox');
    expect(normalizeUrl('https://app.example/#!/item/4')).toBe('app.example/#!/item/4');
    expect(normalizeUrl('https://app.example/#/a')).not.toBe(normalizeUrl('https://app.example/#/b'));
    expect(normalizeUrl('https://sub.example.com/')).not.toBe(normalizeUrl('https://example.com/'));
  });

  it('sorts parameters so their order does not matter', () => {
    expect(normalizeUrl('https://example.com/s?b=2&a=1')).toBe(normalizeUrl('https://example.com/s?a=1&b=2'));
    expect(normalizeUrl('https://example.com/s?a=2&a=1')).toBe('example.com/s?a=1&a=2');
  });

  it('keeps the root path and drops a tracking-only query', () => {
    expect(normalizeUrl('https://example.com')).toBe('example.com/');
    expect(normalizeUrl('https://example.com/')).toBe('example.com/');
    expect(normalizeUrl('https://example.com/?utm_source=news')).toBe('example.com/');
  });

  it('is null for links that are not http(s)', () => {
    expect(normalizeUrl('javascript:void(0)')).toBeNull();
    expect(normalizeUrl('about:blank')).toBeNull();
    expect(normalizeUrl('')).toBeNull();
  });
});
