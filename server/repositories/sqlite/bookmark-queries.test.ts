import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKMARK_SORTS } from '../../../lib/api/constants.js';
import { openDatabase, type Db } from '../../db/open.js';
import { systemClock } from '../../clock.js';
import { FullTextIndex } from './fts.js';
import { SqliteBookmarkQueriesRepository } from './bookmark-queries.js';
import type { BookmarkScope } from '../types/index.js';
import { seedSearchRow } from '../../../tests/helpers/search-corpus.js';

// Listing and search pick a plan by how many rows match the full-text part (read once from the
// index and looked up by id, or checked row by row along an index). Whichever plan runs, a user
// must get the same page and the same count: the same library is listed here with the switch
// points moved so that every query runs through every plan, and the answers are compared.

let dir: string;
let db: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-plans-'));
  db = openDatabase(dir);
  db.prepare("INSERT INTO users (id, email, config, files_checkpoint, registered) VALUES (1, 'a@example.test', '{}', '', '')").run();
  const ids: Record<string, number> = {};
  const words = ['rust', 'garden', 'recipe', 'travel', 'music'];
  for (let i = 0; i < 90; i++) {
    seedSearchRow(db, ids, `b${i}`, {
      // Repeated titles and dates: ties in rank and in `created` must break the same way.
      title: `${words[i % 5]} notes ${i % 7} ${i % 3 === 0 ? 'garden party' : 'article'}`,
      tags: i % 4 === 0 ? ['Home', `t${i % 3}`] : [`t${i % 3}`],
      excerpt: i % 6 === 0 ? `about ${words[(i + 2) % 5]} and more` : '',
      link: `https://site${i % 9}.example.com/p/${i}`,
      created: `2024-0${1 + (i % 3)}-1${i % 10}T00:00:00.000Z`,
      important: i % 5 === 0,
      highlights: i % 8 === 0 ? [`a ${words[(i + 1) % 5]} quote`] : [],
    });
  }
  new FullTextIndex(db).reindex(Object.values(ids));
});

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('bookmark listing plans', () => {
  it('answer the same pages and counts whichever plan runs', async () => {
    const usual = new SqliteBookmarkQueriesRepository(db, systemClock, new FullTextIndex(db));
    const others = [
      // Every full-text match counts as large: checked row by row.
      new SqliteBookmarkQueriesRepository(db, systemClock, new FullTextIndex(db), { fewMatchesMax: 0, pageViaMatchesMax: 0 }),
      // Small matches read by id, a created-ordered page of more than 4 walked along the index.
      new SqliteBookmarkQueriesRepository(db, systemClock, new FullTextIndex(db), { fewMatchesMax: 40, pageViaMatchesMax: 4 }),
    ];
    const scopes: BookmarkScope[] = [
      { kind: 'user', userId: 1, includeTrash: false },
      { kind: 'system', userId: 1, collectionId: -1 },
      { kind: 'collections', collectionIds: [-1] },
    ];
    const searches = ['rust', 'garden', 'garden party', 'notes 3', 'rust -party', '#t1 notes', '#home garden', 'site4', 'title:notes 5', '"garden party" music', 'quote', 'rust match:OR recipe', 'nothing-here', '', 'created:>2024-05 notes'];
    let compared = 0;
    for (const scope of scopes) {
      for (const search of searches) {
        for (const sort of [...BOOKMARK_SORTS, undefined]) {
          for (const page of [0, 1, 3]) {
            const want = await usual.list(scope, { search, sort, page, perpage: 7 });
            for (const repo of others) {
              const got = await repo.list(scope, { search, sort, page, perpage: 7 });
              expect({ search, sort, page, count: got.count, ids: got.items.map((b) => b._id) }).toEqual({ search, sort, page, count: want.count, ids: want.items.map((b) => b._id) });
              compared++;
            }
          }
        }
      }
    }
    // Matches of every size: 'notes' is in every title, 'rust' between the second repository's switch points (4 and 40).
    expect((await usual.list(scopes[0]!, { search: 'notes', page: 0, perpage: 7 })).count).toBe(90);
    expect((await usual.list(scopes[0]!, { search: 'rust', page: 0, perpage: 7 })).count).toBe(23);
    expect(compared).toBeGreaterThan(1000);
  });
});
