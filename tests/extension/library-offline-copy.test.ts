// The library's offline copy follows a bulk change that waits in the offline queue: what the user
// sees offline after "Move to Trash", a move, a tag or an Undo is what the server will have once the
// queue is sent.
import { describe, expect, it } from 'vitest';
import { TRASH, UNSORTED } from '../../lib/api/constants.js';
import type { Bookmark } from '../../lib/api/types.js';
import { applyToCounts, applyToPages, statesAfter, type CopiedPage } from '../../lib/library/offline-copy.js';
import type { BulkTarget, LibraryCollection } from '../../lib/library/types.js';

function bookmark(id: number, collectionId: number, created: string, extra: Partial<Bookmark> = {}): Bookmark {
  return {
    _id: id,
    link: `https://example.test/${id}`,
    title: `Page ${id}`,
    excerpt: '',
    note: '',
    type: 'link',
    cover: '',
    media: [],
    tags: [],
    important: false,
    collection: { $id: collectionId },
    collectionId,
    domain: 'example.test',
    created,
    lastUpdate: created,
    sort: id,
    highlights: [],
    removed: false,
    user: { $id: 1 },
    creatorRef: 1,
    ...extra,
  };
}

const key = (collectionId: number, search = '', sort = '-created', page = 0) => JSON.stringify([collectionId, search, sort, page]);
const target = (b: Bookmark): BulkTarget => ({ id: b._id, collectionId: b.collectionId, tags: b.tags, important: b.important });
const ids = (p: CopiedPage | undefined) => p?.items.map((b) => b._id);

const a = bookmark(1, 7, '2024-03-01T00:00:00.000Z', { tags: ['Ocean'] });
const b = bookmark(2, 7, '2024-02-01T00:00:00.000Z');
const c = bookmark(3, 8, '2024-01-15T00:00:00.000Z');

describe('statesAfter', () => {
  it('says where each bookmark ends up and with which tags and favourite', () => {
    expect(statesAfter({ kind: 'move', to: 8 }, [target(a)])[0]).toMatchObject({ id: 1, collectionId: 8 });
    expect(statesAfter({ kind: 'trash' }, [target(a)])[0]!.collectionId).toBe(TRASH);
    expect(statesAfter({ kind: 'restore' }, [{ ...target(a), collectionId: TRASH }])[0]!.collectionId).toBe(UNSORTED);
    // Appending a tag it already has (in another case) does not repeat it.
    expect(statesAfter({ kind: 'tag', tags: ['ocean', 'tide'] }, [target(a)])[0]!.tags).toEqual(['Ocean', 'tide']);
    expect(statesAfter({ kind: 'untag', tag: 'OCEAN' }, [target(a)])[0]!.tags).toEqual([]);
    expect(statesAfter({ kind: 'favourite', value: true }, [target(b)])[0]!.important).toBe(true);
  });
});

