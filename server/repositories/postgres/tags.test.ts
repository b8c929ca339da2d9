import { describe, expect, it } from 'vitest';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// Tags on PostgreSQL against SQLite: spellings that differ only in ASCII case are one tag (non-ASCII
// case is not folded, as SQLite's NOCASE), counts per scope, rename/merge/remove keeping each
// bookmark's order, the search column following the new tags, suggestions; then a rename racing a
// bulk append from another instance.

const twin = twinBackends();

describe('PgTagsRepository, the same answers as SQLite', () => {
  it('lists and counts per scope, one entry per ASCII-case spelling named by the most used', async () => {
    const u = await twin.user('tags@example.test');
    const coll = await twin.collection(u, 'C');
    await twin.same((r) =>
      r.bookmarks.create([
        newBookmark(u, { link: 'https://t.example.com/1', tags: ['JS', 'Été', 'web dev'] }),
        newBookmark(u, { link: 'https://t.example.com/2', tags: ['js', 'été'], collectionId: coll }),
        newBookmark(u, { link: 'https://t.example.com/3', tags: ['js', 'zebra'], collectionId: coll }),
        newBookmark(u, { link: 'https://t.example.com/4', tags: ['trash-only'], collectionId: -99 }),
      ]),
    );
    const all = await twin.same((r) => r.tags.list({ kind: 'user', userId: u, includeTrash: false }));
    expect(all).toEqual([
      { _id: 'Été', count: 1 },
      { _id: 'été', count: 1 },
      { _id: 'js', count: 3 },
      { _id: 'web dev', count: 1 },
      { _id: 'zebra', count: 1 },
    ]);
    await twin.same((r) => r.tags.list({ kind: 'user', userId: u, includeTrash: true }));
    await twin.same((r) => r.tags.list({ kind: 'collections', collectionIds: [coll] }));
    await twin.same((r) => r.tags.list({ kind: 'system', userId: u, collectionId: -99 }));
  });

  it('renames, merges and removes in any ASCII case, keeping order; search finds the new tag only', async () => {
    const u = await twin.user('rename@example.test');
    const ids = await twin.same((r) =>
      r.bookmarks.create([
        newBookmark(u, { link: 'https://r.example.com/1', tags: ['first', 'Old', 'last'] }),
        newBookmark(u, { link: 'https://r.example.com/2', tags: ['new', 'old'] }),
        newBookmark(u, { link: 'https://r.example.com/3', tags: ['other'] }),
        newBookmark(u, { link: 'https://r.example.com/4', tags: ['OLD'], collectionId: -99 }),
      ]),
    );
    twin.clock.advance(1000);
    const scope = { kind: 'user', userId: u, includeTrash: true } as const;
    // Which bookmarks changed, in no particular order (SQLite's follows its index walk).
    const sorted = (p: Promise<number[]>) => p.then((list) => list.sort((a, b) => a - b));
    expect(await twin.same((r) => sorted(r.tags.rename(scope, ['old'], 'New')))).toEqual([ids[0], ids[1], ids[3]]);
    const after = await twin.same((r) => r.bookmarks.getMany(ids));
    expect(after.map((b) => b.tags)).toEqual([['first', 'New', 'last'], ['New'], ['other'], ['New']]);
    expect((await twin.pg.bookmarkQueries.list(scope, { search: '#new', page: 0, perpage: 10 })).count).toBe(3);
    expect((await twin.pg.bookmarkQueries.list(scope, { search: 'old', page: 0, perpage: 10 })).count).toBe(0);
    expect(await twin.same((r) => r.tags.rename(scope, ['absent'], 'x'))).toEqual([]);
    await twin.same((r) => sorted(r.tags.rename(scope, ['first', 'last'], 'merged')));
    expect(await twin.same((r) => sorted(r.tags.remove(scope, ['MERGED', 'other'])))).toHaveLength(2);
    await twin.same((r) => r.bookmarks.getMany(ids));
    await twin.same((r) => r.tags.list(scope));
    const { rows } = await twin.pool.query('SELECT bookmark_id, tag FROM bookmark_tags WHERE user_id = $1 ORDER BY bookmark_id, tag', [u]);
    expect(rows).toEqual([
      { bookmark_id: ids[0], tag: 'New' },
      { bookmark_id: ids[1], tag: 'New' },
      { bookmark_id: ids[3], tag: 'New' },
    ]);
  });

  it('suggests the owner’s tags from the same domain, the title’s words and similar bookmarks', async () => {
    const u = await twin.user('suggest@example.test');
    const [target] = await twin.same((r) =>
      r.bookmarks.create([
        newBookmark(u, { link: 'https://docs.rust.example/ownership/borrowing', title: 'Rust borrowing explained', excerpt: 'lifetimes and references' }),
        newBookmark(u, { link: 'https://docs.rust.example/async', title: 'Async book', tags: ['rust-docs', 'async'] }),
        newBookmark(u, { link: 'https://blog.example.org/b', title: 'Borrowing checker deep dive', tags: ['compilers', 'Lifetimes'] }),
        newBookmark(u, { link: 'https://other.example.net/x', title: 'Gardening', tags: ['garden'] }),
      ]),
    );
    const got = await twin.same((r) => r.tags.suggest(target, 10));
    expect(got.map((t) => t._id)).toEqual(expect.arrayContaining(['rust-docs', 'Lifetimes', 'compilers']));
    expect(got.map((t) => t._id)).not.toContain('garden');
    expect(await twin.same((r) => r.tags.suggest(424242))).toEqual([]);
  });
});

it('a rename on one instance and a bulk tag append on another leave both changes', async () => {
  const u = await twin.user('tag-race@example.test');
  const ids = await twin.pg.bookmarks.create(Array.from({ length: 10 }, (_, i) => newBookmark(u, { link: `https://tr.example.com/${i}`, tags: ['old'] })));
  await Promise.all([twin.pg.tags.rename({ kind: 'user', userId: u, includeTrash: false }, ['old'], 'renamed'), twin.pgB.bookmarks.bulkUpdate(ids, u, { tags: ['added'] })]);
  for (const b of await twin.pg.bookmarks.getMany(ids)) expect(b.tags.sort()).toEqual(['added', 'renamed']);
  const { rows } = await twin.pool.query('SELECT count(*)::int AS n FROM bookmark_tags WHERE user_id = $1', [u]);
  expect(rows[0].n).toBe(20);
});
