import { expect, it } from 'vitest';
import { newBookmark, twinBackends } from '../../../tests/helpers/pg-twin.js';

// The counts behind GET /user/stats on PostgreSQL against SQLite: an empty account (no NULL sums),
// Unsorted, Trash, broken links (not in Trash) and duplicate links (not counting Trash).

const twin = twinBackends();

it('counts alike, zeros for an empty account', async () => {
  const u = await twin.user('stats@example.test');
  expect(await twin.same((r) => r.stats.systemCounts(u))).toEqual({ all: 0, unsorted: 0, trash: 0, duplicates: 0, broken: 0 });
  const coll = await twin.collection(u, 'C');
  await twin.same((r) =>
    r.bookmarks.create([
      newBookmark(u, { link: 'https://s.example.com/a' }),
      newBookmark(u, { link: 'https://s.example.com/a', collectionId: coll }),
      newBookmark(u, { link: 'https://s.example.com/a', collectionId: coll }),
      newBookmark(u, { link: 'https://s.example.com/b', collectionId: -99 }),
      newBookmark(u, { link: 'https://s.example.com/b' }),
      newBookmark(u, { link: 'https://s.example.com/c', collectionId: coll }),
    ]),
  );
  twin.db.prepare("UPDATE bookmarks SET broken = 1 WHERE link IN ('https://s.example.com/c', 'https://s.example.com/b')").run();
  await twin.pool.query("UPDATE bookmarks SET broken = 1 WHERE link IN ('https://s.example.com/c', 'https://s.example.com/b')");
  expect(await twin.same((r) => r.stats.systemCounts(u))).toEqual({ all: 5, unsorted: 2, trash: 1, duplicates: 1, broken: 2 });
});