describe('applyToPages', () => {
  const pages = () => ({
    [key(7)]: { items: [a, b], count: 2 },
    [key(8)]: { items: [c], count: 1 },
    [key(0)]: { items: [a, b, c], count: 3 },
    [key(TRASH)]: { items: [], count: 0 },
    [key(7, 'ocean', 'score')]: { items: [a], count: 1 },
  });

  it('a bookmark moved to Trash leaves its collection, All and searches, and shows in Trash', () => {
    const before = pages();
    const out = applyToPages(before, statesAfter({ kind: 'trash' }, [target(a)]));
    expect(ids(out[key(7)])).toEqual([2]);
    expect(out[key(7)]!.count).toBe(1);
    expect(ids(out[key(0)])).toEqual([2, 3]);
    expect(ids(out[key(7, 'ocean', 'score')])).toEqual([]);
    expect(out[key(TRASH)]!.items).toMatchObject([{ _id: 1, collectionId: TRASH, removed: true }]);
    expect(out[key(TRASH)]!.count).toBe(1);
    expect(out[key(8)]).toBe(before[key(8)]); // a page the change does not touch is left as it was
  });

  it('Undo (the states before) puts it back in its place in the listing\'s order', () => {
    const trashed = applyToPages(pages(), statesAfter({ kind: 'trash' }, [target(a), target(b)]));
    expect(ids(trashed[key(7)])).toEqual([]);
    const back = applyToPages(trashed, [target(b), target(a)]);
    expect(ids(back[key(7)])).toEqual([1, 2]); // newest first, whatever order the Undo lists them in
    expect(back[key(7)]!.count).toBe(2);
    expect(ids(back[key(0)])).toEqual([1, 2, 3]);
    expect(ids(back[key(TRASH)])).toEqual([]);
    // Whether a search matches it again is the server's to say: a search's page does not guess.
    expect(ids(back[key(7, 'ocean', 'score')])).toEqual([]);
  });

  it('a move updates the bookmark in All, drops it from the source and adds it to the target in order', () => {
    const out = applyToPages(pages(), statesAfter({ kind: 'move', to: 8 }, [target(a), target(b)]));
    expect(ids(out[key(7)])).toEqual([]);
    expect(ids(out[key(8)])).toEqual([1, 2, 3]);
    expect(out[key(8)]!.count).toBe(3);
    expect(out[key(0)]!.items.map((x) => x.collection.$id)).toEqual([8, 8, 8]);
    expect(out[key(0)]!.count).toBe(3);
  });

  it('tags and favourites change on every copy of the row; nothing moves', () => {
    const tagged = applyToPages(pages(), statesAfter({ kind: 'tag', tags: ['tide'] }, [target(a), target(c)]));
    expect(tagged[key(7)]!.items[0]!.tags).toEqual(['Ocean', 'tide']);
    expect(tagged[key(0)]!.items.map((x) => x.tags)).toEqual([['Ocean', 'tide'], [], ['tide']]);
    expect(ids(tagged[key(0)])).toEqual([1, 2, 3]);
    const starred = applyToPages(pages(), statesAfter({ kind: 'favourite', value: true }, [target(b)]));
    expect(starred[key(7)]!.items[1]!.important).toBe(true);
  });

  it('adds only to the first page of a listing, and never twice when a later page shows it', () => {
    const twoPages = { [key(8)]: { items: [c], count: 51 }, [key(8, '', '-created', 1)]: { items: [a], count: 51 } };
    const moved = statesAfter({ kind: 'move', to: 8 }, [{ ...target(a), collectionId: 7 }]);
    const out = applyToPages(twoPages, moved);
    expect(ids(out[key(8)])).toEqual([3]);
    expect(ids(out[key(8, '', '-created', 1)])).toEqual([1]);
    const sorted = applyToPages({ [key(8, '', 'title')]: { items: [c], count: 1 }, [key(7)]: { items: [b], count: 1 } }, statesAfter({ kind: 'move', to: 8 }, [target(b)]));
    expect(ids(sorted[key(8, '', 'title')])).toEqual([2, 3]); // "Page 2" before "Page 3"
  });
});

describe('applyToCounts', () => {
  it('moves counts from where the bookmarks were to where they went', () => {
    const sidebar = [7, 8].map((id): LibraryCollection => ({ id, title: `C${id}`, parentId: null, count: id === 7 ? 2 : 1, level: 4, shared: false, foreign: false, expanded: true, sort: 0 }));
    const before = [target(a), target(b)];
    const after = statesAfter({ kind: 'move', to: 8 }, before);
    expect(applyToCounts(sidebar, before, after).map((x) => x.count)).toEqual([0, 3]);
    expect(applyToCounts(sidebar, after, before).map((x) => x.count)).toEqual([4, 0]);
    expect(applyToCounts(sidebar, before, statesAfter({ kind: 'tag', tags: ['x'] }, before))).toBe(sidebar);
  });
});
