import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeHtml } from './decode-html.js';

// Pages in legacy encodings decode from what they declare: the Content-Type header, a <meta> in
// the page, or a byte-order mark (which wins over both).

const russian = 'Приливные станции Бреста';
const japanese = '潮位観測所の歴史';

describe('decoding a page', () => {
  it('reads windows-1251 named by the Content-Type header', () => {
    const bytes = iconv.encode(`<html><body><p>${russian}</p></body></html>`, 'windows-1251');
    expect(decodeHtml(bytes, 'text/html; charset=windows-1251')).toContain(russian);
  });

  it('reads windows-1251 named by <meta http-equiv> when the header names none', () => {
    const bytes = iconv.encode(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=cp1251"></head><body>${russian}</body></html>`, 'windows-1251');
    expect(decodeHtml(bytes, 'text/html')).toContain(russian);
  });

  it('reads Shift_JIS named by <meta charset>', () => {
    const bytes = iconv.encode(`<html><head><meta charset="Shift_JIS"><title>${japanese}</title></head></html>`, 'shift_jis');
    expect(decodeHtml(bytes, 'text/html')).toContain(`<title>${japanese}</title>`);
  });

  it('lets a byte-order mark win over a header that says otherwise', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<p>${japanese}</p>`, 'utf8')]);
    expect(decodeHtml(bytes, 'text/html; charset=windows-1251')).toBe(`<p>${japanese}</p>`);
  });
});
