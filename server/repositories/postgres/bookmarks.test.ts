import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.js';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// Bookmark writes on PostgreSQL against the SQLite implementation: every operation runs on both and
// must answer the same (records, manual order, owners, errors), then what only PostgreSQL can get
// wrong: a failed write leaves nothing behind, and two instances writing at once never collide.

const twin = twinBackends();

describe('PgBookmarksRepository, the same answers as SQLite', () => {
  it('creates in order, first in the collection unless `order` is given, with tags, highlights and JSON columns', async () => {
    const u = await twin.user('create@example.test');
    const coll = await twin.collection(u, 'Reading');
    const ids = await twin.same((r) =>
      r.bookmarks.create([
        newBookmark(u, { link: 'https://a.example.com/1', collectionId: coll, title: 'One', tags: ['JS', 'web'], media: [{ link: 'https://a.example.com/i.png', type: 'image' }] }),
        newBookmark(u, { link: 'https://a.example.com/2', collectionId: coll, title: 'Two', highlights: [{ text: 'first' }, { text: 'second', note: 'n', color: 'green', position: 3, prefix: 'p', suffix: 's' }] }),
        newBookmark(u, { link: 'https://a.example.com/3', collectionId: coll, title: 'Three', order: 1 }),
        newBookmark(u, { link: 'https://a.example.com/4', title: 'Unsorted', important: true, created: '2020-01-01T00:00:00.000Z' }),
      ]),
    );
    expect(ids).toHaveLength(4);
    const got = await twin.same((r) => r.bookmarks.getMany([...ids].reverse()));
    expect(got.map((b) => b.title)).toEqual(['Unsorted', 'Three', 'Two', 'One']);
    expect(got[2].highlights.map((h) => h.text)).toEqual(['first', 'second']);
    // Manual order as a person arranged it: "Three" asked for position 1.
    await twin.same((r) => r.bookmarkQueries.list({ kind: 'collections', collectionIds: [coll] }, { sort: '-sort', page: 0, perpage: 10 }));
    await twin.same((r) => r.bookmarks.get(ids[0]));
    expect(await twin.pg.bookmarks.get(999_999)).toBeUndefined();
    expect(await twin.pg.bookmarks.create([])).toEqual([]);
  });

  it('updates fields, tags, order and highlights (add, change, remove in the order sent)', async () => {
    const u = await twin.user('update@example.test');
    const coll = await twin.collection(u, 'Work');
    const ids = await twin.same((r) =>
      r.bookmarks.create(
        [1, 2, 3, 4].map((n) => newBookmark(u, { link: `https://u.example.com/${n}`, collectionId: coll, title: `B${n}`, highlights: n === 1 ? [{ text: 'keep' }, { text: 'drop' }] : [] })),
      ),
    );
    const [h1, h2] = (await twin.sqlite.bookmarks.get(ids[0]))!.highlights.map((h) => h._id);
    const [p1, p2] = (await twin.pg.bookmarks.get(ids[0]))!.highlights.map((h) => h._id);
    twin.clock.advance(1000);
    expect(await twin.sqlite.bookmarks.update(ids[0], { title: 'New', note: 'a note', tags: ['b', 'a'], order: 2, highlights: [{ _id: h1, note: 'kept' }, { _id: h2, text: '' }, { text: 'added' }] })).toBe(true);
    expect(await twin.pg.bookmarks.update(ids[0], { title: 'New', note: 'a note', tags: ['b', 'a'], order: 2, highlights: [{ _id: p1, note: 'kept' }, { _id: p2, text: '' }, { text: 'added' }] })).toBe(true);
    const after = await twin.same((r) => r.bookmarks.get(ids[0]));
    expect(after!.highlights.map((h) => [h.text, h.note])).toEqual([
      ['keep', 'kept'],
      ['added', ''],
    ]);
    await twin.same((r) => r.bookmarkQueries.list({ kind: 'collections', collectionIds: [coll] }, { sort: '-sort', page: 0, perpage: 10 }));
    expect(await twin.same((r) => r.bookmarks.update(999_999, { title: 'x' }))).toBe(false);
  });

  it('refuses an unknown or blank highlight with the same 400, and writes nothing of that update', async () => {
    const u = await twin.user('refuse@example.test');
    const [id] = await twin.same((r) => r.bookmarks.create([newBookmark(u, { link: 'https://r.example.com/', title: 'Before', tags: ['t'] })]));
    const err = await twin.sameError((r) => r.bookmarks.update(id, { title: 'After', tags: ['x'], highlights: [{ text: 'ok' }, { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', note: 'n' }] }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    await twin.sameError((r) => r.bookmarks.update(id, { highlights: [{ text: '   ' }] }));
    const still = await twin.same((r) => r.bookmarks.get(id));
    expect(still).toMatchObject({ title: 'Before', tags: ['t'], highlights: [] });
    // Nothing half-written on PostgreSQL either: the tag rows and the search column are as before.
    const { rows } = await twin.pool.query('SELECT tag FROM bookmark_tags WHERE bookmark_id = $1', [id]);
    expect(rows).toEqual([{ tag: 't' }]);
    expect((await twin.pg.bookmarkQueries.list({ kind: 'user', userId: u, includeTrash: false }, { search: 'after', page: 0, perpage: 5 })).count).toBe(0);
  });

  it('moves between owners (tags and highlights follow), trashes, restores and deletes for good', async () => {
    const owner = await twin.user('owner@example.test');
    const other = await twin.user('other@example.test');
    const theirs = await twin.collection(other, 'Theirs');
    const [id] = await twin.same((r) => r.bookmarks.create([newBookmark(owner, { link: 'https://m.example.com/', tags: ['moved'], highlights: [{ text: 'h' }] })]));
    await twin.same((r) => r.bookmarks.update(id, { move: { collectionId: theirs, ownerId: other } }));
    const { rows } = await twin.pool.query('SELECT (SELECT user_id FROM bookmark_tags WHERE bookmark_id = $1) AS t, (SELECT user_id FROM highlights WHERE bookmark_id = $1) AS h', [id]);
    expect(rows[0]).toEqual({ t: other, h: other });
    expect(await twin.same((r) => r.bookmarks.remove(id))).toBe('trashed');
    await twin.same((r) => r.bookmarks.get(id));
    expect(await twin.same((r) => r.bookmarks.remove(id))).toBe('deleted');
    expect(await twin.same((r) => r.bookmarks.remove(id))).toBeNull();
  });

  it('bulk: targets in manual order (ids, search), append tags and media, clear tags, move, trash, delete', async () => {
    const u = await twin.user('bulk@example.test');
    const coll = await twin.collection(u, 'Bulk');
    const dest = await twin.collection(u, 'Dest');
    const ids = await twin.same((r) =>
      r.bookmarks.create(
        ['alpha', 'beta', 'gamma', 'delta'].map((w, i) =>
          newBookmark(u, { link: `https://b.example.com/${w}`, collectionId: coll, title: `${w} page`, tags: i % 2 ? ['Odd'] : [], media: [{ link: 'https://b.example.com/m.png', type: 'image' }] }),
        ),
      ),
    );
    const all = await twin.same((r) => r.bookmarks.bulkTargets({ ownerId: u, collectionId: coll }));
    expect(all).toEqual(ids); // a batch keeps the order it was sent in
    expect(await twin.same((r) => r.bookmarks.bulkTargets({ ownerId: u, collectionId: coll, ids: [] }))).toEqual([]);
    expect(await twin.same((r) => r.bookmarks.bulkTargets({ ownerId: u, collectionId: coll, search: '#odd' }))).toEqual([ids[1], ids[3]]);
    expect(await twin.same((r) => r.bookmarks.bulkTargets({ ownerId: u, collectionId: coll, ids: [ids[0], ids[2], 424242], search: 'gamma' }))).toEqual([ids[2]]);
    twin.clock.advance(1000);
    await twin.same((r) => r.bookmarks.bulkUpdate(all, u, { tags: ['Odd', 'new'], media: [{ link: 'https://b.example.com/m.png', type: 'image' }, { link: 'https://b.example.com/n.png', type: 'image' }], important: true }));
    await twin.same((r) => r.bookmarks.getMany(ids));
    await twin.same((r) => r.tags.list({ kind: 'user', userId: u, includeTrash: false }));
    await twin.same((r) => r.bookmarks.bulkUpdate([ids[0]], u, { tags: [], media: [], cover: 'https://c/x.png' }));
    await twin.same((r) => r.bookmarks.bulkUpdate([ids[1], ids[2]], u, { move: { collectionId: dest, ownerId: u } }));
    await twin.same((r) => r.bookmarkQueries.list({ kind: 'collections', collectionIds: [dest] }, { sort: '-sort', page: 0, perpage: 10 }));
    expect(await twin.same((r) => r.bookmarks.bulkRemove([ids[0], ids[3]], u, false))).toBe(2);
    await twin.same((r) => r.bookmarkQueries.list({ kind: 'system', userId: u, collectionId: -99 }, { sort: '-sort', page: 0, perpage: 10 }));
    expect(await twin.same((r) => r.bookmarks.bulkRemove([ids[0]], u, true))).toBe(1);
    expect(await twin.same((r) => r.bookmarks.getMany(ids))).toHaveLength(3);
    expect(await twin.same((r) => r.bookmarks.bulkUpdate([], u, { important: true }))).toBe(0);
  });

  it('finds saved links by key, oldest first, not removed ones, only the caller’s', async () => {
    const u = await twin.user('keys@example.test');
    const v = await twin.user('keys2@example.test');
    await twin.same((r) =>
      r.bookmarks.create([
        newBookmark(u, { link: 'https://k.example.com/a' }),
        newBookmark(u, { link: 'https://k.example.com/b', collectionId: -99 }),
        newBookmark(v, { link: 'https://k.example.com/a' }),
        newBookmark(u, { link: 'https://k.example.com/a' }),
      ]),
    );
    const found = await twin.same((r) => r.bookmarks.findSavedByKeys(u, ['https://k.example.com/a', 'https://k.example.com/b', 'https://k.example.com/a']));
    expect(found).toHaveLength(2);
    expect(await twin.same((r) => r.bookmarks.findSavedByKeys(u, []))).toEqual([]);
  });

  it('queues one page parse per bookmark, widening a queued job', async () => {
    const u = await twin.user('parse@example.test');
    const [id] = await twin.pg.bookmarks.create([newBookmark(u, { link: 'https://p.example.com/' })]);
    await twin.pg.bookmarks.onPleaseParse([id], 'create');
    await twin.pg.bookmarks.onPleaseParse([id], 'update');
    await twin.pg.bookmarks.onPleaseParse([], 'update');
    const { rows } = await twin.pool.query("SELECT payload FROM jobs WHERE dedupe_key = $1 AND state = 'queued'", [`page:${id}`]);
    expect(rows.map((r) => JSON.parse(r.payload))).toEqual([{ bookmarkId: id, parse: true, on: 'update' }]);
  });
});

describe('PgBookmarksRepository, two instances at once', () => {
  it('bookmarks created into one collection from two instances at once all get distinct positions', async () => {
    const u = await twin.user('race@example.test');
    const coll = await twin.collection(u, 'Race');
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? twin.pg : twin.pgB).bookmarks.create([newBookmark(u, { link: `https://race.example.com/${i}`, collectionId: coll })])),
    );
    const { rows } = await twin.pool.query<{ sort_order: number }>('SELECT sort_order FROM bookmarks WHERE collection_id = $1', [coll]);
    expect(new Set(rows.map((r) => r.sort_order)).size).toBe(20);
    expect(made.flat()).toHaveLength(20);
  });

  it('concurrent moves to a position and bulk moves keep every position distinct', async () => {
    const u = await twin.user('race2@example.test');
    const from = await twin.collection(u, 'From');
    const to = await twin.collection(u, 'To');
    const ids = await twin.pg.bookmarks.create(Array.from({ length: 12 }, (_, i) => newBookmark(u, { link: `https://race2.example.com/${i}`, collectionId: from })));
    await Promise.all([
      ...ids.slice(0, 6).map((id, i) => (i % 2 ? twin.pg : twin.pgB).bookmarks.update(id, { move: { collectionId: to, ownerId: u }, order: 0 })),
      twin.pgB.bookmarks.bulkUpdate(ids.slice(6, 9), u, { move: { collectionId: to, ownerId: u } }),
      twin.pg.bookmarks.bulkUpdate(ids.slice(9), u, { move: { collectionId: to, ownerId: u } }),
    ]);
    const { rows } = await twin.pool.query<{ sort_order: number }>('SELECT sort_order FROM bookmarks WHERE collection_id = $1', [to]);
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((r) => r.sort_order)).size).toBe(12);
  });

  it('an edit of one bookmark and a bulk tag append on another instance both survive', async () => {
    const u = await twin.user('race3@example.test');
    const ids = await twin.pg.bookmarks.create(Array.from({ length: 5 }, (_, i) => newBookmark(u, { link: `https://race3.example.com/${i}`, tags: ['start'] })));
    await Promise.all([
      ...ids.map((id) => twin.pg.bookmarks.update(id, { title: 'edited', highlights: [{ text: 'mark' }] })),
      twin.pgB.bookmarks.bulkUpdate(ids, u, { tags: ['appended'] }),
    ]);
    for (const b of await twin.pg.bookmarks.getMany(ids)) {
      expect(b).toMatchObject({ title: 'edited', tags: ['start', 'appended'] });
      expect(b.highlights).toHaveLength(1);
    }
  });
});

