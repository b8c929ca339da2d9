// The popup's first requests (lib/popup/first-requests.ts): asked for once by the early script, taken
// once by the app, errors kept for the app to show.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';

const sent: { type: string; data: unknown }[] = [];
let answers: Record<string, () => Promise<unknown>> = {};
vi.mock('../../lib/messaging/client.js', () => ({
  send: (type: string, data: unknown) => {
    sent.push({ type, data });
    return answers[type]();
  },
}));

import { askFirstRequests, takeCollections, takeOpening, takeSiteAccess } from '../../lib/popup/first-requests.js';

afterEach(() => {
  sent.length = 0;
  answers = {};
  void takeOpening();
  void takeCollections();
  void takeSiteAccess();
  vi.restoreAllMocks();
  fakeBrowser.reset();
});

const activeTab = (tab: { id?: number; windowId?: number; title?: string; url?: string } | undefined) =>
  vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue((tab ? [tab] : []) as never);

describe('popup first requests', () => {
  it('asks for the active tab\'s bookmark and the cached collections once; the app takes each answer once', async () => {
    activeTab({ id: 7, windowId: 3, title: 'The Tides of March', url: 'https://tides.example/march' });
    const bookmark = { state: 'signed-out', reason: null };
    const collections = { items: [{ id: 1 }], recent: [] };
    answers = { popupOpened: async () => bookmark, listCollections: async () => collections };
    askFirstRequests();
    const opening = await takeOpening();
    // The page's title and address, as the browser has them, for the popup to show while the answer comes.
    expect(opening).toMatchObject({ tabId: 7, windowId: 3, title: 'The Tides of March', url: 'https://tides.example/march' });
    expect(await opening!.answer).toBe(bookmark);
    expect(await takeCollections()).toBe(collections);
    expect(sent).toEqual([
      { type: 'listCollections', data: { refresh: false } },
      { type: 'popupOpened', data: { tabId: 7 } },
    ]);
    // Taken: the app asks itself next time ("Try again").
    expect(takeOpening()).toBeNull();
    expect(takeCollections()).toBeNull();
  });

  it('keeps a failed answer for the app, which shows it', async () => {
    activeTab({ id: 7, windowId: 3 });
    answers = { popupOpened: () => Promise.reject(new Error('The server answered 500.')), listCollections: () => Promise.reject(new Error('offline')) };
    askFirstRequests();
    await new Promise((r) => setTimeout(r, 0));
    const opening = await takeOpening();
    await expect(opening!.answer).rejects.toThrow('The server answered 500.');
    await expect(takeCollections()!).rejects.toThrow('offline');
  });

  it('no active tab: no bookmark request, and the app is told there is no tab', async () => {
    activeTab(undefined);
    answers = { listCollections: async () => ({ items: [], recent: [] }) };
    askFirstRequests();
    expect(await takeOpening()).toBeNull();
    expect(sent.map((s) => s.type)).toEqual(['listCollections']);
  });
});

describe('popup first requests: site access', () => {
  it('asks whether the extension may read the sites and whether the question was answered; the app takes the state once, known once answered', async () => {
    activeTab(undefined);
    answers = { listCollections: async () => ({ items: [], recent: [] }) };
    const contains = vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(false);
    await fakeBrowser.storage.local.set({ autoPaintAsked: false });
    askFirstRequests();
    const early = takeSiteAccess()!;
    expect(early.known).toBeNull();
    expect(await early.answer).toEqual({ granted: false, ask: true });
    expect(early.known).toEqual({ granted: false, ask: true });
    expect(contains).toHaveBeenCalledWith({ origins: ['http://*/*', 'https://*/*'] });
    expect(takeSiteAccess()).toBeNull();
  });

  it('reads the answer where the background keeps it (autoPaintAskedItem)', async () => {
    vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(false);
    const { autoPaintAskedItem } = await import('../../lib/storage/items.js');
    const { siteAccessState } = await import('../../lib/popup/site-access-state.js');
    await autoPaintAskedItem.setValue(false);
    expect(await siteAccessState()).toEqual({ granted: false, ask: true });
    await autoPaintAskedItem.setValue(true);
    expect(await siteAccessState()).toEqual({ granted: false, ask: false });
  });

  it('no question once it was answered, nor with site access', async () => {
    activeTab(undefined);
    answers = { listCollections: async () => ({ items: [], recent: [] }) };
    const contains = vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(false);
    await fakeBrowser.storage.local.set({ autoPaintAsked: true });
    askFirstRequests();
    expect(await takeSiteAccess()!.answer).toEqual({ granted: false, ask: false });
    contains.mockResolvedValue(true);
    await fakeBrowser.storage.local.set({ autoPaintAsked: false });
    askFirstRequests();
    expect(await takeSiteAccess()!.answer).toEqual({ granted: true, ask: false });
  });
});
