import { expect, it } from 'vitest';
import type { BookmarkScope } from '../types/index.js';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// Export reads on PostgreSQL against SQLite: the folders of every scope, and each collection's
// bookmarks newest first in keyset-paged batches; many bookmarks share one `created`, so a batch
// boundary falls inside a tie and must neither repeat nor skip one.

const twin = twinBackends();

async function collect(gen: AsyncGenerator<{ _id: number }[]>): Promise<{ batches: number[]; ids: number[] }> {
  const batches: number[] = [];
  const ids: number[] = [];
  for await (const batch of gen) {
    batches.push(batch.length);
    ids.push(...batch.map((b) => b._id));
  }
  return { batches, ids };
}

it('reads folders and batches alike, across ties on created', async () => {
  const u = await twin.user('export@example.test');
  const other = await twin.user('export-other@example.test');
  const top = await twin.collection(u, 'Top');
  const child = await twin.collection(u, 'Child', top);
  const theirs = await twin.collection(other, 'Theirs');
  const stamp = (i: number) => `2024-01-0${1 + (i % 3)}T00:00:00.000Z`;
  await twin.same((r) =>
    r.bookmarks.create(
      Array.from({ length: 23 }, (_, i) =>
        newBookmark(u, { link: `https://e.example.com/${i}`, title: i % 2 ? `odd ${i}` : `even ${i}`, collectionId: i < 17 ? child : -1, created: stamp(i), highlights: i === 4 ? [{ text: 'quoted' }] : [] }),
      ),
    ),
  );
  const scopes: BookmarkScope[] = [
    { kind: 'user', userId: u, includeTrash: false, sharedCollectionIds: [theirs] },
    { kind: 'collections', collectionIds: [child, top] },
    { kind: 'system', userId: u, collectionId: -1 },
  ];
  for (const scope of scopes) {
    await twin.same((r) => r.bookmarkExport.folders(scope));
  }
  for (const [collectionId, opts] of [
    [child, { batchSize: 4 }],
    [child, { batchSize: 4, search: 'odd' }],
    [child, { batchSize: 17 }],
    [-1, { ownerId: u, batchSize: 2 }],
    [top, {}],
  ] as const) {
    const a = await collect(twin.sqlite.bookmarkExport.bookmarksOf(collectionId, opts));
    const b = await collect(twin.pg.bookmarkExport.bookmarksOf(collectionId, opts));
    expect(b).toEqual(a);
    expect(new Set(b.ids).size).toBe(b.ids.length);
  }
  const child4 = await collect(twin.pg.bookmarkExport.bookmarksOf(child, { batchSize: 4 }));
  expect(child4.batches).toEqual([4, 4, 4, 4, 1]);
  await expect(collect(twin.pg.bookmarkExport.bookmarksOf(-1, {}))).rejects.toThrow(/ownerId/);
});
