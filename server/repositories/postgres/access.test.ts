import { expect, it } from 'vitest';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// The permission facts on PostgreSQL against SQLite (chains, nearest share, shared trees), and what
// only several instances can get wrong: a bookmark moved by one instance is where the other says
// it is at once (no cache in the process).

const twin = twinBackends();

it('answers the same facts, nearest first', async () => {
  const owner = await twin.user('acc-owner@example.test');
  const ann = await twin.user('acc-ann@example.test');
  const top = await twin.collection(owner, 'Top');
  const mid = await twin.collection(owner, 'Mid', top);
  const leaf = await twin.collection(owner, 'Leaf', mid);
  for (const [c, role] of [[top, 'viewer'], [mid, 'member']] as const) {
    twin.db.prepare('INSERT INTO collaborators (collection_id, user_id, role, joined_at) VALUES (?, ?, ?, 1)').run(c, ann, role);
    await twin.pool.query('INSERT INTO collaborators (collection_id, user_id, role, joined_at) VALUES ($1, $2, $3, 1)', [c, ann, role]);
  }
  const chain = (await twin.same((r) => r.access.collectionWithAncestors(leaf))).map((c) => c.id);
  expect(chain).toEqual([leaf, mid, top]);
  expect(await twin.same((r) => r.access.sharedGrants(ann, chain))).toEqual([
    { collection_id: mid, role: 'member' },
    { collection_id: top, role: 'viewer' },
  ]);
  expect(await twin.same((r) => r.access.sharedRole(ann, chain))).toBe('member');
  expect(await twin.same((r) => r.access.sharedRole(owner, chain))).toBeNull();
  expect(await twin.same((r) => r.access.sharedGrants(ann, []))).toEqual([]);
  expect(await twin.same((r) => r.access.nearestShared(chain))).toBe(mid);
  expect(await twin.same((r) => r.access.nearestShared([]))).toBeNull();
  expect(await twin.same((r) => r.access.sharedCollectionIds(ann))).toEqual([top, mid, leaf]);
  expect(await twin.same((r) => r.access.sharedCollectionIds(owner))).toEqual([]);
  expect(await twin.same((r) => r.access.collection(leaf))).toMatchObject({ id: leaf, user_id: owner, parent_id: mid, public: 0 });
  expect(await twin.same((r) => r.access.collection(424242))).toBeUndefined();
  expect(await twin.same((r) => r.access.collectionWithAncestors(424242))).toEqual([]);
});

it('a bookmark moved on one instance is where the other says it is at once', async () => {
  const u = await twin.user('acc-move@example.test');
  const coll = (await twin.pg.collections.create(u, { title: 'Dest', parentId: null })).id;
  const [id] = await twin.pg.bookmarks.create([newBookmark(u, { link: 'https://acc.example.com/' })]);
  expect(await twin.pgB.access.bookmarkLocation(id)).toEqual({ user_id: u, collection_id: -1 });
  await twin.pg.bookmarks.update(id, { move: { collectionId: coll, ownerId: u } });
  expect(await twin.pgB.access.bookmarkLocation(id)).toEqual({ user_id: u, collection_id: coll });
  expect(await twin.pgB.access.bookmarkLocation(424242)).toBeUndefined();
});
