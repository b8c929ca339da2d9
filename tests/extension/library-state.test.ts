// The library's state: the address (what back, forward, reload and links rely on), list paging,
// selection, bulk changes and their Undo, and the keyboard.
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, effectiveSort, formatState, isNewPlace, libraryUrl, parseState } from '../../lib/library/url-state.js';
import { Pager, type PageAnswer, type PagerSnapshot } from '../../lib/library/pager.js';
import type { Bookmark } from '../../lib/api/types.js';
import { bulkTargets, chosenCount, clickRow, keyCommand, navigate, NO_SELECTION, selectLoaded, selectMatching, toggleRow, undoOfBulk, undoOfMatching } from '../../lib/library/library-state.js';
import { statesAfter } from '../../lib/library/offline-copy.js';

describe('library state in the address', () => {
  it('round-trips every field through the query string', () => {
    const state = { collectionId: 42, search: '#ocean -storm "the tide" domain:a.example ❤️', sort: 'title', view: 'compact', tab: 'highlights', color: 'blue', read: 7 } as const;
    const query = formatState(state);
    expect(query).toBe('?c=42&q=%23ocean+-storm+%22the+tide%22+domain%3Aa.example+%E2%9D%A4%EF%B8%8F&sort=title&view=compact&tab=highlights&color=blue&read=7');
    expect(parseState(query)).toEqual(state);
  });

  it('leaves defaults out, so the plain library is just library.html', () => {
    expect(formatState(DEFAULT_STATE)).toBe('');
    expect(parseState('')).toEqual(DEFAULT_STATE);
    expect(libraryUrl('chrome-extension://x/library.html?c=3#top', { search: 'tea' })).toBe('chrome-extension://x/library.html?q=tea');
  });

  it('keeps system collections and refuses values it does not know', () => {
    expect(parseState('?c=-99').collectionId).toBe(-99);
    expect(parseState('?c=-1').collectionId).toBe(-1);
    expect(parseState('?c=-5').collectionId).toBe(0);
    expect(parseState('?c=abc').collectionId).toBe(0);
    expect(parseState('?collection=12&q=%23tag')).toMatchObject({ collectionId: 12, search: '#tag' });
    expect(parseState('?c=3&collection=12').collectionId).toBe(3);
    expect(parseState('?sort=random').sort).toBe('');
    expect(parseState('?view=grid').view).toBe('list');
    expect(parseState('?color=chartreuse').color).toBeNull();
    expect(parseState('?read=0').read).toBeNull();
    expect(parseState('?read=-3').read).toBeNull();
    expect(parseState('?read=2.5').read).toBeNull();
    expect(parseState(`?q=${'a'.repeat(3000)}`).search).toHaveLength(2000);
  });

  it('pushes history for a new place, replaces it while typing or switching the view', () => {
    expect(isNewPlace(DEFAULT_STATE, { ...DEFAULT_STATE, collectionId: 5 })).toBe(true);
    expect(isNewPlace(DEFAULT_STATE, { ...DEFAULT_STATE, tab: 'highlights' })).toBe(true);
    // Opening the reader is a place of its own: Back closes it.
    expect(isNewPlace(DEFAULT_STATE, { ...DEFAULT_STATE, read: 9 })).toBe(true);
    expect(isNewPlace({ ...DEFAULT_STATE, read: 9 }, DEFAULT_STATE)).toBe(true);
    expect(isNewPlace(DEFAULT_STATE, { ...DEFAULT_STATE, search: 'x' })).toBe(false);
    expect(isNewPlace(DEFAULT_STATE, { ...DEFAULT_STATE, view: 'compact' })).toBe(false);
  });

  it('sorts by relevance while searching unless a sort was chosen; never by score without a search', () => {
    expect(effectiveSort({ search: '', sort: '' })).toBe('-created');
    expect(effectiveSort({ search: 'tide', sort: '' })).toBe('score');
    expect(effectiveSort({ search: 'tide', sort: 'domain' })).toBe('domain');
    expect(effectiveSort({ search: ' ', sort: 'score' })).toBe('-created');
  });
});