it('text holding U+0000 (which PostgreSQL text cannot store) is written and looked up without it, not refused', async () => {
  const u = await twin.user('nul@example.test');
  const [id] = await twin.pg.bookmarks.create([newBookmark(u, { link: 'https://nul.example.com/', title: 'a\u0000b', tags: ['t\u0000ag'], highlights: [{ text: 'h\u0000i' }] })]);
  expect(await twin.pg.bookmarks.get(id)).toMatchObject({ title: 'ab', tags: ['tag'], highlights: [{ text: 'hi' }] });
  expect(await twin.pg.bookmarks.update(id, { note: 'n\u0000', tags: ['x\u0000'] })).toBe(true);
  await twin.pg.bookmarks.bulkUpdate([id], u, { tags: ['y\u0000'] });
  expect(await twin.pg.bookmarks.get(id)).toMatchObject({ note: 'n', tags: ['x', 'y'] });
  const scope = { kind: 'user', userId: u, includeTrash: false } as const;
  expect((await twin.pg.bookmarkQueries.list(scope, { search: '#x\u0000', page: 0, perpage: 5 })).count).toBe(1);
  expect(await twin.pg.tags.remove(scope, ['\u0000', 'y\u0000'])).toEqual([id]);
  expect(await twin.pg.tags.rename(scope, ['x'], 'z\u0000')).toEqual([id]);
  expect((await twin.pg.bookmarks.get(id))!.tags).toEqual(['z']);
});
