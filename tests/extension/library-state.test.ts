// The library's address state (what back, forward, reload and links rely on) and its list paging.
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, effectiveSort, formatState, isNewPlace, libraryUrl, parseState } from '../../lib/library/url-state.js';
import { Pager, type PageAnswer, type PagerSnapshot } from '../../lib/library/pager.js';

describe('library state in the address', () => {
  it('round-trips every field through the query string', () => {
    const state = { collectionId: 42, search: '#ocean -storm "the tide" domain:a.example ❤️', sort: 'title', view: 'compact', tab: 'highlights', color: 'blue' } as const;
    const query = formatState(state);
    expect(query).toBe('?c=42&q=%23ocean+-storm+%22the+tide%22+domain%3Aa.example+%E2%9D%A4%EF%B8%8F&sort=title&view=compact&tab=highlights&color=blue');
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
    expect(parseState('?sort=random').sort).toBe('');
    expect(parseState('?view=grid').view).toBe('list');
    expect(parseState('?color=chartreuse').color).toBeNull();
    expect(parseState(`?q=${'a'.repeat(3000)}`).search).toHaveLength(2000);
  });

  it('pushes history for a new place, replaces it while typing or switching the view', () => {
    expect(isNewPlace(DEFAULT_STATE, { ...DEFAULT_STATE, collectionId: 5 })).toBe(true);
    expect(isNewPlace(DEFAULT_STATE, { ...DEFAULT_STATE, tab: 'highlights' })).toBe(true);
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
