import type { ServerResponse } from 'node:http';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEXT_JOB_SETTINGS } from '../../server/config.js';
import type { Article } from '../../lib/api/schemas/article.js';
import { respond, startPageServer, type PageServer } from '../fixtures/import/page-server.js';
import { makePdf } from '../helpers/make-pdf.js';
import { startServer, TestClock, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { upload } from './upload-client.js';

// The text job over real HTTP: a bookmark made through the API gets its page read from a local
// site by the job, in the charset the page declares, a PDF made here has its text and pages, an
// image is said to have none, a refusing site keeps its status in the reason and is tried again
// when its backoff is over (time moved by the server's clock), and one site never sees two of the
// job's requests at once.

const html = (charset = 'utf-8') => ({ 'content-type': `text/html; charset=${charset}` });
const article = (title: string, body: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `${[1, 2, 3].map((n) => `<p>${body} Paragraph ${n} of a story long enough for a reader view to treat it as an article, with <a href="/more-${n}">words</a> and more words.</p>`).join('')}</article></body></html>`;

const RUSSIAN = 'Приливомер в Бресте работает с 1711 года';
const JAPANESE = '潮位観測の長い歴史について';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

let site: PageServer;
let other: PageServer;
let s: TestServer;
const clock = new TestClock(Date.now());
let token: string;
let forbidden = true;
/** requests the site is answering now, and the most it ever answered at once */
let open = 0;
let mostOpen = 0;
const heldSerial: ServerResponse[] = [];

/** An answer on the next turn of the event loop, counted while open, so overlapping requests show. */
const counted = (body: string) => (_req: unknown, res: ServerResponse) => {
  open++;
  mostOpen = Math.max(mostOpen, open);
  res.on('close', () => open--);
  setImmediate(() => res.writeHead(200, html()).end(body));
};

beforeAll(async () => {
  site = await startPageServer({
    '/tide-gauges': respond(200, html(), article('Tide gauges', 'The tide gauges in Brest record the sea level every minute.')),
    '/cyrillic': respond(200, html('windows-1251'), iconv.encode(article('Брест', RUSSIAN), 'windows-1251')),
    '/japanese': respond(
      200,
      { 'content-type': 'text/html' },
      iconv.encode(article('潮位', JAPANESE).replace('<head>', '<head><meta charset="Shift_JIS">'), 'shift_jis'),
    ),
    '/report.pdf': respond(200, { 'content-type': 'application/pdf' }, makePdf(['Mean sea level at Brest rose by 20 cm.', 'Page two: method.'], 'Brest sea level report')),
    '/photo': respond(200, { 'content-type': 'image/png' }, PNG),
    '/deep': respond(200, html(), `<!DOCTYPE html><title>Deep</title><body>${'<div>'.repeat(10_000)}bottom${'</div>'.repeat(10_000)}</body>`),
    '/forbidden': (_req, res) => {
      if (forbidden) res.writeHead(403, html()).end('<title>No robots</title>');
      else res.writeHead(200, html()).end(article('Let in', 'The gatekeeper let the reader in at last.'));
    },
    '/held': (_req, res) => {
      heldSerial.push(res);
    },
    ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`/serial-${n}`, counted(article(`Serial ${n}`, `Serial page number ${n} speaks of harbours.`))])),
  });
  other = await startPageServer({ '/elsewhere': respond(200, html(), article('Elsewhere', 'Another site entirely, read beside the first.')) });
  s = await startServer({
    allowPrivateNetwork: true,
    clock,
    textJob: { ...DEFAULT_TEXT_JOB_SETTINGS, pollMs: 20, hostDelayMs: 5, concurrency: 4, backoffMs: 60_000 },
  });
  token = (await s.createUser()).token;
});

afterAll(async () => {
  await s?.close();
  await site?.close();
  await other?.close();
});

/** Saves a bookmark through the API, as any client but the extension would, and lets its grace period pass. */
async function save(link: string): Promise<number> {
  const item = await s.createItem('/bookmark', token, { link });
  clock.advance(16_000);
  return item._id as number;
}

/** GET /bookmark/{id}/article once the job has dealt with the bookmark (indexed or none). */
const settled = (id: number) =>
  until(async () => {
    const res = await s.api<Article>('GET', `/bookmark/${id}/article`, { token });
    expect(res.status).toBe(200);
    return res.body.status === 'indexed' || res.body.status === 'none' ? res.body : undefined;
  });

const failed = (id: number, attempts = 1) =>
  until(async () => {
    const row = await s.app.repos.articles.get(id);
    return row?.status === 'failed' && row.attempts >= attempts ? row : undefined;
  });

