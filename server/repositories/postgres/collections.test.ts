import { describe, expect, it } from 'vitest';
import { CollectionCycleError } from '../types/index.js';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// Collections on PostgreSQL against SQLite: the tree (recursive CTEs), counts, order, moves and the
// cycle refusal, removal with and without descendants, merge, reorder, clean, Trash; then two
// instances moving and creating at once, where SQLite's single writer did the serialising.

const twin = twinBackends();

describe('PgCollectionsRepository, the same answers as SQLite', () => {
  it('builds a tree with counts and order; reads roots, children, descendants and shared ones', async () => {
    const u = await twin.user('tree@example.test');
    const friend = await twin.user('tree-friend@example.test');
    const a = await twin.collection(u, 'A');
    const b = await twin.collection(u, 'b');
    const a1 = await twin.collection(u, 'A1', a);
    const a11 = await twin.collection(u, 'A11', a1);
    await twin.same((r) => r.collections.create(u, { title: 'Fixed sort', parentId: a, sort: 0.5, color: '#ff0000', cover: ['https://x/c.png'], public: true, expanded: false, view: 'grid' }));
    await twin.same((r) => r.bookmarks.create([newBookmark(u, { link: 'https://t.example.com/1', collectionId: a1 }), newBookmark(u, { link: 'https://t.example.com/2', collectionId: a1 }), newBookmark(u, { link: 'https://t.example.com/3', collectionId: -99 })]));
    expect((await twin.same((r) => r.collections.roots(u))).map((c) => c.id)).toEqual([b, a]);
    await twin.same((r) => r.collections.children(u));
    expect((await twin.same((r) => r.collections.byId(a1)))!.count).toBe(2);
    expect(await twin.same((r) => r.collections.byId(424242))).toBeUndefined();
    expect(await twin.same((r) => r.collections.descendantIds(a))).toEqual(expect.arrayContaining([a, a1, a11]));
    expect(await twin.same((r) => r.collections.descendantIds(424242))).toEqual([]);
    // Shared with a friend: the shared collection and everything below it.
    twin.db.prepare("INSERT INTO collaborators (collection_id, user_id, role, joined_at) VALUES (?, ?, 'member', 1)").run(a1, friend);
    await twin.pool.query("INSERT INTO collaborators (collection_id, user_id, role, joined_at) VALUES ($1, $2, 'member', 1)", [a1, friend]);
    expect((await twin.same((r) => r.collections.sharedWith(friend))).map((c) => c.id)).toEqual([a1, a11]);
    expect(await twin.same((r) => r.access.sharedCollectionIds(friend))).toEqual([a1, a11]);
    expect(await twin.same((r) => r.access.collectionWithAncestors(a11))).toHaveLength(3);
    expect(await twin.same((r) => r.access.sharedRole(friend, [a11, a1, a]))).toBe('member');
    expect(await twin.same((r) => r.access.nearestShared([a11, a1, a]))).toBe(a1);
    expect(await twin.same((r) => r.access.nearestShared([b]))).toBeNull();
  });

  it('updates and moves; a move into itself or below itself is refused and changes nothing', async () => {
    const u = await twin.user('move@example.test');
    const a = await twin.collection(u, 'A');
    const b = await twin.collection(u, 'B');
    const a1 = await twin.collection(u, 'A1', a);
    twin.clock.advance(1000);
    await twin.same((r) => r.collections.update(b, { title: 'B!', color: null as unknown as string, expanded: false }, { parentId: a }));
    await twin.same((r) => r.collections.update(a1, { sort: 7 }, { parentId: null }));
    const err = await twin.sameError((r) => r.collections.update(a, { title: 'never' }, { parentId: b }));
    expect(err).toBeInstanceOf(CollectionCycleError);
    await twin.sameError((r) => r.collections.update(a, {}, { parentId: a }));
    expect((await twin.same((r) => r.collections.byId(a)))!.title).toBe('A');
    expect(await twin.same((r) => r.collections.update(424242, { title: 'x' }))).toBeUndefined();
  });

  it('removes with descendants or exactly the listed ones, bookmarks to Trash; empties Trash', async () => {
    const u = await twin.user('remove@example.test');
    const a = await twin.collection(u, 'A');
    const a1 = await twin.collection(u, 'A1', a);
    const a11 = await twin.collection(u, 'A11', a1);
    const a111 = await twin.collection(u, 'A111', a11);
    const b = await twin.collection(u, 'B');
    const b1 = await twin.collection(u, 'B1', b);
    await twin.same((r) => r.bookmarks.create([a, a1, a11, a111, b, b1].map((c, i) => newBookmark(u, { link: `https://rm.example.com/${i}`, collectionId: c, highlights: [{ text: 'h' }], tags: ['t'] }))));
    expect(await twin.same((r) => r.collections.removeListed([a1, a11, 424242]))).toEqual({ collections: 2, bookmarksMoved: 2 });
    expect((await twin.same((r) => r.collections.byId(a111)))!.parent_id).toBe(a);
    expect(await twin.same((r) => r.collections.removeWithDescendants([b, 424242]))).toEqual({ collections: 2, bookmarksMoved: 2 });
    expect(await twin.same((r) => r.stats.systemCounts(u))).toMatchObject({ trash: 4, all: 2 });
    expect(await twin.same((r) => r.collections.emptyTrash(u))).toBe(4);
    expect(await twin.same((r) => r.collections.emptyTrash(u))).toBe(0);
    const { rows } = await twin.pool.query('SELECT count(*)::int AS n FROM highlights WHERE user_id = $1', [u]);
    expect(rows[0].n).toBe(2);
  });

  it('merges into a collection or Unsorted, children after the target’s own; reorders; cleans empty branches', async () => {
    const u = await twin.user('merge@example.test');
    const to = await twin.collection(u, 'To');
    await twin.collection(u, 'To child', to);
    const x = await twin.collection(u, 'x');
    const y = await twin.collection(u, 'Y');
    await twin.collection(u, 'x child 1', x);
    await twin.collection(u, 'x child 2', x);
    await twin.collection(u, 'y child', y);
    await twin.same((r) => r.bookmarks.create([newBookmark(u, { link: 'https://mg.example.com/1', collectionId: x }), newBookmark(u, { link: 'https://mg.example.com/2', collectionId: y })]));
    expect(await twin.same((r) => r.collections.merge(u, to, [x]))).toBe(1);
    await twin.same((r) => r.collections.children(u));
    expect(await twin.same((r) => r.collections.merge(u, -1, [y]))).toBe(1);
    await twin.same((r) => r.collections.roots(u));
    for (const order of ['title', '-title', '-count'] as const) {
      await twin.same((r) => r.collections.reorderAll(u, order));
      await twin.same(async (r) => [await r.collections.roots(u), await r.collections.children(u)]);
    }
    await twin.same((r) => r.collections.setExpandedAll(u, false));
    const empty = await twin.collection(u, 'Empty');
    await twin.collection(u, 'Empty child', empty);
    const keep = await twin.collection(u, 'Keep');
    const deep = await twin.collection(u, 'Keep deep', keep);
    await twin.same((r) => r.bookmarks.create([newBookmark(u, { link: 'https://mg.example.com/3', collectionId: deep })]));
    const cleaned = await twin.same((r) => r.collections.clean(u));
    expect(cleaned).toBeGreaterThanOrEqual(2);
    expect(await twin.same((r) => r.collections.byId(keep))).toBeDefined();
    expect(await twin.same((r) => r.collections.byId(empty))).toBeUndefined();
  });
});

