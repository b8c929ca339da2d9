import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeUrl } from '../../lib/api/url.js';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /rest/v1/links: the compact saved-link index behind the extension's badge (beyond the spec).
let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.close());

async function create(token: string, link: string, extra: Record<string, unknown> = {}): Promise<number> {
  return (await s.createItem('/bookmark', token, { link, ...extra }))._id;
}

async function links(token: string, query = '') {
  const res = await s.api('GET', `/links${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { result: true; items: [number, string, number][]; removed?: number[]; cursor: number; more: boolean };
}

describe('GET /links (full listing)', () => {
  it('lists the caller\'s saved links as [id, link key, collection id] with the same key url/exists uses', async () => {
    const u = await s.createUser();
    const other = await s.createUser();
    await create(other.token, 'https://other.example/');
    const col = (await s.api('POST', '/collection', { token: u.token, body: { title: 'Reading' } })).body.item._id;
    const a = await create(u.token, 'https://WWW.Example.com/a/?utm_source=x#top');
    const b = await create(u.token, 'https://example.com/b', { collection: { $id: col } });
    const body = await links(u.token);
    expect(body.result).toBe(true);
    expect(body.items).toEqual([
      [a, normalizeUrl('https://example.com/a'), -1],
      [b, 'example.com/b', col],
    ]);
    expect(body.more).toBe(false);
    expect(body.cursor).toBeGreaterThan(0);
    const exists = await s.api('POST', '/import/url/exists', { token: u.token, body: { urls: ['http://example.com/a'] } });
    expect(exists.body.ids).toEqual([a]);
  });

  it('leaves out bookmarks in Trash and pages with after/limit', async () => {
    const u = await s.createUser();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await create(u.token, `https://paged.example/${i}`));
    await s.api('DELETE', `/bookmark/${ids[1]}`, { token: u.token });
    const first = await links(u.token, '?limit=2');
    expect(first.items.map((e) => e[0])).toEqual([ids[0], ids[2]]);
    expect(first.more).toBe(true);
    const second = await links(u.token, `?limit=2&after=${ids[2]}`);
    expect(second.items.map((e) => e[0])).toEqual([ids[3], ids[4]]);
    const third = await links(u.token, `?limit=2&after=${ids[4]}`);
    expect(third.items).toEqual([]);
    expect(third.more).toBe(false);
  });

  it('needs a token and validates its parameters', async () => {
    expect((await s.api('GET', '/links')).status).toBe(401);
    const u = await s.createUser();
    const bad = await s.api('GET', '/links?since=-1', { token: u.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toMatch(/since/);
    expect((await s.api('GET', '/links?limit=100000', { token: u.token })).status).toBe(400);
  });
});

