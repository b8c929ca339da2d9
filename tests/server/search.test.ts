import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// The `search` parameter of GET /bookmarks/{collectionId}, over real HTTP, on bookmarks created
// through POST /bookmarks. Every operator of observed-behaviour.md with a positive and a negative case.

let s: TestServer;
let token: string;
const id: Record<string, number> = {};

const items = [
  {
    key: 'rust', link: 'https://blog.rust-lang.org/2023/ownership', title: 'Rust ownership explained',
    tags: ['Programming', 'systems lang'], type: 'article', important: true, created: '2023-03-01T08:00:00Z',
    excerpt: 'Borrowing and lifetimes', lastUpdate: '2024-02-02T00:00:00Z',
  },
  {
    key: 'js', link: 'https://developer.mozilla.org/docs/Closures', title: 'JavaScript closures',
    tags: ['programming', 'js'], excerpt: 'Functions that remember their scope', created: '2024-05-01T12:00:00Z',
    highlights: [{ text: 'lexical environment', note: 'key idea' }],
  },
  {
    key: 'cake', link: 'https://www.cooking.example.com/chocolate-cake', title: 'Chocolate cake recipe',
    note: 'bake at 180 degrees', type: 'article', created: '2024-12-31T23:00:00Z',
  },
  { key: 'dupA', link: 'https://news.example.net/story?id=7', title: 'A story', created: '2022-01-01T00:00:00Z' },
  { key: 'dupB', link: 'https://news.example.net/story?id=7&utm_source=x', title: 'The same story', created: '2022-01-02T00:00:00Z', type: 'video' },
  { key: 'pdf', link: `https://files.tidemark.test/files/manual.pdf`, title: 'Manual', type: 'document', created: '2021-06-01T00:00:00Z' },
];
const ALL = items.map((i) => i.key);