describe('PgCollectionsRepository, two instances at once', () => {
  it('moving A under B and B under A at the same moment leaves no cycle: one move is refused', async () => {
    const u = await twin.user('cycle@example.test');
    for (let round = 0; round < 5; round++) {
      const a = (await twin.pg.collections.create(u, { title: `A${round}`, parentId: null })).id;
      const b = (await twin.pg.collections.create(u, { title: `B${round}`, parentId: null })).id;
      const results = await Promise.allSettled([twin.pg.collections.update(a, {}, { parentId: b }), twin.pgB.collections.update(b, {}, { parentId: a })]);
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(CollectionCycleError);
      const { rows } = await twin.pool.query<{ id: number; parent_id: number | null }>('SELECT id, parent_id FROM collections WHERE id = ANY($1)', [[a, b]]);
      expect(rows.filter((r) => r.parent_id === null)).toHaveLength(1);
    }
  });

  it('siblings created from two instances at once get distinct sort values', async () => {
    const u = await twin.user('siblings@example.test');
    const parent = (await twin.pg.collections.create(u, { title: 'P', parentId: null })).id;
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? twin.pg : twin.pgB).collections.create(u, { title: `c${i}`, parentId: parent })));
    const { rows } = await twin.pool.query<{ sort: number }>('SELECT sort FROM collections WHERE parent_id = $1', [parent]);
    expect(new Set(rows.map((r) => r.sort)).size).toBe(12);
  });
});