describe('the text job', () => {
  it('reads the page of a bookmark saved through the API, which search then finds by its text', async () => {
    const id = await save(`${site.origin}/tide-gauges`);
    const row = await settled(id);
    expect(row).toMatchObject({ status: 'indexed', source: 'server', title: 'Tide gauges', error: '', truncated: false });
    expect(row.text).toContain('The tide gauges in Brest record the sea level every minute.');
    expect(row.html).toContain(`<a href="${site.origin}/more-1" rel="noopener noreferrer">words</a>`);
    const found = await s.api('GET', `/bookmarks/0?search=${encodeURIComponent('"sea level every minute"')}`, { token });
    expect(found.body.items.map((b: { _id: number }) => b._id)).toEqual([id]);
    expect(found.body.items[0].snippet).toContain('<mark>sea level every minute</mark>');
  });

  it('decodes a windows-1251 page by its Content-Type header', async () => {
    const row = await settled(await save(`${site.origin}/cyrillic`));
    expect(row.status).toBe('indexed');
    expect(row.text).toContain(RUSSIAN);
  });

  it('decodes a Shift_JIS page by its <meta charset>', async () => {
    const row = await settled(await save(`${site.origin}/japanese`));
    expect(row.status).toBe('indexed');
    expect(row.text).toContain(JAPANESE);
  });

  it('reads a PDF\'s text and page count', async () => {
    const row = await settled(await save(`${site.origin}/report.pdf`));
    expect(row).toMatchObject({ status: 'indexed', title: 'Brest sea level report', pageCount: 2 });
    expect(row.text).toBe('Mean sea level at Brest rose by 20 cm.\n\nPage two: method.');
  });

  it('reads an uploaded PDF from the file storage, and says an uploaded image has no text', async () => {
    const pdf = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'minutes.pdf', content: makePdf(['Harbour board minutes: dredging approved.']), type: 'application/pdf' }], token);
    const png = await upload(s, 'PUT', '/bookmark/file', [{ name: 'file', filename: 'chart.png', content: PNG, type: 'image/png' }], token);
    clock.advance(16_000);
    expect(await settled(pdf.body.item._id)).toMatchObject({ status: 'indexed', title: 'minutes.pdf', pageCount: 1, text: 'Harbour board minutes: dredging approved.' });
    expect(await settled(png.body.item._id)).toMatchObject({ status: 'none', error: 'this is an image: no text' });
  });

  it('says an image has no text', async () => {
    const row = await settled(await save(`${site.origin}/photo`));
    expect(row).toMatchObject({ status: 'none', error: 'this is an image: no text', text: '' });
  });

  it('fails a page nested 10,000 deep for good, saying why', async () => {
    const id = await save(`${site.origin}/deep`);
    const row = await failed(id);
    expect(row.next_attempt_at).toBeNull();
    const shown = (await s.api<Article>('GET', `/bookmark/${id}/article`, { token })).body;
    expect(shown).toMatchObject({ status: 'failed', text: '', error: 'the page cannot be read: The page is nested too deeply to read (more than 512 levels).' });
    expect(site.hits.get('/deep')).toBe(1);
  });

  it('keeps a refusing site\'s status in the reason, and tries again once the backoff is over', async () => {
    forbidden = true;
    const id = await save(`${site.origin}/forbidden`);
    const first = await failed(id);
    expect(first.next_attempt_at).toBe(clock.now() + 60_000);
    const shown = (await s.api<Article>('GET', `/bookmark/${id}/article`, { token })).body;
    expect(shown).toMatchObject({ status: 'failed', text: '' });
    expect(shown.error).toMatch(/^the site answered 403 \(Forbidden\)/);
    expect(site.hits.get('/forbidden')).toBe(1);

    // Not before its time: another bookmark read meanwhile shows the job ran and left it alone.
    const later = await save(`${other.origin}/elsewhere`);
    // Links resolve against each page's own address, though one worker reads both sites.
    expect((await settled(later)).html).toContain(`href="${other.origin}/more-1"`);
    expect(site.hits.get('/forbidden')).toBe(1);

    forbidden = false;
    clock.advance(60_000);
    const row = await settled(id);
    expect(row).toMatchObject({ status: 'indexed', error: '' });
    expect(row.text).toContain('The gatekeeper let the reader in at last.');
    expect((await s.app.repos.articles.get(id))?.attempts).toBe(0);
    expect(site.hits.get('/forbidden')).toBe(2);
  });

  it('never sends one site two requests at once', async () => {
    mostOpen = 0;
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4, 5, 6]) ids.push((await s.createItem('/bookmark', token, { link: `${site.origin}/serial-${n}` }))._id);
    clock.advance(16_000);
    const rows = await Promise.all(ids.map(settled));
    expect(rows.map((r) => r.status)).toEqual(Array(6).fill('indexed'));
    expect(mostOpen).toBe(1);
  });

  it('hands a page being read back to the queue, uncounted, when the server stops', async () => {
    const id = await save(`${site.origin}/held`);
    await until(() => heldSerial.length === 1);
    expect((await s.app.repos.articles.get(id))?.attempts).toBe(1);
    await s.app.services.textJob.stop();
    const row = await s.app.repos.articles.get(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    // Due again at once: the next start (or another instance) reads it.
    expect(await s.app.repos.articles.claimDue(10, clock.now(), 1000)).toEqual([expect.objectContaining({ bookmarkId: id })]);
  });
});
