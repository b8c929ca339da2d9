import { beforeAll, describe, expect, it } from 'vitest';
import { BOOKMARK_SORTS } from '../../../lib/api/constants.js';
import type { BookmarkScope } from '../types/index.js';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// Listing on PostgreSQL against SQLite on the same bookmarks: every sort (ties, letter case, accents,
// equal dates), paging past the end, every scope kind, searches, and relevance (`score`).

const twin = twinBackends();
let u: number;
let coll: number;
let child: number;
let ids: number[];

beforeAll(async () => {
  u = await twin.user('list@example.test');
  const other = await twin.user('list-other@example.test');
  coll = await twin.collection(u, 'Top');
  child = await twin.collection(u, 'Child', coll);
  const shared = await twin.collection(other, 'Shared');
  const t = (d: number) => `2024-05-${String(d).padStart(2, '0')}T10:00:00.000Z`;
  ids = await twin.same((r) =>
    r.bookmarks.create([
      newBookmark(u, { link: 'https://zzz.example.com/1', collectionId: coll, title: 'banana', created: t(3), excerpt: 'tomatoes once' }),
      newBookmark(u, { link: 'https://aaa.example.com/2', collectionId: coll, title: 'Apple', created: t(3), tags: ['Fruit'] }),
      newBookmark(u, { link: 'https://Mmm.example.com/3', collectionId: coll, title: 'cherry', created: t(1), note: 'tomatoes' }),
      newBookmark(u, { link: 'https://aaa.example.com/4', collectionId: child, title: 'Éclair', created: t(2), important: true }),
      newBookmark(u, { link: 'https://bbb.example.com/5', collectionId: child, title: 'apple', created: t(2) }),
      newBookmark(u, { link: 'https://ccc.example.com/6', title: 'Tomatoes tomatoes tomatoes', created: t(4), tags: ['fruit'] }),
      newBookmark(u, { link: 'https://ccc.example.com/7', title: 'zebra', created: t(5), collectionId: -99 }),
      newBookmark(other, { link: 'https://ddd.example.com/8', title: 'Shared page', created: t(6), collectionId: shared }),
      newBookmark(u, { link: 'https://eee.example.com/9', title: '', created: t(3) }),
    ]),
  );
  // Equal last updates too: the tie breaks by id.
  twin.clock.advance(5000);
  await twin.same((r) => r.bookmarks.update(ids[2], { excerpt: 'touched' }));
  ids.push(shared);
});

const scopes = (): [string, BookmarkScope][] => [
  ['user', { kind: 'user', userId: u, includeTrash: false }],
  ['user with trash and shared', { kind: 'user', userId: u, includeTrash: true, sharedCollectionIds: [ids[9]] }],
  ['unsorted', { kind: 'system', userId: u, collectionId: -1 }],
  ['trash', { kind: 'system', userId: u, collectionId: -99 }],
  ['collections', { kind: 'collections', collectionIds: [coll, child] }],
  ['one collection', { kind: 'collections', collectionIds: [child] }],
];

describe('PgBookmarkQueriesRepository', () => {
  it('lists every scope in every sort exactly as SQLite does', async () => {
    for (const [name, scope] of scopes()) {
      for (const sort of [...BOOKMARK_SORTS, undefined, 'nonsense', '__proto__']) {
        const got = await twin.same((r) => r.bookmarkQueries.list(scope, { sort, page: 0, perpage: 50 }));
        expect(got.count, `${name} ${sort}`).toBe(got.items.length);
      }
    }
    const byTitle = await twin.pg.bookmarkQueries.list(scopes()[0][1], { sort: 'title', page: 0, perpage: 50 });
    // ASCII case ignored, then code points: "Éclair" after every ASCII letter, as on SQLite.
    expect(byTitle.items.map((b) => b.title)).toEqual(['', 'Apple', 'apple', 'banana', 'cherry', 'Tomatoes tomatoes tomatoes', 'Éclair']);
  });

  it('pages without overlap and answers the count past the end', async () => {
    const scope = scopes()[1][1];
    for (const sort of ['-created', 'title', 'domain', '-sort']) {
      const seen: number[] = [];
      for (let page = 0; page < 4; page++) {
        const got = await twin.same((r) => r.bookmarkQueries.list(scope, { sort, page, perpage: 3 }));
        seen.push(...got.items.map((b) => b._id));
      }
      expect(new Set(seen).size).toBe(9);
    }
    expect(await twin.same((r) => r.bookmarkQueries.list(scope, { page: 50, perpage: 3 }))).toEqual({ items: [], count: 9 });
  });

  it('searches alike, case-insensitive words, tags and domains, and ranks by relevance with score', async () => {
    const scope = scopes()[0][1];
    for (const search of ['tomatoes', 'TOMATO', '#fruit', '#FRUIT', 'domain:AAA.example.com', '❤️', 'apple match:OR ❤️', '-tomatoes', 'éclair', 'nothing-matches-this', '"', '']) {
      for (const sort of ['score', '-created', 'title']) {
        const a = await twin.sqlite.bookmarkQueries.list(scope, { search, sort, page: 0, perpage: 50 });
        const b = await twin.pg.bookmarkQueries.list(scope, { search, sort, page: 0, perpage: 50 });
        expect(b.items.map((x) => x._id), `${search} ${sort}`).toEqual(a.items.map((x) => x._id));
        expect(b.count).toBe(a.count);
      }
    }
    const ranked = await twin.pg.bookmarkQueries.list(scope, { search: 'tomatoes', sort: 'score', page: 0, perpage: 10 });
    expect(ranked.items.map((b) => b._id)).toEqual([ids[5], ids[0], ids[2]]);
    // OR mode: text matches by relevance, then those matched only by another term.
    const or = await twin.pg.bookmarkQueries.list(scope, { search: 'tomatoes match:OR ❤️', sort: 'score', page: 0, perpage: 10 });
    expect(or.items.map((b) => b._id)).toEqual([ids[5], ids[0], ids[2], ids[3]]);
  });

  it('finds a collection with its descendants, the collection first; an unknown one alone', async () => {
    expect(await twin.same((r) => r.bookmarkQueries.withDescendants(coll))).toEqual([coll, child]);
    expect(await twin.same((r) => r.bookmarkQueries.withDescendants(987654))).toEqual([987654]);
  });
});
