// A public collection on the web: a read-only page anyone can open (no scripts needed, none allowed),
// and an Atom feed of its newest bookmarks. Its address is in the collection's API item while it
// is public. Private, removed and unknown collections all answer 404; private children and
// highlights never show; everything shown is escaped.
import { DomUtils, parseDocument } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

let s: TestServer;
let owner: { id: number; token: string; email: string };
const password = 'correct horse battery';
const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
let pub: { _id: number; title: string; publicUrl?: string };
let privateChild: { _id: number };
let publicChild: { _id: number };
let secret: { _id: number };

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(s.origin + path, { redirect: 'manual', headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

beforeAll(async () => {
  s = await startServer();
  owner = await s.createUser(undefined, { password });
  pub = await s.createItem('/collection', owner.token, { title: `Reading ${HOSTILE}`, public: true, cover: ['https://img.example/cover.png'] });
  privateChild = await s.createItem('/collection', owner.token, { title: 'Private child', parent: { $id: pub._id } });
  publicChild = await s.createItem('/collection', owner.token, { title: 'Public child', parent: { $id: pub._id }, public: true });
  secret = await s.createItem('/collection', owner.token, { title: 'Secret' });
  await s.createItem('/bookmark', owner.token, {
    link: 'https://example.com/hostile?a=1&b=2',
    title: HOSTILE,
    excerpt: `excerpt ${HOSTILE}`,
    note: `note ${HOSTILE}\nsecond line`,
    tags: ['<b>tag</b>', 'plain'],
    collection: { $id: pub._id },
    highlights: [{ text: 'HIGHLIGHTED-PASSAGE', note: 'HIGHLIGHT-NOTE', color: 'yellow' }],
  });
  await s.createItem('/bookmark', owner.token, { link: 'https://example.org/second', title: 'Second page', collection: { $id: pub._id } });
  await s.createItem('/bookmark', owner.token, { link: 'https://example.net/in-private-child', title: 'PRIVATE-CHILD-BOOKMARK', collection: { $id: privateChild._id } });
  await s.createItem('/bookmark', owner.token, { link: 'https://example.net/in-secret', title: 'SECRET-BOOKMARK', collection: { $id: secret._id } });
  pub = (await s.api('GET', `/collection/${pub._id}`, { token: owner.token })).body.item;
});
afterAll(async () => s.close());

describe('publicUrl in the API', () => {
  it('is the page address while public, and absent otherwise', async () => {
    expect(pub.publicUrl).toBe(`${s.origin}/c/${pub._id}-reading-script-alert-1-script-img-src-x-onerror-alert-2`);
    const secretItem = (await s.api('GET', `/collection/${secret._id}`, { token: owner.token })).body.item;
    expect(secretItem).not.toHaveProperty('publicUrl');
    const roots = (await s.api('GET', '/collections', { token: owner.token })).body.items;
    expect(roots.find((c: { _id: number }) => c._id === pub._id).publicUrl).toBe(pub.publicUrl);
    const children = (await s.api('GET', '/collections/childrens', { token: owner.token })).body.items;
    expect(children.find((c: { _id: number }) => c._id === privateChild._id)).not.toHaveProperty('publicUrl');
    expect(children.find((c: { _id: number }) => c._id === publicChild._id).publicUrl).toBe(`${s.origin}/c/${publicChild._id}-public-child`);
  });

  it('is in the OpenAPI document, as an optional field of Collection', async () => {
    const doc = (await s.api('GET', '/openapi.json')).body;
    const text = JSON.stringify(doc);
    expect(text).toContain('publicUrl');
    expect(text).toMatch(/"publicUrl":\{"description":"Beyond the spec/);
  });
});

describe('the public page', () => {
  it('shows title, cover, public children and bookmarks to anyone, escaped, and never highlights or private children', async () => {
    const page = await get(new URL(pub.publicUrl!).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');

    expect(page.text).not.toContain('<script>');
    expect(page.text).not.toContain('<img src=x');
    const { document } = parseHTML(page.text);
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(document.querySelectorAll('[onerror]')).toHaveLength(0);
    expect(document.querySelector('h1')!.textContent).toBe(`Reading ${HOSTILE}`);
    expect(document.querySelector('img.cover')!.getAttribute('src')).toBe('https://img.example/cover.png');
    const items = [...document.querySelectorAll('ul.bookmarks > li')];
    expect(items).toHaveLength(2);
    const first = items.find((li) => li.textContent!.includes('onerror'))!;
    const link = first.querySelector('h2 a')!;
    expect(link.textContent).toBe(HOSTILE);
    expect(link.getAttribute('href')).toBe('https://example.com/hostile?a=1&b=2');
    expect(first.querySelector('.domain')!.textContent).toBe('example.com');
    expect(first.querySelector('.excerpt')!.textContent).toBe(`excerpt ${HOSTILE}`);
    expect(first.querySelector('.note')!.textContent).toBe(`Note: note ${HOSTILE}\nsecond line`);
    expect([...first.querySelectorAll('.tags li')].map((t) => t.textContent)).toEqual(['#<b>tag</b>', '#plain']);
    expect(page.text).not.toContain('HIGHLIGHTED-PASSAGE');
    expect(page.text).not.toContain('HIGHLIGHT-NOTE');
    expect(page.text).not.toContain('PRIVATE-CHILD-BOOKMARK');
    expect(page.text).not.toContain('Private child');
    const children = [...document.querySelectorAll('nav[aria-label="Collections inside"] a')];
    expect(children.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['Public child', `/c/${publicChild._id}-public-child`]]);
    const alternate = document.querySelector('link[rel="alternate"][type="application/atom+xml"]')!;
    expect(alternate.getAttribute('href')).toBe(`/c/${pub._id}/feed.atom`);
  });

  it('leads an address with an old or missing slug to the current one', async () => {
    for (const p of [`/c/${pub._id}`, `/c/${pub._id}-old-name`]) {
      const res = await get(p);
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe(new URL(pub.publicUrl!).pathname);
    }
  });

  it('answers 404, alike, for a private, an unknown, a private child\'s, a removed and a malformed address', async () => {
    const gone = await s.createItem('/collection', owner.token, { title: 'Gone soon', public: true });
    expect((await get(`/c/${gone._id}-gone-soon`)).status).toBe(200);
    await s.api('DELETE', `/collection/${gone._id}`, { token: owner.token });
    const pages = [`/c/${secret._id}`, `/c/${secret._id}-secret`, `/c/${privateChild._id}-private-child`, '/c/999999', `/c/${gone._id}-gone-soon`, '/c/abc', '/c/0', '/c/-1', '/c/01'];
    const bodies = new Set<string>();
    for (const p of pages) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain('SECRET-BOOKMARK');
      bodies.add(res.text.replace(/value="[^"]*"/g, ''));
    }
    expect(bodies.size).toBe(1);
    for (const p of [`/c/${secret._id}/feed.atom`, `/c/${privateChild._id}/feed.atom`, '/c/999999/feed.atom']) expect((await get(p)).status, p).toBe(404);
  });

  it('stops answering once made private, and publicUrl goes', async () => {
    const c = await s.createItem('/collection', owner.token, { title: 'Briefly public', public: true });
    expect((await get(`/c/${c._id}-briefly-public`)).status).toBe(200);
    const updated = await s.api('PUT', `/collection/${c._id}`, { token: owner.token, body: { public: false } });
    expect(updated.body.item).not.toHaveProperty('publicUrl');
    expect((await get(`/c/${c._id}-briefly-public`)).status).toBe(404);
    expect((await get(`/c/${c._id}/feed.atom`)).status).toBe(404);
  });

  it('pages long collections, 50 bookmarks a page, with links between pages', async () => {
    const big = await s.createItem('/collection', owner.token, { title: 'Big', public: true });
    const items = Array.from({ length: 60 }, (_, i) => ({ link: `https://example.com/big/${i}`, title: `Big ${i}`, collection: { $id: big._id } }));
    expect((await s.api('POST', '/bookmarks', { token: owner.token, body: { items: items.slice(0, 50) } })).status).toBe(200);
    expect((await s.api('POST', '/bookmarks', { token: owner.token, body: { items: items.slice(50) } })).status).toBe(200);
    const first = parseHTML((await get(`/c/${big._id}-big`)).text).document;
    expect(first.querySelectorAll('ul.bookmarks > li')).toHaveLength(50);
    expect(first.querySelector('a[rel="next"]')!.getAttribute('href')).toBe(`/c/${big._id}-big?page=1`);
    const second = parseHTML((await get(`/c/${big._id}-big?page=1`)).text).document;
    expect(second.querySelectorAll('ul.bookmarks > li')).toHaveLength(10);
    expect(second.querySelector('a[rel="prev"]')!.getAttribute('href')).toBe(`/c/${big._id}-big`);
    const past = await get(`/c/${big._id}-big?page=7`);
    expect(past.status).toBe(200);
    expect(past.text).toContain('There is no page 8');
  });

  it('shows a signed-in visitor the page too, kept out of every cache', async () => {
    const web = new WebClient(s.origin);
    await web.signIn(owner.email, password);
    const res = await web.get(new URL(pub.publicUrl!).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('does not turn a saved javascript: link into a link', async () => {
    const c = await s.createItem('/collection', owner.token, { title: 'Odd links', public: true });
    // Stored straight, as an import from an old file could have it.
    const b = await s.createItem('/bookmark', owner.token, { link: 'https://example.com/odd', title: 'Odd', collection: { $id: c._id } });
    await s.sql('UPDATE bookmarks SET link = ? WHERE id = ?', 'javascript:alert(document.cookie)', b._id);
    const { document } = parseHTML((await get(`/c/${c._id}-odd-links`)).text);
    expect(document.querySelector('ul.bookmarks h2')!.textContent).toBe('Odd');
    expect(document.querySelector('ul.bookmarks a')).toBeNull();
    const feed = parseDocument((await get(`/c/${c._id}/feed.atom`)).text, { xmlMode: true });
    expect(DomUtils.getElementsByTagName('link', DomUtils.getElementsByTagName('entry', feed)[0])).toHaveLength(0);
  });
});

describe('the Atom feed', () => {
  it('is valid Atom 1.0 of the newest bookmarks, escaped, without highlights or private children', async () => {
    const res = await get(`/c/${pub._id}/feed.atom`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(res.text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(res.text).not.toContain('<script>');
    expect(res.text).not.toContain('HIGHLIGHTED-PASSAGE');
    expect(res.text).not.toContain('PRIVATE-CHILD-BOOKMARK');

    const doc = parseDocument(res.text, { xmlMode: true });
    const feed = DomUtils.getElementsByTagName('feed', doc)[0];
    expect(feed.attribs.xmlns).toBe('http://www.w3.org/2005/Atom');
    const child = (el: typeof feed, name: string) => DomUtils.getChildren(el).find((c) => (c as typeof feed).name === name) as typeof feed | undefined;
    const text = (el: typeof feed, name: string) => DomUtils.textContent(child(el, name)!);
    expect(text(feed, 'id')).toBe(`${s.origin}/c/${pub._id}`);
    expect(text(feed, 'title')).toBe(`Reading ${HOSTILE}`);
    expect(Number.isNaN(Date.parse(text(feed, 'updated')))).toBe(false);
    expect(DomUtils.textContent(child(child(feed, 'author')!, 'name')!)).toBe('Tidemark');
    const links = DomUtils.getChildren(feed).filter((c) => (c as typeof feed).name === 'link') as (typeof feed)[];
    expect(links.map((l) => [l.attribs.rel, l.attribs.href])).toEqual([
      ['self', `${s.origin}/c/${pub._id}/feed.atom`],
      ['alternate', pub.publicUrl],
    ]);
    const entries = DomUtils.getChildren(feed).filter((c) => (c as typeof feed).name === 'entry') as (typeof feed)[];
    expect(entries).toHaveLength(2);
    const ids = entries.map((e) => text(e, 'id'));
    expect(new Set(ids).size).toBe(2);
    for (const e of entries) {
      for (const name of ['id', 'title', 'updated', 'summary']) expect(child(e, name), name).toBeDefined();
      expect(Number.isNaN(Date.parse(text(e, 'updated')))).toBe(false);
    }
    const hostile = entries.find((e) => text(e, 'title') === HOSTILE)!;
    expect(child(hostile, 'link')!.attribs.href).toBe('https://example.com/hostile?a=1&b=2');
    expect(text(hostile, 'summary')).toBe(`excerpt ${HOSTILE}`);
    expect(text(hostile, 'content')).toBe(`note ${HOSTILE}\nsecond line`);
    const terms = DomUtils.getElementsByTagName('category', hostile).map((c) => c.attribs.term);
    expect(terms).toEqual(['<b>tag</b>', 'plain']);
  });

  it('keeps a feed readable when a title holds characters XML cannot carry', async () => {
    const c = await s.createItem('/collection', owner.token, { title: 'Control \u0001 chars', public: true });
    await s.createItem('/bookmark', owner.token, { link: 'https://example.com/ctl', title: 'Bell \u0007 here', collection: { $id: c._id } });
    const res = await get(`/c/${c._id}/feed.atom`);
    // eslint-disable-next-line no-control-regex -- the characters that must not appear
    expect(res.text).not.toMatch(/[\u0000-\u0008]/);
    const doc = parseDocument(res.text, { xmlMode: true });
    expect(DomUtils.textContent(DomUtils.getElementsByTagName('title', DomUtils.getElementsByTagName('entry', doc)[0])[0])).toBe('Bell  here');
  });
});
