// The background service worker: wires the services together and registers every listener
// synchronously (MV3 wakes the worker for an event only if its listener was added at startup).
import { browser, type Browser } from 'wxt/browser';
import { normalizeUrl } from '../api/url.js';
import type { Bookmark } from '../api/types.js';
import { t } from '../i18n.js';
import { draftOf, serverIdOf, type Account, type BookmarkRef } from '../model.js';
import { emit } from '../messaging/client.js';
import { classifySender, createMessageListener, isEnvelope, UserFacingError, type Handlers } from '../messaging/router.js';
import { openSidePanel } from '../browser-differences.js';
import { panelState } from './panel.js';
import { autoPaintAskedItem, badgeEnabledItem, signedOutReasonItem, tagsCacheItem } from '../storage/items.js';
import { Auth } from './auth.js';
import { BadgeService } from './badge.js';
import { BookmarksService } from './bookmarks.js';
import { CollectionsService } from './collections.js';
import { ExistsBatcher } from './exists-batcher.js';
import { SavedIndexService } from './index-sync.js';
import { WriteQueue } from './queue.js';
import { HighlightsService } from './highlights.js';
import { PagePrefetch } from './page-prefetch.js';
import { injectHighlighter, injectHighlighterPart, tabCommand } from './highlighter-injection.js';
import { syncLoaderRegistration } from './highlighter-registration.js';
import { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';
import { reportError } from './report-error.js';
import { LibraryService } from './library.js';
import { listenForExports } from './export-port.js';
import { createOmnibox, type OmniboxDisposition } from './omnibox.js';
import { startBookmarkSync } from './bookmark-sync/index.js';

const ALARM_DRAIN = 'queue-drain';
const ALARM_SYNC = 'index-sync';
const MENU_SAVE_PAGE = 'save-page';
const MENU_SAVE_LINK = 'save-link';
const MENU_SAVE_IMAGE = 'save-image';
const COMMAND_SAVE_PAGE = 'save-page';
const MENU_HIGHLIGHT = 'highlight';
const MENU_HIGHLIGHT_NOTE = 'highlight-note';
const COMMAND_HIGHLIGHT = 'highlight-selection';
const COMMAND_SIDE_PANEL = 'open-side-panel';
const COMMAND_OPEN_LIBRARY = 'open-library';

const SYNC_EVERY_MINUTES = 5;
const DRAIN_EVERY_MINUTES = 0.5;

export function startBackground() {
  const auth = new Auth({ onChange: (account, reason, userInitiated) => void onAuthChanged(account, reason, userInitiated) });
  const api = auth.api;
  const account = () => auth.account();

  const queue = new WriteQueue({
    api,
    account,
    onChange: (view, pending) => {
      emit('queueChanged', view);
      void scheduleDrain(pending > 0);
    },
    onBulkDelivered: () => void index.sync().catch(reportError('saved-link index sync')),
    onDelivered: (write, bookmark, id) => {
      if (write.op === 'remove' || !bookmark || bookmark.removed) noteRemoved(id, bookmark?.link ?? '');
      else noteSaved(bookmark);
      if (write.op === 'update' && write.body.highlights && bookmark) {
        void highlights.noteDelivered(bookmark).then(() => emit('highlightsChanged', { tabId: null }));
      }
      emit('bookmarkWritten', { ref: write.ref, result: { state: 'saved', bookmark: bookmark && !bookmark.removed ? draftOf(bookmark) : null } });
    },
  });
  const bookmarkSync = startBookmarkSync({ api, queue, account });
  const index = new SavedIndexService({ api, account, onSynced: () => void badge.refreshAll() });
  const exists = new ExistsBatcher({ check: (urls) => api.urlExists(urls, { retries: 0 }) });
  const collections = new CollectionsService({
    api,
    account,
    unsortedTitle: () => t('collectionUnsorted'),
    onChange: (view) => emit('collectionsChanged', view),
  });
  const badge = new BadgeService({
    enabled: () => badgeEnabledItem.getValue(),
    signedIn: async () => (await account()) !== null,
    status: async (url) => {
      const key = normalizeUrl(url);
      if (!key) return { saved: false };
      await index.load();
      const hit = index.lookup(key);
      if (hit !== undefined) return hit ? { saved: true, collectionId: hit.collectionId } : { saved: false };
      const id = await exists.check(url);
      return id === undefined ? undefined : { saved: id !== null };
    },
    collectionTitle: (id) => collections.title(id),
  });

  function noteSaved(bookmark: Bookmark) {
    const key = normalizeUrl(bookmark.link);
    if (!key) return;
    index.noteSaved(bookmark._id, key, bookmark.collectionId);
    exists.set(key, bookmark._id);
    void badge.refreshAll();
  }
  function noteRemoved(id: number, link: string) {
    index.noteRemoved(id);
    const key = link ? normalizeUrl(link) : null;
    if (key) exists.set(key, null);
    else exists.invalidate();
    void badge.refreshAll();
  }

  const bookmarks = new BookmarksService({
    api,
    queue,
    account,
    lookup: (key) => index.lookup(key),
    onSaved: noteSaved,
    onRemoved: noteRemoved,
    usedCollection: (id) => collections.used(id),
  });

  const library = new LibraryService({
    api,
    account,
    accessToken: () => auth.getAccessToken(),
    onChanged: () => void index.sync().catch(reportError('saved-link index sync')),
    enqueueBulk: async (w) => {
      const acc = await account();
      if (!acc) throw new UserFacingError(t('errorSignedOut'), 'signed-out');
      await queue.enqueue({ op: 'bulk', ref: `b:${w.ids[0] ?? 0}`, ...w, key: crypto.randomUUID(), userId: acc.userId, serverUrl: acc.serverUrl });
    },
  });

  const libraryPage = () => browser.runtime.getURL('/library.html');
  /** Opens the library (a tab of it already open is reused and shown), optionally at `url`. */
  async function openLibrary(url = libraryPage()) {
    const [open] = await browser.tabs.query({ url: `${libraryPage()}*` }).catch(() => []);
    if (open?.id !== undefined) {
      await browser.tabs.update(open.id, { active: true, ...(url !== libraryPage() ? { url } : {}) });
      // The tab is shown already; a window that cannot take the focus (closed meanwhile) changes nothing.
      if (open.windowId !== undefined) await browser.windows.update(open.windowId, { focused: true }).catch(() => {});
    } else {
      await browser.tabs.create({ url });
    }
  }

  const omnibox = createOmnibox({
    search: async (search) => (await library.list({ collectionId: 0, search, sort: '', page: 0 })).items,
    open: async (url: string, disposition: OmniboxDisposition) => {
      if (url.startsWith(libraryPage())) return openLibrary(url);
      if (disposition === 'currentTab') {
        const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
        if (tab?.id !== undefined) {
          await browser.tabs.update(tab.id, { url });
          return;
        }
      }
      await browser.tabs.create({ url, active: disposition !== 'newBackgroundTab' });
    },
    libraryPage,
    markup: import.meta.env.BROWSER !== 'firefox',
  });

  const pagePrefetch = new PagePrefetch<Awaited<ReturnType<HighlightsService['page']>>>();
  const highlights = new HighlightsService({
    api,
    queue,
    account,
    lookup: (key) => index.lookup(key),
    openForTab: (tabId, opts) => bookmarks.openForTab(tabId, opts),
    onSaved: noteSaved,
  });

  /** Context menu "Highlight" / "Highlight with note" and the keyboard command: the page's own handler does the work. */
  async function highlightInTab(tab: Browser.tabs.Tab | undefined, color: HighlightColor | null, withNote: boolean) {
    const target = tab?.id !== undefined ? tab : (await browser.tabs.query({ active: true, currentWindow: true }))[0];
    if (target?.id === undefined) return;
    try {
      const r = await tabCommand(target.id, 'highlight', { color, withNote });
      if (r && !r.ok && r.error) await flashThenRestore(target.id, 'error', r.error);
    } catch (err) {
      await flashThenRestore(target.id, 'error', (err as Error).message);
    }
  }

  async function scheduleDrain(pending: boolean) {
    if (pending) {
      const existing = await browser.alarms.get(ALARM_DRAIN);
      if (!existing) await browser.alarms.create(ALARM_DRAIN, { periodInMinutes: DRAIN_EVERY_MINUTES, delayInMinutes: DRAIN_EVERY_MINUTES });
    } else {
      await browser.alarms.clear(ALARM_DRAIN);
    }
  }

  async function ensureSyncAlarm() {
    if (!(await browser.alarms.get(ALARM_SYNC))) await browser.alarms.create(ALARM_SYNC, { periodInMinutes: SYNC_EVERY_MINUTES });
  }

  async function onAuthChanged(acc: Account | null, reason: string | null, userInitiated: boolean) {
    exists.invalidate();
    await index.reset();
    if (acc) {
      await ensureSyncAlarm();
      index.sync().catch(reportError('saved-link index sync'));
      collections.refresh().catch(reportError('collection list refresh'));
      queue.drain().catch(reportError('offline queue drain'));
    } else {
      if (userInitiated) {
        // Writes still waiting are kept for their account (the options page warned before signing
        // out): signing in to it again sends them. So are the ids their highlight changes need.
        await collections.forget();
        await tagsCacheItem.setValue(null);
        await highlights.forgetAll({ keepIds: (await queue.state()).entries.length > 0 });
      }
      await browser.alarms.clear(ALARM_SYNC);
    }
    emit('authChanged', { account: acc, signedOutReason: reason });
    emit('queueChanged', await queue.view());
    await badge.refreshAll();
  }

  /** A side panel being opened for the page's toolbar (see the first message listener). */
  let panelOpening: Promise<boolean> | null = null;

  /** Tells the side panel and the popup that a tab's highlights changed, once the change is done. */
  function changed<T>(tabId: number | null, done: Promise<T>): Promise<T> {
    return done.then((value) => {
      emit('highlightsChanged', { tabId });
      return value;
    });
  }

  const drainSoon = () => {
    queue.drain().catch(reportError('offline queue drain'));
  };

  // --- handlers shared by listeners and (for tests) exposed on the worker ---

  async function saveTabFromShortcut(tab: Browser.tabs.Tab | undefined) {
    const target = tab?.id !== undefined ? tab : (await browser.tabs.query({ active: true, currentWindow: true }))[0];
    if (target?.id === undefined) return;
    try {
      const result = await bookmarks.openForTab(target.id, { create: true });
      if (result.state === 'saved') {
        await badge.flash(target.id, result.queued ? 'queued' : 'saved', result.queued ? t('badgeQueued') : result.created ? t('badgeSaved') : t('badgeAlreadySaved'));
      } else if (result.state === 'signed-out') {
        await badge.flash(target.id, 'error', t('errorSignedOut'));
      } else if (result.state === 'unsupported') {
        await badge.flash(target.id, 'error', result.reason);
      }
    } catch (err) {
      await badge.flash(target.id, 'error', (err as Error).message);
    }
  }

  /** Feedback on the tab for a save that was not of the tab's own page, then the real badge again. */
  async function flashThenRestore(tabId: number | undefined, outcome: 'saved' | 'queued' | 'exists' | 'error', title: string) {
    if (tabId === undefined) return;
    await badge.flash(tabId, outcome, title);
    setTimeout(() => void badge.showForTab(tabId), 2500);
  }

  async function onMenuClicked(info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab) {
    try {
      if (info.menuItemId === MENU_SAVE_PAGE) return await saveTabFromShortcut(tab);
      const id = String(info.menuItemId);
      if (id === MENU_HIGHLIGHT_NOTE) return await highlightInTab(tab, null, true);
      if (id.startsWith(`${MENU_HIGHLIGHT}:`)) return await highlightInTab(tab, id.slice(MENU_HIGHLIGHT.length + 1) as HighlightColor, false);
      if (info.menuItemId === MENU_SAVE_LINK && info.linkUrl) {
        const linkText = (info as { linkText?: string }).linkText;
        const r = await bookmarks.saveLink(info.linkUrl, linkText || info.selectionText);
        return await flashThenRestore(tab?.id, r.exists ? 'exists' : r.state, r.exists ? t('badgeLinkAlreadySaved') : r.state === 'queued' ? t('badgeQueued') : t('badgeLinkSaved'));
      }
      if (info.menuItemId === MENU_SAVE_IMAGE && info.srcUrl) {
        const r = await bookmarks.saveImage(info.srcUrl, tab?.title);
        return await flashThenRestore(tab?.id, r.state, r.state === 'queued' ? t('badgeQueued') : t('badgeImageSaved'));
      }
    } catch (err) {
      await flashThenRestore(tab?.id, 'error', (err as Error).message);
    }
  }

  async function onCommand(command: string, tab?: Browser.tabs.Tab) {
    // First, before any await: the side panel opens only while the key press lasts.
    if (command === COMMAND_SIDE_PANEL) {
      await openSidePanel(tab?.windowId);
      return;
    }
    if (command === COMMAND_SAVE_PAGE) await saveTabFromShortcut(tab);
    if (command === COMMAND_HIGHLIGHT) await highlightInTab(tab, null, false);
    if (command === COMMAND_OPEN_LIBRARY) await openLibrary();
  }

  async function onAlarm(alarm: Browser.alarms.Alarm) {
    if (alarm.name === ALARM_DRAIN) await queue.drain().catch(reportError('offline queue drain'));
    if (alarm.name === ALARM_SYNC) await index.sync().catch(reportError('saved-link index sync'));
  }

  function createMenus() {
    browser.contextMenus.removeAll().then(() => {
      browser.contextMenus.create({ id: MENU_SAVE_PAGE, title: t('menuSavePage'), contexts: ['page'] });
      browser.contextMenus.create({ id: MENU_SAVE_LINK, title: t('menuSaveLink'), contexts: ['link'] });
      browser.contextMenus.create({ id: MENU_SAVE_IMAGE, title: t('menuSaveImage'), contexts: ['image'] });
      browser.contextMenus.create({ id: MENU_HIGHLIGHT, title: t('menuHighlight'), contexts: ['selection'] });
      for (const color of HIGHLIGHT_COLORS) {
        browser.contextMenus.create({ id: `${MENU_HIGHLIGHT}:${color}`, parentId: MENU_HIGHLIGHT, title: t(`color_${color}`), contexts: ['selection'] });
      }
      browser.contextMenus.create({ id: MENU_HIGHLIGHT_NOTE, title: t('menuHighlightNote'), contexts: ['selection'] });
    }).catch(reportError('context menu setup'));
  }

  async function resolveRef(ref: BookmarkRef): Promise<number | null> {
    return serverIdOf(await queue.serverRef(ref));
  }

  /** The page a content script is on: the tab's address for the top frame (it follows SPA navigations; the sender's URL does not). */
  const senderPage = (sender: Browser.runtime.MessageSender) => ((sender.frameId ?? 0) === 0 && sender.tab?.url) || sender.url || '';

  const handlers: Handlers = {
    getStatus: async () => ({
      account: await account(),
      signedOutReason: await signedOutReasonItem.getValue(),
      serverUrl: await auth.serverUrl(),
      queue: await queue.view(),
    }),
    popupOpened: async ({ tabId }) => {
      const result = await bookmarks.openForTab(tabId);
      // Writes waiting: try to send them now. Checked beside the answer, not before it (a storage read).
      queue.state().then((q) => q.entries.length && drainSoon(), reportError('offline queue check'));
      return result;
    },
    saveTab: ({ tabId }) => bookmarks.openForTab(tabId, { create: true }),
    updateBookmark: async ({ ref, changes, append, label }) => {
      const result = await bookmarks.update(ref, changes, label ?? '', { append });
      emit('bookmarkWritten', { ref, result });
      return result;
    },
    removeBookmark: ({ ref }) => bookmarks.remove(ref),
    restoreBookmark: ({ ref, collectionId }) => bookmarks.restore(ref, collectionId),
    listCollections: ({ refresh }) => collections.view(refresh),
    createCollection: async ({ title, parentId }) => {
      try {
        return await collections.create(title, parentId);
      } catch (err) {
        throw new UserFacingError(t('errorCreateCollection', (err as Error).message));
      }
    },
    // Tags are not needed for the popup's first paint: ask the server, the cache is for offline.
    listTags: async () => {
      const acc = await account();
      if (!acc) return [];
      const owner = `${acc.serverUrl}|${acc.userId}`;
      try {
        const items = await api.getTags();
        await tagsCacheItem.setValue({ owner, items, fetchedAt: Date.now() });
        return items;
      } catch {
        const cache = await tagsCacheItem.getValue();
        return cache?.owner === owner ? cache.items : [];
      }
    },
    suggestTags: async ({ ref }) => {
      const id = await resolveRef(ref);
      if (id === null) return [];
      return api.suggestTags(id).catch(() => []);
    },
    getQueue: () => queue.view(),
    drainQueue: async () => {
      await queue.drain().catch(reportError('offline queue drain'));
      return queue.view();
    },
    dismissFailures: async () => {
      await queue.dismissFailures();
      return queue.view();
    },
    signIn: ({ serverUrl }) => auth.signInWithOAuth(serverUrl),
    useTestToken: ({ serverUrl, token }) => auth.signInWithTestToken(serverUrl, token),
    signOut: async () => {
      await auth.signOut();
      return null;
    },
    loadHighlighter: async ({ paint }, sender) => {
      // On load: only saved pages get the highlighter (to paint); a selection always gets it.
      const url = senderPage(sender);
      if (paint && !(await highlights.maybeSaved(url))) return null;
      // To paint, its first request is this page's highlights: asked now, while it is being injected.
      if (paint) pagePrefetch.start(sender.tab!.id!, sender.frameId ?? 0, url, () => highlights.page(url));
      await injectHighlighter(sender.tab!.id!, sender.frameId ?? 0);
      return null;
    },
    // The highlighter already runs in that frame (it asks): one of its on-demand parts.
    loadHighlighterPart: async ({ part }, sender) => {
      await injectHighlighterPart(sender.tab!.id!, sender.frameId ?? 0, part);
      return null;
    },
    pageHighlights: async (_data, sender) => {
      const url = senderPage(sender);
      return highlights.view(await (pagePrefetch.take(sender.tab?.id ?? -1, sender.frameId ?? 0, url) ?? highlights.page(url)));
    },
    addHighlight: (data, sender) => changed(sender.tab!.id!, highlights.add(sender.tab!.id!, senderPage(sender), data)),
    changeHighlight: async ({ key, color }, sender) =>
      changed(sender.tab!.id!, highlights.change(senderPage(sender), key, { color }).then((page) => highlights.view(page))),
    removeHighlight: async ({ key }, sender) =>
      changed(sender.tab!.id!, highlights.remove(senderPage(sender), key).then((page) => highlights.view(page))),
    editHighlightNote: ({ key }, sender) => {
      const opening = panelOpening ?? Promise.resolve(false);
      panelOpening = null;
      // An open panel re-reads the list and opens that note.
      return changed(sender.tab?.id ?? null, highlights.editNote(key, opening));
    },
    listHighlights: ({ tabId }) => highlights.list(tabId),
    setHighlightNote: ({ tabId, key, note }) => changed(tabId, highlights.setNote(tabId, key, note)),
    showHighlight: ({ tabId, key }) => tabCommand(tabId, 'show', { key }),
    panelState: ({ tabId }) =>
      panelState(tabId, { account, openForTab: (id, opts) => bookmarks.openForTab(id, opts), listHighlights: (id) => highlights.list(id) }),
    setHighlightColor: ({ tabId, key, color }) => changed(tabId, highlights.recolorInTab(tabId, key, color)),
    deleteHighlight: ({ tabId, key }) => changed(tabId, highlights.removeInTab(tabId, key)),
    restoreHighlight: ({ tabId, key }) => changed(tabId, highlights.restoreInTab(tabId, key)),
    openSidePanel: async () => {
      const opening = panelOpening ?? Promise.resolve(false);
      panelOpening = null;
      return { opened: await opening };
    },
    autoPaintAnswered: async ({ granted }) => {
      await autoPaintAskedItem.setValue(true);
      if (granted) await syncLoaderRegistration().catch(reportError('highlighter registration'));
      return null;
    },
    libraryList: (q) => library.list(q),
    libraryCollections: () => library.collections(),
    libraryHighlights: ({ collectionId, page }) => library.highlights(collectionId, page),
    libraryBulk: ({ action, targets }) => library.bulk(action, targets),
    libraryUndo: ({ action, before, queued }) => library.undo(action, before, queued),
    libraryBulkMatching: ({ action, collectionId, search }) => library.bulkMatching(action, collectionId, search),
    libraryUndoMatching: ({ action, collectionId, search }) => library.undoMatching(action, collectionId, search),
    libraryEmptyTrash: () => library.emptyTrash(),
    libraryCollectionOp: async (op) => {
      const result = await library.collectionOp(op);
      collections.refresh().catch(reportError('collection list refresh'));
      return result;
    },
    libraryOpenHighlight: ({ link, highlightId }) => openHighlight(link, highlightId),
    librarySavedCopy: ({ bookmarkId }) => library.savedCopy(bookmarkId),
  };

  /** Opens `link` in a new tab and, once it has loaded, asks its highlighter to scroll to the highlight (it may still be painting: a few tries). */
  async function openHighlight(link: string, highlightId: string): Promise<boolean> {
    const tab = await browser.tabs.create({ url: link });
    const tabId = tab.id;
    if (tabId === undefined) return false;
    const deadline = Date.now() + 20_000;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    while (Date.now() < deadline) {
      const now = await browser.tabs.get(tabId).catch(() => null);
      if (!now) return false;
      if (now.status === 'complete') break;
      await sleep(200);
    }
    while (Date.now() < deadline) {
      const shown = await tabCommand(tabId, 'show', { key: highlightId }).catch(() => null);
      if (shown === true) return true;
      // null: the highlighter cannot run there (no permission for the site): nothing to wait for.
      if (shown === null) return false;
      await sleep(400);
    }
    return false;
  }

  // --- listeners: all registered synchronously, before any await ---
  // The page's toolbar asks for the side panel: it is opened here, synchronously, while the user's
  // click still counts (the checked handler below answers the message).
  const self = () => ({ id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') });
  browser.runtime.onMessage.addListener((message: unknown, sender: Browser.runtime.MessageSender) => {
    if (!isEnvelope(message) || (message.type !== 'openSidePanel' && message.type !== 'editHighlightNote')) return undefined;
    if (classifySender(sender, self()) === 'content') panelOpening = openSidePanel(sender.tab?.windowId);
    return undefined;
  });
  browser.runtime.onMessage.addListener(
    createMessageListener(handlers, () => ({ id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') }), (msg) =>
      console.warn(`Tidemark: ${msg}`),
    ),
  );
  listenForExports(library, self);
  browser.runtime.onInstalled.addListener(() => createMenus());
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClicked(info, tab));
  browser.commands.onCommand.addListener((command, tab) => void onCommand(command, tab));
  browser.alarms.onAlarm.addListener((alarm) => void onAlarm(alarm));
  void browser.omnibox?.setDefaultSuggestion({ description: t('omniboxDefault') });
  browser.omnibox?.onInputChanged.addListener((text, suggest) => void omnibox.onInputChanged(text, suggest));
  browser.omnibox?.onInputEntered.addListener((text, disposition) => void omnibox.onInputEntered(text, disposition));
  browser.tabs.onActivated.addListener(({ tabId }) => void badge.showForTab(tabId));
  browser.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.url || change.status === 'complete') void badge.showForTab(tabId, tab.url);
  });
  browser.tabs.onRemoved.addListener((tabId) => badge.forget(tabId));
  browser.permissions.onAdded.addListener(() => {
    void badge.refreshAll();
    void syncLoaderRegistration().catch(reportError('highlighter registration'));
  });
  browser.permissions.onRemoved.addListener(() => void syncLoaderRegistration().catch(reportError('highlighter registration')));
  badgeEnabledItem.watch(() => void badge.refreshAll());
  globalThis.addEventListener?.('online', drainSoon);

  // --- start-up work (after the listeners) ---
  void syncLoaderRegistration().catch((err) => console.warn(`Tidemark: highlighter not registered: ${(err as Error).message}`));
  void (async () => {
    await index.load();
    if (!(await account())) return;
    await ensureSyncAlarm();
    if ((await queue.state()).entries.length) {
      await scheduleDrain(true);
      drainSoon();
    }
    if (index.state !== 'ready' || Date.now() - index.lastSyncedAt > 60_000) await index.sync().catch(reportError('saved-link index sync'));
    else await badge.refreshAll();
  })();

  return { auth, api, queue, index, bookmarkSync, badge, bookmarks, collections, highlights, library, omnibox, openLibrary, handlers, onMenuClicked, onCommand, onAlarm };
}

