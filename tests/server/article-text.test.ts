import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE_UPLOAD_MAX_BYTES } from '../../lib/api/schemas/article.js';
import { ARTICLE_TEXT_MAX_CHARS } from '../../server/services/parse/article-text.js';
import { onPostgres, startServer, type TestServer } from '../helpers/server.js';
import { createBookmark, createCollection, share, type TestUser } from './sharing-setup.js';

// A saved page's text over real HTTP, on whichever backend the lane runs: the extension's upload
// (PUT /bookmark/{id}/article), the reader's read (GET), retry, full-text search of the text with
// snippets and its ranking, who may see it, the caps, and what deleting a bookmark leaves.

let s: TestServer;
let owner: TestUser;
let member: TestUser;
let stranger: TestUser;

const page = (title: string, paragraphs: string[], extra = '') =>
  `<!doctype html><html><head><title>${title}</title><script>window.bad = 1</script></head><body>
   <nav><a href="/">Home</a> <a href="/about">About</a></nav>
   <article><h1>${title}</h1><p class="byline">By Ana Lopez</p>
   ${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}${extra}</article>
   <footer>Copyright</footer></body></html>`;

const TIDE = [
  'The tide gauges in Brest have recorded the height of the sea since 1711, the longest series in the world.',
  'Engineers compare the readings of the old float gauge with the radar that replaced it, year after year.',
  'Storm surges show up as sharp peaks, and the slow rise of the mean level is plain over three centuries.',
];

async function upload(token: string, id: number, html: string, url = 'https://example.com/tides/brest') {
  return s.api('PUT', `/bookmark/${id}/article`, { token, body: { html, url } });
}

