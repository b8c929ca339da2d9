// The background service worker: wires the services together, composes the message handlers of each
// domain (handlers/) and registers every listener synchronously (MV3 wakes the worker for an event
// only if its listener was added at startup). No listener is async: runtime.onMessage goes through
// the typed router (lib/messaging/router.ts), the others start a promise and return.
import { browser } from 'wxt/browser';
import { normalizeUrl } from '../api/url.js';
import type { Bookmark } from '../api/types.js';
import { t } from '../i18n.js';
import { draftOf } from '../model.js';
import { emit } from '../messaging/client.js';
import { createMessageListener, UserFacingError, type Handlers } from '../messaging/router.js';
import { badgeEnabledItem } from '../storage/items.js';
import { Auth } from './auth.js';
import { BadgeService } from './badge.js';
import { BookmarksService } from './bookmarks.js';
import { CollectionsService } from './collections.js';
import { ExistsBatcher } from './exists-batcher.js';
import { SavedIndexService } from './index-sync.js';
import { WriteQueue } from './queue.js';
import { HighlightsService } from './highlights.js';
import { PagePrefetch } from './page-prefetch.js';
import { syncLoaderRegistration } from './highlighter-registration.js';
import { reportError } from './report-error.js';
import { LibraryService } from './library.js';
import { sendPageText } from './article-capture.js';
import { listenForExports } from './export-port.js';
import { accountHandlers, onAuthChanged } from './handlers/account.js';
import { articleHandlers } from './handlers/article.js';
import { bookmarkHandlers } from './handlers/bookmarks.js';
import { createMenus, menuAndCommandHandlers, omniboxHandlers } from './handlers/browser-ui.js';
import { highlightHandlers } from './handlers/highlights.js';
import { libraryHandlers } from './handlers/library.js';
import { readerHandlers } from './handlers/reader.js';
import type { Services } from './handlers/services.js';
import { PanelOpening } from './handlers/side-panel.js';
import { alarmHandler, ensureSyncAlarm, queueHandlers, scheduleDrain } from './handlers/sync.js';
import { startBookmarkSync } from './bookmark-sync/index.js';

export function startBackground() {
  const auth = new Auth({ onChange: (acc, reason, userInitiated) => void onAuthChanged(s, acc, reason, userInitiated) });
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
    sendText: (tabId, id) => void sendPageText(api, tabId, id).catch(reportError('sending the page text')),
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
  const highlights = new HighlightsService({
    api,
    queue,
    account,
    lookup: (key) => index.lookup(key),
    openForTab: (tabId, opts) => bookmarks.openForTab(tabId, opts),
    onSaved: noteSaved,
  });
  const s: Services = {
    auth, api, account, queue, index, exists, collections, badge, bookmarks, highlights, library,
    pagePrefetch: new PagePrefetch(),
  };

  const drainSoon = () => {
    queue.drain().catch(reportError('offline queue drain'));
  };
  const panel = new PanelOpening();
  const handlers: Handlers = {
    ...accountHandlers(s),
    ...bookmarkHandlers(s, drainSoon),
    ...queueHandlers(s),
    ...highlightHandlers(s, panel),
    ...libraryHandlers(s),
    ...readerHandlers(s),
    ...articleHandlers(s),
  };
  const { onMenuClicked, onCommand } = menuAndCommandHandlers(s);
  const onAlarm = alarmHandler(s);
  const omnibox = omniboxHandlers(s);

  // --- listeners: all registered synchronously, before any await ---
  const self = () => ({ id: browser.runtime.id, baseUrl: browser.runtime.getURL('/') });
  // First: the side panel opens while the user's click still counts, before the checked handler answers.
  panel.listen(self);
  browser.runtime.onMessage.addListener(createMessageListener(handlers, self, (msg) => console.warn(`Tidemark: ${msg}`)));
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

  return { index, bookmarkSync, omnibox, onMenuClicked, onCommand, onAlarm };
}
