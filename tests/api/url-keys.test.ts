// Golden table of the stored URL key (lib/api/url.ts normalizeUrl): the server keeps it in
// bookmarks.link_key and the extension in its saved-link index, so duplicate detection (url/exists,
// the badge, import) depends on yesterday's keys matching today's. A change to this table changes the
// key of existing rows: it must come with re-keying them, never as a silent edit of the expected values.
// Re-keying follows URL_KEY_VERSION: the table is pinned to its version by a digest, so editing the
// table without raising the version fails here.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeUrl, URL_KEY_VERSION } from '../../lib/api/url.js';

/** The digest of GOLDEN for each key version (add a line when raising URL_KEY_VERSION). */
const GOLDEN_DIGESTS: Record<number, string> = {
  1: 'db7b9b291f59f6bf87889a2bc04112db0c8475283546922d2c2a976e1b6ae559',
};

const GOLDEN: [input: string, key: string | null][] = [
  ['https://example.com/', 'example.com/'],
  ['http://example.com', 'example.com/'],
  ['https://www.example.com/article/', 'example.com/article'],
  ['https://EXAMPLE.com/Article', 'example.com/Article'],
  ['https://example.com:443/a', 'example.com/a'],
  ['http://example.com:80/a', 'example.com/a'],
  ['https://example.com:8443/a', 'example.com:8443/a'],
  ['https://example.com/a?b=2&a=1', 'example.com/a?a=1&b=2'],
  ['https://example.com/a?utm_source=x&utm_medium=y&id=5', 'example.com/a?id=5'],
  ['https://example.com/a?fbclid=abc', 'example.com/a'],
  ['https://example.com/a?gclid=abc&q=tide', 'example.com/a?q=tide'],
  ['https://example.com/a#section', 'example.com/a'],
  ['https://example.com/app#/inbox/3', 'example.com/app#/inbox/3'],
  ['https://example.com/app#!/inbox/3', 'example.com/app#!/inbox/3'],
  ['https://example.com/a/b/../c', 'example.com/a/c'],
  ['https://example.com/%7Euser/', 'example.com/%7Euser'],
  ['https://example.com/search?q=a+b', 'example.com/search?q=a+b'],
  ['https://example.com/search?q=a%20b', 'example.com/search?q=a+b'],
  ['https://münchen.example/straße', 'xn--mnchen-3ya.example/stra%C3%9Fe'],
  ['https://example.com/a?', 'example.com/a'],
  ['https://user:pw@example.com/a', 'example.com/a'],
  ['ftp://example.com/a', null],
  ['not a url', null],
  ['  https://example.com/padded  ', 'example.com/padded'],
];

describe('URL keys (golden table)', () => {
  it.each(GOLDEN)('%s -> %s', (input, key) => {
    expect(normalizeUrl(input)).toBe(key);
  });

  it('the table belongs to the current URL_KEY_VERSION (changed keys need a new version, which re-keys stored rows)', () => {
    const digest = createHash('sha256').update(JSON.stringify(GOLDEN)).digest('hex');
    expect(digest, `GOLDEN changed: raise URL_KEY_VERSION (now ${URL_KEY_VERSION}) and record ${digest} for it`).toBe(GOLDEN_DIGESTS[URL_KEY_VERSION]);
  });

  it('a key is its own key (normalising twice changes nothing)', () => {
    for (const [, key] of GOLDEN) if (key) expect(normalizeUrl(`https://${key}`), key).toBe(key);
  });
});