describe('list paging', () => {
  type Item = { _id: number };
  const server = (total: number, calls: number[]) => async (page: number): Promise<PageAnswer<Item>> => {
    calls.push(page);
    const items = Array.from({ length: Math.max(0, Math.min(50, total - page * 50)) }, (_, i) => ({ _id: page * 50 + i + 1 }));
    return { items, count: total };
  };

  it('loads 50 at a time, one page after another, and stops at the end', async () => {
    const calls: number[] = [];
    const snaps: PagerSnapshot<Item>[] = [];
    const pager = new Pager<Item>(server(120, calls), (s) => snaps.push(s));
    await pager.reset();
    expect(pager.snapshot).toMatchObject({ count: 120, pages: 1, done: false, loading: false });
    expect(pager.snapshot.items).toHaveLength(50);
    await pager.more();
    await pager.more();
    expect(pager.snapshot.items.map((i) => i._id)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(pager.snapshot.done).toBe(true);
    await pager.more();
    expect(calls).toEqual([0, 1, 2]);
    expect(snaps.some((s) => s.loading)).toBe(true);
  });

  it('asks once while a page is on its way, however often the end scrolls into view', async () => {
    const calls: number[] = [];
    const pager = new Pager<Item>(server(500, calls), () => {});
    await pager.reset();
    await Promise.all([pager.more(), pager.more(), pager.more()]);
    expect(calls).toEqual([0, 1]);
    expect(pager.snapshot.items).toHaveLength(100);
  });

  it('drops the answer of an older query when a new one started meanwhile', async () => {
    let release!: () => void;
    const slow = async (): Promise<PageAnswer<Item>> => {
      await new Promise<void>((r) => (release = r));
      return { items: [{ _id: 999 }], count: 1 };
    };
    const pager = new Pager<Item>(slow, () => {});
    const old = pager.reset();
    const fresh = pager.reset(async () => ({ items: [{ _id: 1 }, { _id: 2 }], count: 2 }));
    await fresh;
    release();
    await old;
    expect(pager.snapshot.items.map((i) => i._id)).toEqual([1, 2]);
    expect(pager.snapshot.done).toBe(true);
  });

  it('keeps what it has and reports the error when a page fails; more() tries again', async () => {
    let fail = true;
    const pager = new Pager<Item>(async (page) => {
      if (page === 1 && fail) throw new Error('Could not reach the Tidemark server');
      return { items: Array.from({ length: 50 }, (_, i) => ({ _id: page * 50 + i })), count: 200 };
    }, () => {});
    await pager.reset();
    await pager.more();
    expect(pager.snapshot).toMatchObject({ error: 'Could not reach the Tidemark server', pages: 1 });
    expect(pager.snapshot.items).toHaveLength(50);
    fail = false;
    await pager.more();
    expect(pager.snapshot).toMatchObject({ error: null, pages: 2 });
  });

  it('an edit patches a row in place; a row moved out of the view leaves and the count follows', async () => {
    const pager = new Pager<Item & { title?: string }>(async () => ({ items: [{ _id: 1 }, { _id: 2 }, { _id: 3 }], count: 3 }), () => {});
    await pager.reset();
    pager.patch((i) => (i._id === 2 ? { ...i, title: 'edited' } : i._id === 3 ? null : i));
    expect(pager.snapshot.items).toEqual([{ _id: 1 }, { _id: 2, title: 'edited' }]);
    expect(pager.snapshot.count).toBe(2);
  });

  it('keeps the previous rows on screen until the new query\'s first page replaces them', async () => {
    let release!: () => void;
    const pager = new Pager<Item>(async () => ({ items: [{ _id: 1 }, { _id: 2 }], count: 2 }), () => {});
    await pager.reset();
    const next = pager.reset(async () => {
      await new Promise<void>((r) => (release = r));
      return { items: [{ _id: 7 }], count: 1 };
    });
    expect(pager.snapshot).toMatchObject({ loading: true, pages: 0 });
    expect(pager.snapshot.items.map((i) => i._id)).toEqual([1, 2]);
    release();
    await next;
    expect(pager.snapshot.items.map((i) => i._id)).toEqual([7]);
    expect(pager.snapshot.count).toBe(1);
  });

  it('marks an answer served from the offline copy', async () => {
    const pager = new Pager<Item>(async () => ({ items: [{ _id: 1 }], count: 1, offline: true, cachedAt: 1234 }), () => {});
    await pager.reset();
    expect(pager.snapshot).toMatchObject({ offline: true, cachedAt: 1234 });
  });
});

describe('library selection and bulk changes', () => {
  const bookmark = (id: number, collectionId = 3, tags: string[] = [], important = false) =>
    ({ _id: id, collectionId, tags, important }) as unknown as Bookmark;
  const items = [1, 2, 3, 4, 5, 6].map((id) => bookmark(id, id % 2 ? 3 : 5, id === 2 ? ['tea'] : []));
  const none = { shift: false, ctrl: false };

  it('a plain click opens the row and anchors it, selecting nothing', () => {
    const r = clickRow(NO_SELECTION, items, 3, none, false);
    expect(r.open).toBe(3);
    expect(r.selection.ids.size).toBe(0);
    expect(r.selection.anchor).toBe(3);
  });

  it('Shift-click selects every row between the anchor and the clicked one, in either direction', () => {
    const anchored = clickRow(NO_SELECTION, items, 2, none, false).selection;
    const down = clickRow(anchored, items, 5, { shift: true, ctrl: false }, false);
    expect([...down.selection.ids].sort()).toEqual([2, 3, 4, 5]);
    expect(down.open).toBeNull();
    const up = clickRow({ ...NO_SELECTION, anchor: 5 }, items, 2, { shift: true, ctrl: false }, false);
    expect([...up.selection.ids].sort()).toEqual([2, 3, 4, 5]);
    // Added to what was selected, not replacing it.
    const more = clickRow({ ids: new Set([6]), anchor: 1, matching: null }, items, 2, { shift: true, ctrl: false }, false);
    expect([...more.selection.ids].sort()).toEqual([1, 2, 6]);
  });

  it('Ctrl-click and the checkbox toggle one row and move the anchor there', () => {
    let sel = clickRow(NO_SELECTION, items, 4, { shift: false, ctrl: true }, false).selection;
    expect([...sel.ids]).toEqual([4]);
    sel = toggleRow(sel, 1);
    expect([...sel.ids].sort()).toEqual([1, 4]);
    expect(sel.anchor).toBe(1);
    sel = toggleRow(sel, 4);
    expect([...sel.ids]).toEqual([1]);
  });

  it('where the person can only read, clicks never select: they open', () => {
    const anchored = { ...NO_SELECTION, anchor: 1 };
    expect(clickRow(anchored, items, 4, { shift: true, ctrl: false }, true)).toMatchObject({ open: 4 });
    expect(clickRow(anchored, items, 4, { shift: false, ctrl: true }, true).selection.ids.size).toBe(0);
  });

  it('"select all matching" inside a collection marks every match by the search; everywhere it needs the rows loaded', () => {
    const sel = selectMatching({ collectionId: 3, search: '#tea' }, items, 240)!;
    expect(sel.matching).toEqual({ collectionId: 3, search: '#tea', count: 240 });
    expect(sel.ids.size).toBe(items.length);
    expect(chosenCount(sel)).toBe(240);
    expect(selectMatching({ collectionId: 0, search: '#tea' }, items, 240)).toBeNull();
    // Picking a row by hand afterwards is a selection of rows again, not of every match.
    const picked = toggleRow(sel, 2);
    expect(picked.matching).toBeNull();
    expect(chosenCount(picked)).toBe(items.length - 1);
    expect(selectLoaded(items, false)).toEqual(NO_SELECTION);
  });

  it('a bulk change acts on the selected rows as they are now, else on the opened bookmark', () => {
    const sel = toggleRow(toggleRow(NO_SELECTION, 2), 3);
    expect(bulkTargets(items, sel, null)).toEqual([
      { id: 2, collectionId: 5, tags: ['tea'], important: false },
      { id: 3, collectionId: 3, tags: [], important: false },
    ]);
    expect(bulkTargets(items, NO_SELECTION, items[5]!)).toEqual([{ id: 6, collectionId: 5, tags: [], important: false }]);
    expect(bulkTargets(items, NO_SELECTION, null)).toEqual([]);
  });

  it('the Undo of a bulk move remembers where each bookmark was, and whether the move waits in the queue', () => {
    const before = bulkTargets(items, toggleRow(toggleRow(NO_SELECTION, 1), 2), null);
    const move = { kind: 'move', to: 9 } as const;
    const entry = undoOfBulk(move, before, 'Moved 2 bookmarks', { modified: 2, queued: true, undoable: true })!;
    expect(entry).toEqual({ action: move, before: [expect.objectContaining({ id: 1, collectionId: 3 }), expect.objectContaining({ id: 2, collectionId: 5 })], label: 'Moved 2 bookmarks', queued: true });
    // The offline copy shows the move at once, and undoing it puts each back in its own collection.
    const moved = statesAfter(move, before);
    expect(moved.map((s) => s.collectionId)).toEqual([9, 9]);
    expect(entry.before.map((s) => s.collectionId)).toEqual([3, 5]);
    expect(undoOfBulk({ kind: 'delete-forever' }, before, 'Deleted', { modified: 2, queued: false, undoable: false })).toBeNull();
  });

  it('the Undo of a change of every match is made by the same search', () => {
    const m = { collectionId: 3, search: 'tide', count: 80 };
    expect(undoOfMatching({ kind: 'trash' }, m, 'Trashed 80', { modified: 80, queued: false, undoable: true })).toEqual({ action: { kind: 'trash' }, before: [], matching: m, label: 'Trashed 80', queued: false });
    expect(undoOfMatching({ kind: 'trash' }, m, 'Trashed 80', { modified: 80, queued: false, undoable: false })).toBeNull();
  });
});

describe('library navigation and keys', () => {
  it('a new place is a new history entry and round-trips through the address; typing replaces the entry', () => {
    const { next, push } = navigate(DEFAULT_STATE, { collectionId: 12, tab: 'bookmarks' });
    expect(push).toBe(true);
    const typed = navigate(next, { search: '#tag' });
    expect(typed.push).toBe(false);
    expect(formatState(typed.next)).toBe('?c=12&q=%23tag');
    expect(parseState(formatState(typed.next))).toEqual(typed.next);
  });

  const ctx = { typing: false, modifier: false, dialogOpen: false, tab: 'bookmarks' as const, count: 20, focused: -1, hasSelection: false, readOnly: false };

  it('j/k and the arrows move through the rows, loading more near the end', () => {
    expect(keyCommand('j', ctx)).toEqual({ kind: 'focus', index: 0, more: false });
    expect(keyCommand('ArrowDown', { ...ctx, focused: 14 })).toEqual({ kind: 'focus', index: 15, more: true });
    expect(keyCommand('ArrowDown', { ...ctx, focused: 19 })).toEqual({ kind: 'focus', index: 19, more: true });
    expect(keyCommand('k', { ...ctx, focused: 0 })).toEqual({ kind: 'focus', index: 0, more: false });
  });

  it('keys act on the focused row, never while typing, in a dialog or with a modifier', () => {
    const on = { ...ctx, focused: 3 };
    expect(keyCommand('Enter', on).kind).toBe('open');
    expect(keyCommand('e', on).kind).toBe('edit');
    expect(keyCommand(' ', on).kind).toBe('toggle');
    expect(keyCommand(' ', { ...on, readOnly: true }).kind).toBe('none');
    expect(keyCommand('Delete', on).kind).toBe('delete');
    expect(keyCommand('Enter', ctx).kind).toBe('none');
    expect(keyCommand('j', { ...on, typing: true }).kind).toBe('none');
    expect(keyCommand('/', { ...on, dialogOpen: true }).kind).toBe('none');
    expect(keyCommand('/', { ...on, modifier: true }).kind).toBe('none');
    expect(keyCommand('/', { ...ctx, tab: 'highlights', count: 0 }).kind).toBe('focus-search');
  });

  it('Escape steps back: out of the field, then the selection, then the detail pane; a dialog handles its own', () => {
    expect(keyCommand('Escape', { ...ctx, typing: true, hasSelection: true }).kind).toBe('blur');
    expect(keyCommand('Escape', { ...ctx, hasSelection: true }).kind).toBe('clear-selection');
    expect(keyCommand('Escape', ctx).kind).toBe('close-detail');
    expect(keyCommand('Escape', { ...ctx, dialogOpen: true }).kind).toBe('none');
  });
});
