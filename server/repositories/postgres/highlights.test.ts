import { expect, it } from 'vitest';
import type { BookmarkScope } from '../types/index.js';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// Highlight listings on PostgreSQL against SQLite: newest first across bookmarks, ties on the same
// moment, every scope (Trash excluded or alone, shared collections), paging; the search column
// follows highlight text and notes as they are added, changed and removed.

const twin = twinBackends();

it('lists the same highlights in the same order for every scope and page', async () => {
  const u = await twin.user('hl@example.test');
  const other = await twin.user('hl-other@example.test');
  const coll = await twin.collection(u, 'C');
  const theirs = await twin.collection(other, 'Theirs');
  const ids = await twin.same((r) =>
    r.bookmarks.create([
      newBookmark(u, { link: 'https://h.example.com/1', title: 'One', tags: ['a'], highlights: [{ text: 'same moment 1' }, { text: 'same moment 2', color: 'blue', note: 'n' }] }),
      newBookmark(u, { link: 'https://h.example.com/2', collectionId: coll, highlights: [{ text: 'in collection' }] }),
      newBookmark(u, { link: 'https://h.example.com/3', collectionId: -99, highlights: [{ text: 'in trash' }] }),
      newBookmark(other, { link: 'https://h.example.com/4', collectionId: theirs, highlights: [{ text: 'shared' }] }),
    ]),
  );
  twin.clock.advance(1000);
  const first = (await twin.sqlite.bookmarks.get(ids[1]))!.highlights[0]._id;
  const firstPg = (await twin.pg.bookmarks.get(ids[1]))!.highlights[0]._id;
  await twin.sqlite.bookmarks.update(ids[1], { highlights: [{ text: 'later' }, { _id: first, note: 'edited' }] });
  await twin.pg.bookmarks.update(ids[1], { highlights: [{ text: 'later' }, { _id: firstPg, note: 'edited' }] });
  const scopes: BookmarkScope[] = [
    { kind: 'user', userId: u, includeTrash: false },
    { kind: 'user', userId: u, includeTrash: true, sharedCollectionIds: [theirs] },
    { kind: 'system', userId: u, collectionId: -99 },
    { kind: 'system', userId: u, collectionId: -1 },
    { kind: 'collections', collectionIds: [coll, theirs] },
  ];
  for (const scope of scopes) {
    // Highlight ids are random, and they break ties of the same moment: compare the set and the
    // order of the moments, then the texts under each moment.
    const a = await twin.sqlite.highlights.list(scope, 0, 50);
    const b = await twin.pg.highlights.list(scope, 0, 50);
    expect(b.map((h) => h.created)).toEqual(a.map((h) => h.created));
    expect(b.map((h) => `${h.created} ${h.text} ${h.note} ${h.color} ${h.bookmarkRef} ${h.tags}`).sort()).toEqual(
      a.map((h) => `${h.created} ${h.text} ${h.note} ${h.color} ${h.bookmarkRef} ${h.tags}`).sort(),
    );
    // Same moment: ids descending, on both.
    for (let i = 1; i < b.length; i++) if (b[i].created === b[i - 1].created) expect(b[i]._id < b[i - 1]._id).toBe(true);
  }
  const all = await twin.pg.highlights.list(scopes[1], 0, 50);
  expect(all.map((h) => h.text)).toContain('shared');
  const paged = [...(await twin.pg.highlights.list(scopes[1], 0, 2)), ...(await twin.pg.highlights.list(scopes[1], 1, 2)), ...(await twin.pg.highlights.list(scopes[1], 2, 2))];
  expect(paged.map((h) => h._id)).toEqual(all.map((h) => h._id));
  expect(await twin.pg.highlights.list(scopes[0], 10, 50)).toEqual([]);
});

it('search follows highlight text and notes as they change', async () => {
  const u = await twin.user('hl-search@example.test');
  const scope = { kind: 'user', userId: u, includeTrash: false } as const;
  const count = async (search: string) => (await twin.same((r) => r.bookmarkQueries.list(scope, { search, page: 0, perpage: 5 }))).count;
  const [id] = await twin.same((r) => r.bookmarks.create([newBookmark(u, { link: 'https://hs.example.com/', highlights: [{ text: 'photosynthesis', note: 'chlorophyll' }] })]));
  expect(await count('photosynthesis')).toBe(1);
  expect(await count('chlorophyll')).toBe(1);
  const h = (await twin.pg.bookmarks.get(id))!.highlights[0]._id;
  const hs = (await twin.sqlite.bookmarks.get(id))!.highlights[0]._id;
  await twin.sqlite.bookmarks.update(id, { highlights: [{ _id: hs, note: 'mitochondria' }] });
  await twin.pg.bookmarks.update(id, { highlights: [{ _id: h, note: 'mitochondria' }] });
  expect(await count('chlorophyll')).toBe(0);
  expect(await count('mitochondria')).toBe(1);
  await twin.sqlite.bookmarks.update(id, { highlights: [{ _id: hs, text: '' }] });
  await twin.pg.bookmarks.update(id, { highlights: [{ _id: h, text: '' }] });
  expect(await count('photosynthesis')).toBe(0);
  expect(await count('highlights:true')).toBe(0);
});