async function searchIds(token: string, expr: string, extra = '') {
  const res = await s.api('GET', `/bookmarks/0?perpage=50&search=${encodeURIComponent(expr)}${extra}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as { _id: number; title: string; snippet?: string; article?: { status: string; error: string } }[];
}

beforeAll(async () => {
  s = await startServer();
  owner = await s.createUser();
  member = await s.createUser();
  stranger = await s.createUser();
});
afterAll(async () => {
  await s?.close();
});

describe('the page text of a bookmark', () => {
  it('is pending for the server when the bookmark is made, indexed once the extension uploads it', async () => {
    const bookmark = await createBookmark(s, owner, -1, { link: 'https://example.com/tides/brest', title: 'Sea level records' });
    expect(bookmark.article).toEqual({ status: 'pending', error: '' });

    const put = await upload(owner.token, bookmark._id, page('Brest tide gauges', TIDE, '<img src="/img/gauge.png" onerror="alert(1)">'));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ result: true, status: 'indexed', error: '' });

    const got = await s.api('GET', `/bookmark/${bookmark._id}/article`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ result: true, status: 'indexed', error: '', title: 'Brest tide gauges', source: 'extension', truncated: false });
    expect(got.body.text).toContain('The tide gauges in Brest have recorded');
    expect(got.body.text).not.toContain('Copyright');
    expect(got.body.length).toBe(got.body.text.length);
    // Sanitised: no script, no handler; the image's address made absolute for the reader.
    expect(got.body.html).not.toMatch(/script|onerror|window\.bad/);
    expect(got.body.html).toContain('src="https://example.com/img/gauge.png"');
    expect(got.body.updated).toMatch(/^\d{4}-\d\d-\d\dT/);

    const single = await s.api('GET', `/bookmark/${bookmark._id}`, { token: owner.token });
    expect(single.body.item.article).toEqual({ status: 'indexed', error: '' });
  });

  it('is found by a phrase of its text, with a snippet that marks the words, ranked below title matches', async () => {
    // Made later, so it would come first newest-first: relevance must still put it below.
    const titled = await createBookmark(s, owner, -1, { link: 'https://example.com/surge', title: 'Storm surges explained' });
    const [textOnly] = (await searchIds(owner.token, '"float gauge"')).map((b) => b);
    expect(textOnly?.title).toBe('Sea level records');
    expect(textOnly?.snippet).toMatch(/<mark>float gauge<\/mark>/);
    expect(textOnly?.article?.status).toBe('indexed');

    const ranked = await searchIds(owner.token, 'storm surges', '&sort=score');
    expect(ranked.map((b) => b.title)).toEqual(['Storm surges explained', 'Sea level records']);
    expect(ranked[0]!.snippet).toBeUndefined();
    expect(ranked[1]!.snippet).toContain('<mark>Storm</mark> <mark>surges</mark>');

    // Words are whole words in page text; other operators are unchanged.
    expect(await searchIds(owner.token, 'centur')).toEqual([]);
    expect((await searchIds(owner.token, 'centuries -#none')).map((b) => b.title)).toEqual(['Sea level records']);
    expect(await searchIds(owner.token, 'title:centuries')).toEqual([]);
    expect(titled.article.status).toBe('pending');
  });

  it('escapes the page text in snippets', async () => {
    const b = await createBookmark(s, owner, -1, { link: 'https://example.com/html-talk', title: 'Markup talk' });
    const put = await upload(owner.token, b._id, page('Markup', ['Write &lt;script&gt;alert("zebrafish")&lt;/script&gt; to test escaping of zebrafish.']));
    expect(put.status).toBe(200);
    const [hit] = await searchIds(owner.token, 'zebrafish');
    expect(hit?.snippet).toContain('&#60;script&#62;alert(&#34;<mark>zebrafish</mark>&#34;)');
    expect(hit?.snippet).not.toContain('<script');
  });

  it('is searched by collaborators of a shared collection, and by nobody else', async () => {
    const shared = await createCollection(s, owner, 'Oceanography');
    await share(s, owner, shared, member, 'viewer');
    const b = await createBookmark(s, owner, shared, { link: 'https://example.com/ocean/amphidromic', title: 'Ocean notes' });
    expect((await upload(owner.token, b._id, page('Amphidromic points', ['Around an amphidromic point the tidal range is zero.']))).status).toBe(200);

    const seen = await searchIds(member.token, 'amphidromic');
    expect(seen.map((x) => x._id)).toEqual([b._id]);
    expect(seen[0]!.snippet).toContain('<mark>amphidromic</mark>');
    expect((await s.api('GET', `/bookmark/${b._id}/article`, { token: member.token })).body.status).toBe('indexed');

    expect(await searchIds(stranger.token, 'amphidromic')).toEqual([]);
    const refused = await s.api('GET', `/bookmark/${b._id}/article`, { token: stranger.token });
    expect([403, 404]).toContain(refused.status);
    expect(refused.body.result).toBe(false);
    expect(JSON.stringify(refused.body)).not.toContain('amphidromic');
    // A viewer may read, not replace, the text.
    const write = await upload(member.token, b._id, page('Mine now', ['replaced']));
    expect(write.status).toBe(403);
  });

  it('refuses an upload over the size limit with 413, and cuts text past the cap', async () => {
    const b = await createBookmark(s, owner, -1, { link: 'https://example.com/huge', title: 'Huge' });
    const tooBig = await upload(owner.token, b._id, 'x'.repeat(ARTICLE_UPLOAD_MAX_BYTES + 1));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.result).toBe(false);
    expect(tooBig.body.errorMessage).toMatch(/larger than 5 MB/);

    const words = Array.from({ length: ARTICLE_TEXT_MAX_CHARS / 30 + 2000 }, (_, i) => `word${i} lorem ipsum dolor sit amet.`);
    const long = page('Long', [words.join(' ')]);
    expect(long.length).toBeLessThan(ARTICLE_UPLOAD_MAX_BYTES);
    const put = await upload(owner.token, b._id, long);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const got = (await s.api('GET', `/bookmark/${b._id}/article`, { token: owner.token })).body;
    expect(got.truncated).toBe(true);
    expect(got.length).toBeLessThanOrEqual(ARTICLE_TEXT_MAX_CHARS);
    expect(got.length).toBeGreaterThan(ARTICLE_TEXT_MAX_CHARS - 200);
  });

  it('answers bad input with a clear error and stores nothing', async () => {
    const b = await createBookmark(s, owner, -1, { link: 'https://example.com/bad', title: 'Bad input' });
    const cases: [unknown, number, RegExp][] = [
      [{ html: '<p>x</p>' }, 400, /url/],
      [{ html: '', url: 'https://example.com/' }, 400, /html/],
      [{ html: '<p>x</p>', url: 'javascript:alert(1)' }, 400, /http/],
      [{ html: 42, url: 'https://example.com/' }, 400, /html/],
    ];
    for (const [body, status, message] of cases) {
      const res = await s.api('PUT', `/bookmark/${b._id}/article`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({ result: false, errorMessage: expect.stringMatching(message) });
    }
    const deep = `<!doctype html><body>${'<div>'.repeat(5000)}deep${'</div>'.repeat(5000)}</body>`;
    const refused = await upload(owner.token, b._id, deep);
    expect(refused.status).toBe(422);
    expect(refused.body.errorMessage).toMatch(/nested too deeply/);
    expect((await s.api('GET', `/bookmark/${b._id}/article`, { token: owner.token })).body.status).toBe('pending');

    expect((await upload(owner.token, 999999, page('x', ['y']))).status).toBe(404);
    expect((await s.api('GET', '/bookmark/999999/article', { token: owner.token })).status).toBe(404);
    expect((await s.api('GET', `/bookmark/${b._id}/article`, { token: null })).status).toBe(401);
  });

  it('is asked for again by retry, and never replaced by the server fetch after the extension sent it', async () => {
    const b = await createBookmark(s, owner, -1, { link: 'https://example.com/retry', title: 'Retry me' });
    await s.app.repos.articles.markFailed(b._id, 'The site answered 403 (forbidden).', null);
    const failed = await s.api('GET', `/bookmark/${b._id}`, { token: owner.token });
    expect(failed.body.item.article).toEqual({ status: 'failed', error: 'The site answered 403 (forbidden).' });

    const retry = await s.api('POST', `/bookmark/${b._id}/article/retry`, { token: owner.token });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ result: true, status: 'pending', error: '' });
    const due = await s.app.repos.articles.claimDue(100, Date.now() + 60_000);
    expect(due.map((d) => d.bookmarkId)).toContain(b._id);
    expect(due.find((d) => d.bookmarkId === b._id)).toMatchObject({ link: 'https://example.com/retry', userId: owner.id });
    // Leased: a second runner does not take it again.
    expect((await s.app.repos.articles.claimDue(100, Date.now() + 60_000)).map((d) => d.bookmarkId)).not.toContain(b._id);

    expect((await upload(owner.token, b._id, page('From the browser', ['Seen behind the login wall.']))).status).toBe(200);
    const fromServer = { title: 'From the server', byline: '', siteName: '', html: '<p>login page</p>', text: 'login page', truncated: false };
    expect(await s.app.repos.articles.store(b._id, fromServer, 'server')).toBe(false);
    expect((await s.api('GET', `/bookmark/${b._id}/article`, { token: owner.token })).body.title).toBe('From the browser');

    // Another address is another page: asked for again.
    const moved = await s.api('PUT', `/bookmark/${b._id}`, { token: owner.token, body: { link: 'https://example.com/elsewhere' } });
    expect(moved.body.item.article).toEqual({ status: 'pending', error: '' });
    const renamed = await s.api('PUT', `/bookmark/${b._id}`, { token: owner.token, body: { title: 'Renamed' } });
    expect(renamed.body.item.article.status).toBe('pending');
  });

  it('goes with its bookmark when the bookmark is deleted', async () => {
    const b = await createBookmark(s, owner, -1, { link: 'https://example.com/gone', title: 'Soon gone' });
    expect((await upload(owner.token, b._id, page('Gone', ['A quokka smiles at the camera.']))).status).toBe(200);
    expect((await searchIds(owner.token, 'quokka')).length).toBe(1);
    // SQLite keeps the packed article in parts of their own table.
    const parts = () => s.sql('SELECT part FROM article_content WHERE bookmark_id = ?', b._id);
    if (!onPostgres) expect((await parts()).length).toBeGreaterThan(0);
    expect((await s.api('DELETE', `/bookmark/${b._id}`, { token: owner.token })).status).toBe(200);
    expect((await s.api('DELETE', `/bookmark/${b._id}`, { token: owner.token })).status).toBe(200);
    expect(await s.sql('SELECT bookmark_id FROM article_texts WHERE bookmark_id = ?', b._id)).toEqual([]);
    if (!onPostgres) expect(await parts()).toEqual([]);
    expect(await searchIds(owner.token, 'quokka')).toEqual([]);
    expect((await s.api('GET', `/bookmark/${b._id}/article`, { token: owner.token })).status).toBe(404);
  });

  it('has its routes in the OpenAPI document', async () => {
    const doc = (await s.api('GET', '/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(['/rest/v1/bookmark/{id}/article', '/rest/v1/bookmark/{id}/article/retry']));
    const item = doc.paths['/rest/v1/bookmark/{id}/article'];
    expect(Object.keys(item)).toEqual(expect.arrayContaining(['get', 'put']));
    expect(JSON.stringify(item.get.responses['200'])).toContain('siteName');
  });
});
