// The API calls a library bulk change and its Undo make (lib/library/bulk-calls.ts), shared by the
// background and the web app: what a person relies on is that Undo puts each bookmark back where it
// was, and that big selections never exceed the API's 100 ids a call.
import { describe, expect, it } from 'vitest';
import { bulkCalls, removeTagCalls, undoCalls } from '../../lib/library/bulk-calls.js';
import { statesAfter } from '../../lib/library/offline-copy.js';
import type { BulkTarget } from '../../lib/library/types.js';

const target = (id: number, collectionId: number, tags: string[] = [], important = false): BulkTarget => ({ id, collectionId, tags, important });
const noRemoveTag = () => Promise.reject(new Error('not asked for this action'));

describe('library bulk calls', () => {
  it('a move sends one call per source collection, skipping bookmarks already there', () => {
    const calls = bulkCalls({ kind: 'move', to: 9 }, [target(1, 3), target(2, 5), target(3, 3), target(4, 9)]);
    expect(calls).toEqual([
      { kind: 'bulk', method: 'PUT', collectionId: 3, ids: [1, 3], body: { collection: { $id: 9 } } },
      { kind: 'bulk', method: 'PUT', collectionId: 5, ids: [2], body: { collection: { $id: 9 } } },
    ]);
  });

  it('never puts more than 100 ids in one call', () => {
    const many = Array.from({ length: 230 }, (_, i) => target(i + 1, 3));
    const calls = bulkCalls({ kind: 'trash' }, many);
    expect(calls.map((c) => (c.kind === 'bulk' ? c.ids.length : 0))).toEqual([100, 100, 30]);
    expect(calls.every((c) => c.kind === 'bulk' && c.method === 'DELETE')).toBe(true);
  });

  it('undoing a bulk move puts each bookmark back in the collection it came from', async () => {
    const before = [target(1, 3), target(2, 5), target(3, 3), target(4, 9)];
    const calls = await undoCalls({ kind: 'move', to: 9 }, before, noRemoveTag);
    expect(calls).toEqual([
      { kind: 'bulk', method: 'PUT', collectionId: 9, ids: [1, 3], body: { collection: { $id: 3 } } },
      { kind: 'bulk', method: 'PUT', collectionId: 9, ids: [2], body: { collection: { $id: 5 } } },
    ]);
    // Played on the bookmarks as the move left them, the Undo's calls give back where each was.
    const after = new Map(statesAfter({ kind: 'move', to: 9 }, before).map((s) => [s.id, s.collectionId]));
    for (const c of calls) if (c.kind === 'bulk') for (const id of c.ids) after.set(id, (c.body.collection as { $id: number }).$id);
    expect([...after.entries()]).toEqual(before.map((b) => [b.id, b.collectionId]));
  });

  it('undoing a favourite restores each bookmark\'s own value; deleting for good has no Undo', async () => {
    const calls = await undoCalls({ kind: 'favourite', value: true }, [target(1, 3, [], true), target(2, 3), target(3, 3)], noRemoveTag);
    expect(calls).toEqual([
      { kind: 'bulk', method: 'PUT', collectionId: 3, ids: [1], body: { important: true } },
      { kind: 'bulk', method: 'PUT', collectionId: 3, ids: [2, 3], body: { important: false } },
    ]);
    await expect(undoCalls({ kind: 'delete-forever' }, [target(1, -99)], noRemoveTag)).rejects.toThrow(/cannot be undone/);
  });

  it('takes a tag off a whole collection in one call when every carrier is chosen, else sets exact tags', async () => {
    const chosen = [target(1, 3, ['tea']), target(2, 3, ['Tea', 'x']), target(3, 3, ['tea']), target(4, 3, ['tea'])];
    expect(await removeTagCalls('tea', chosen, async () => 4)).toEqual([{ kind: 'remove-tag', collectionId: 3, tag: 'tea', targets: chosen }]);
    // Another bookmark carries it too (or the count cannot be asked, offline): only the chosen lose it.
    for (const carrying of [5, null]) {
      const calls = await removeTagCalls('tea', chosen, async () => carrying);
      expect(calls).toEqual([
        { kind: 'bulk', method: 'PUT', collectionId: 3, ids: [1, 3, 4], body: { tags: [] } },
        { kind: 'set-tags', id: 2, collectionId: 3, tags: ['x'] },
      ]);
    }
  });
});