describe('GET /links?since=<cursor> (changes)', () => {
  it('reports new, moved, trashed, restored, relinked and deleted bookmarks since the cursor', async () => {
    const u = await s.createUser();
    const kept = await create(u.token, 'https://changes.example/kept');
    const trashed = await create(u.token, 'https://changes.example/trashed');
    const deleted = await create(u.token, 'https://changes.example/deleted');
    const { cursor } = await links(u.token);

    const none = await links(u.token, `?since=${cursor}`);
    expect(none).toMatchObject({ items: [], removed: [], more: false });
    expect(none.cursor).toBeGreaterThanOrEqual(cursor);

    const added = await create(u.token, 'https://changes.example/added');
    const col = (await s.api('POST', '/collection', { token: u.token, body: { title: 'Moved here' } })).body.item._id;
    await s.api('PUT', `/bookmark/${kept}`, { token: u.token, body: { collection: { $id: col } } });
    await s.api('DELETE', `/bookmark/${trashed}`, { token: u.token });
    await s.api('DELETE', `/bookmark/${deleted}`, { token: u.token });
    await s.api('DELETE', `/bookmark/${deleted}`, { token: u.token }); // from Trash: gone for good
    // A change that touches neither the index nor the title (a note) is not reported.
    const untouched = await create(u.token, 'https://changes.example/untouched');
    const mid = await links(u.token, `?since=${cursor}`);
    await s.api('PUT', `/bookmark/${untouched}`, { token: u.token, body: { note: 'n' } });

    const changes = await links(u.token, `?since=${mid.cursor}`);
    expect(changes.items).toEqual([]);
    expect(changes.removed).toEqual([]);

    expect(mid.items).toEqual(
      expect.arrayContaining([
        [added, 'changes.example/added', -1],
        [kept, 'changes.example/kept', col],
        [untouched, 'changes.example/untouched', -1],
      ]),
    );
    expect(mid.items).toHaveLength(3);
    expect(mid.removed!.sort()).toEqual([trashed, deleted].sort());

    // Restored from Trash and relinked: both come back as entries with their current key.
    await s.api('PUT', `/bookmark/${trashed}`, { token: u.token, body: { collection: { $id: -1 } } });
    await s.api('PUT', `/bookmark/${kept}`, { token: u.token, body: { link: 'https://changes.example/kept-moved' } });
    const later = await links(u.token, `?since=${mid.cursor}`);
    expect(later.items).toEqual([
      [trashed, 'changes.example/trashed', -1],
      [kept, 'changes.example/kept-moved', col],
    ]);
    expect(later.removed).toEqual([]);
  });

  it('reports a changed title (the browser-bookmarks sync pulls titles), and nothing for other fields', async () => {
    const u = await s.createUser();
    const id = await create(u.token, 'https://titled.example/', { title: 'First' });
    const { cursor } = await links(u.token, '?since=0');
    await s.api('PUT', `/bookmark/${id}`, { token: u.token, body: { note: 'a note is not in the feed' } });
    expect((await links(u.token, `?since=${cursor}`)).items).toEqual([]);
    await s.api('PUT', `/bookmark/${id}`, { token: u.token, body: { title: 'Renamed' } });
    expect((await links(u.token, `?since=${cursor}`)).items).toEqual([[id, 'titled.example/', -1]]);
  });

  it('keeps one change per bookmark (the newest) and pages through changes with more/cursor', async () => {
    const u = await s.createUser();
    const { cursor } = await links(u.token);
    const a = await create(u.token, 'https://paging-changes.example/a');
    const b = await create(u.token, 'https://paging-changes.example/b');
    const c = await create(u.token, 'https://paging-changes.example/c');
    await s.api('DELETE', `/bookmark/${a}`, { token: u.token }); // a's newest change is now its removal
    const page1 = await links(u.token, `?since=${cursor}&limit=2`);
    expect(page1.items).toEqual([[b, 'paging-changes.example/b', -1], [c, 'paging-changes.example/c', -1]]);
    expect(page1.removed).toEqual([]);
    expect(page1.more).toBe(true);
    const page2 = await links(u.token, `?since=${page1.cursor}&limit=2`);
    expect(page2.items).toEqual([]);
    expect(page2.removed).toEqual([a]);
    expect(page2.more).toBe(false);
  });

  it('never shows one user\'s links or changes to another', async () => {
    const u = await s.createUser();
    const v = await s.createUser();
    const { cursor } = await links(v.token);
    await create(u.token, 'https://private.example/u-only');
    const full = await links(v.token);
    expect(full.items).toEqual([]);
    const changes = await links(v.token, `?since=${cursor}`);
    expect(changes.items).toEqual([]);
    expect(changes.removed).toEqual([]);
  });

  it('sees bulk creates and bulk moves to Trash', async () => {
    const u = await s.createUser();
    const { cursor } = await links(u.token);
    const res = await s.api('POST', '/bookmarks', {
      token: u.token,
      body: { items: [{ link: 'https://bulk.example/1' }, { link: 'https://bulk.example/2' }] },
    });
    expect(res.status).toBe(200);
    const ids = res.body.items.map((i: { _id: number }) => i._id);
    const added = await links(u.token, `?since=${cursor}`);
    expect(added.items.map((e) => e[0]).sort()).toEqual([...ids].sort());
    await s.api('DELETE', '/bookmarks/-1', { token: u.token, body: { ids } });
    const removed = await links(u.token, `?since=${added.cursor}`);
    expect(removed.removed!.sort()).toEqual([...ids].sort());
  });
});