async function search(expr: string, extra = ''): Promise<string[]> {
  const res = await s.api('GET', `/bookmarks/0?perpage=50&search=${encodeURIComponent(expr)}${extra}`, { token });
  expect(res.status, `${expr}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.body.count).toBe(res.body.items.length);
  const byId = Object.fromEntries(Object.entries(id).map(([k, v]) => [v, k]));
  return (res.body.items as { _id: number }[]).map((b) => byId[b._id]).sort();
}
const only = (...keys: string[]) => [...keys].sort();
const except = (...keys: string[]) => ALL.filter((k) => !keys.includes(k)).sort();

beforeAll(async () => {
  s = await startServer();
  ({ token } = await s.createUser());
  const res = await s.api('POST', '/bookmarks', { token, body: { items: items.map(({ key: _k, ...rest }) => rest) } });
  expect(res.status).toBe(200);
  items.forEach((item, i) => (id[item.key] = res.body.items[i]._id));
  // Fields no client sets through the API: link checking and language detection fill them in.
  await s.sql('UPDATE bookmarks SET broken = 1 WHERE id = ?', id.dupA);
  await s.sql("UPDATE bookmarks SET lang = 'en' WHERE id IN (?, ?)", id.rust, id.js);
  await s.sql("UPDATE bookmarks SET lang = 'de' WHERE id = ?", id.cake);
  // The upload route (PUT /bookmark/file) records an uploaded file like this; a cover is not a file.
  const file = (fileId: string, kind: string, bookmarkId: number, path: string) =>
    s.sql(
      `INSERT INTO files (id, user_id, kind, bookmark_id, name, mime, size, sha256, path, created)
       VALUES (?, ?, ?, ?, 'manual.pdf', 'application/pdf', 10, '', ?, '2021-06-01T00:00:00.000Z')`,
      fileId, owner, kind, bookmarkId, path,
    );
  const owner = ((await s.sql('SELECT user_id FROM bookmarks WHERE id = ?', id.pdf))[0] as { user_id: number }).user_id;
  await file('searchtestfile1', 'file', id.pdf, 'search-test/1');
  await file('searchtestcover', 'cover', id.cake, 'search-test/2');
  // Another user's bookmark never shows up.
  const other = await s.createUser();
  await s.api('POST', '/bookmark', { token: other.token, body: { link: 'https://blog.rust-lang.org/other', title: 'Rust ownership too' } });
});
afterAll(async () => s.close());

describe('search operators over HTTP', () => {
  it('word (prefix) and -word', async () => {
    expect(await search('owner')).toEqual(only('rust'));
    expect(await search('CLOSURES')).toEqual(only('js'));
    expect(await search('lexical')).toEqual(only('js')); // highlight text
    expect(await search('-programming')).toEqual(except('rust', 'js'));
    expect(await search('nosuchword')).toEqual([]);
  });

  it('"exact phrase" and its negation', async () => {
    expect(await search('"chocolate cake"')).toEqual(only('cake'));
    expect(await search('"cake chocolate"')).toEqual([]);
    expect(await search('-"same story"')).toEqual(except('dupB'));
  });

  it('#tag, #"multi word tag" (case-insensitive, exact) and -#tag', async () => {
    expect(await search('#programming')).toEqual(only('rust', 'js'));
    expect(await search('#JS')).toEqual(only('js'));
    expect(await search('#"Systems Lang"')).toEqual(only('rust'));
    expect(await search('#systems')).toEqual([]);
    expect(await search('-#programming')).toEqual(except('rust', 'js'));
  });

  it('type: and -type:', async () => {
    expect(await search('type:article')).toEqual(only('rust', 'cake'));
    expect(await search('-type:article')).toEqual(except('rust', 'cake'));
    expect(await search('type:audio')).toEqual([]);
  });

  it('created: year, month, day, < and >', async () => {
    expect(await search('created:2024')).toEqual(only('js', 'cake'));
    expect(await search('created:2024-05')).toEqual(only('js'));
    expect(await search('created:2024-05-01')).toEqual(only('js'));
    expect(await search('created:2024-05-02')).toEqual([]);
    expect(await search('created:<2023')).toEqual(only('dupA', 'dupB', 'pdf'));
    expect(await search('created:>2023')).toEqual(only('js', 'cake'));
    expect(await search('-created:2022')).toEqual(except('dupA', 'dupB'));
  });

  it('lastUpdate: in the same forms', async () => {
    expect(await search('lastUpdate:2024-02')).toEqual(only('rust'));
    expect(await search('lastUpdate:<2024-02-02')).toEqual([]);
  });

  it('❤️ and important:true / false', async () => {
    expect(await search('❤️')).toEqual(only('rust'));
    expect(await search('important:true')).toEqual(only('rust'));
    expect(await search('important:false')).toEqual(except('rust'));
    expect(await search('-❤️')).toEqual(except('rust'));
  });

  it('notag, note, highlights, file, broken and duplicate flags', async () => {
    expect(await search('notag:true')).toEqual(except('rust', 'js'));
    expect(await search('notag:false')).toEqual(only('rust', 'js'));
    expect(await search('note:true')).toEqual(only('cake'));
    expect(await search('-note:true')).toEqual(except('cake'));
    expect(await search('highlights:true')).toEqual(only('js'));
    expect(await search('highlights:false')).toEqual(except('js'));
    expect(await search('file:true')).toEqual(only('pdf'));
    expect(await search('-file:true')).toEqual(except('pdf'));
    expect(await search('broken:true')).toEqual(only('dupA'));
    expect(await search('broken:false')).toEqual(except('dupA'));
    expect(await search('duplicate:true')).toEqual(only('dupA', 'dupB'));
    expect(await search('-duplicate:true')).toEqual(except('dupA', 'dupB'));
  });

  it('domain: matches the domain and its subdomains', async () => {
    expect(await search('domain:example.com')).toEqual(only('cake'));
    expect(await search('domain:www.cooking.example.com')).toEqual(only('cake'));
    expect(await search('domain:example.net')).toEqual(only('dupA', 'dupB'));
    expect(await search('domain:ample.net')).toEqual([]);
    expect(await search('-domain:example.net')).toEqual(except('dupA', 'dupB'));
  });

  it('link:, title:, excerpt:, note: look in that field only', async () => {
    expect(await search('link:mozilla')).toEqual(only('js'));
    expect(await search('title:mozilla')).toEqual([]);
    expect(await search('title:story')).toEqual(only('dupA', 'dupB'));
    expect(await search('-title:story')).toEqual(except('dupA', 'dupB'));
    expect(await search('excerpt:lifetimes')).toEqual(only('rust'));
    expect(await search('excerpt:ownership')).toEqual([]);
    expect(await search('note:degrees')).toEqual(only('cake'));
    expect(await search('note:chocolate')).toEqual([]);
  });

  it('_id: and lang:', async () => {
    expect(await search(`_id:${id.cake}`)).toEqual(only('cake'));
    expect(await search(`-_id:${id.cake}`)).toEqual(except('cake'));
    expect(await search('lang:en')).toEqual(only('rust', 'js'));
    expect(await search('-lang:en')).toEqual(except('rust', 'js'));
  });

  it('ANDs terms, and ORs them with match:OR', async () => {
    expect(await search('#programming type:article')).toEqual(only('rust'));
    expect(await search('rust cake')).toEqual([]);
    expect(await search('rust cake match:OR')).toEqual(only('rust', 'cake'));
    expect(await search('match:OR #js ❤️ domain:example.com')).toEqual(only('rust', 'js', 'cake'));
  });

  it('accepts the older JSON form', async () => {
    expect(await search(JSON.stringify([{ key: 'tag', val: 'programming' }, { key: 'type', val: 'article' }]))).toEqual(only('rust'));
    expect(await search(JSON.stringify([{ key: 'word', val: 'chocolate' }]))).toEqual(only('cake'));
    expect(await search(JSON.stringify([{ key: 'important', val: true }]))).toEqual(only('rust'));
    expect(await search(JSON.stringify([{ key: 'notag', val: true }, { key: 'domain', val: 'example.net' }]))).toEqual(only('dupA', 'dupB'));
  });

  it('answers malformed expressions with 200, reading them as plain words', async () => {
    expect(await search('"chocolate')).toEqual(only('cake'));
    expect(await search('#"systems lang')).toEqual(only('rust')); // words "systems" "lang" (in the tags field)
    for (const expr of ['"', '#', '-', '-#', '#""', '""', ':', 'type:', 'created:soon', 'created:2024-13-45', 'match:',
      'NEAR(a b)', 'a OR', '*', '^x', '(((', '\u0000', '\uFFFF', '🙂', '❤️❤️', 'x'.repeat(2000), '[{"key":1}]', '[', '{}',
      "'; DROP TABLE bookmarks; --", '%', '_', '\\']) {
      const res = await s.api('GET', `/bookmarks/0?search=${encodeURIComponent(expr)}`, { token });
      expect(res.status, expr).toBe(200);
      expect(res.body.result).toBe(true);
    }
    // An expression of only punctuation filters nothing.
    expect(await search('!!! ***')).toEqual(ALL.slice().sort());
    // Broken percent-encoding and a lone surrogate on the wire.
    expect((await s.api('GET', '/bookmarks/0?search=%E0%A4%A', { token })).status).toBe(200);
    expect((await s.api('GET', '/bookmarks/0?search=%ED%A0%80x', { token })).status).toBe(200);
  });

  it('refuses a search longer than 2000 characters with a 400 naming the field', async () => {
    const res = await s.api('GET', `/bookmarks/0?search=${'x'.repeat(2001)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/search/);
  });

  it('finds bookmarks after their tags are changed through the API', async () => {
    await s.api('PUT', `/bookmark/${id.cake}`, { token, body: { tags: ['Baking'] } });
    expect(await search('#baking')).toEqual(only('cake'));
    await s.api('PUT', `/bookmark/${id.cake}`, { token, body: { tags: [] } });
    expect(await search('#baking')).toEqual([]);
  });
});
