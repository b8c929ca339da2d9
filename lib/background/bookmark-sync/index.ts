// Two-way sync of a browser bookmarks folder with Tidemark (issue 37): the listeners, registered
// synchronously when the worker starts. A browser bookmark event starts a pass that pulls Tidemark's
// changes since the last sync (one feed request) and sends the browser's; an alarm pulls every minute,
// and so does a change made from this extension's pages. The passes themselves are in sync.ts.
import { browser } from 'wxt/browser';
import { accountItem, bookmarkSyncDecisionItem, bookmarkSyncSettingsItem } from '../../storage/items.js';
import { reportError } from '../report-error.js';
import { ALARM_BOOKMARK_SYNC, BookmarkSync, type Deps } from './sync.js';


/** Messages of this extension's pages that change bookmarks: a pull follows them. */
const CHANGING_MESSAGES = new Set([
  'saveTab',
  'updateBookmark',
  'removeBookmark',
  'restoreBookmark',
  'createCollection',
  'libraryBulk',
  'libraryUndo',
  'libraryBulkMatching',
  'libraryUndoMatching',
  'libraryCollectionOp',
  'libraryEmptyTrash',
  'drainQueue',
]);

/**
 * Starts the sync: listeners first, synchronously (the browser wakes the worker for them), then the
 * start-up pull. Returns the sync (tests and the bench reach it from the worker).
 */
export function startBookmarkSync(deps: Deps): BookmarkSync {
  const sync = new BookmarkSync(deps);
  const bookmarks = browser.bookmarks as typeof browser.bookmarks | undefined;
  if (bookmarks) {
    // An import into the folder is a burst of onCreated events: one pass follows once they settle.
    bookmarks.onCreated.addListener((id) => sync.onBrowserEvent(id, true));
    bookmarks.onChanged.addListener((id) => sync.onBrowserEvent(id, true));
    bookmarks.onMoved.addListener((id) => sync.onBrowserEvent(id, true));
    bookmarks.onRemoved.addListener((id) => sync.onBrowserEvent(id, false));
  }
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM_BOOKMARK_SYNC) void sync.onAlarm();
  });
  // A change made from this extension's pages: pulled at once, after the change is done (the message's
  // own handler answers it; this listener only watches, and answers nothing).
  browser.runtime.onMessage.addListener((message: unknown) => {
    const type = (message as { type?: unknown } | null)?.type;
    if (typeof type === 'string' && CHANGING_MESSAGES.has(type)) afterExtensionChange();
    return undefined;
  });
  bookmarkSyncSettingsItem.watch((now, before) => {
    if (!now.enabled && before.enabled) void sync.turnedOff();
    else if (now.enabled && (!before.enabled || JSON.stringify(now.scope) !== JSON.stringify(before.scope) || now.folderId !== before.folderId)) void begin();
  });
  accountItem.watch((now, before) => {
    if (now && (now.userId !== before?.userId || now.serverUrl !== before?.serverUrl)) void begin().catch(reportError('bookmark sync start'));
  });
  bookmarkSyncDecisionItem.watch((decision) => {
    if (decision) void sync.request({ pull: true, collections: true });
  });

  let changeTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * The change's own request is under way: the pull follows a moment later, once the handler has
   * answered. Writes still waiting in the offline queue are left to the queue's own schedule (sending
   * them early would count an attempt and freeze what the popup lets the user still add to them); the
   * minute's pull takes them in once they are sent.
   */
  function afterExtensionChange() {
    if (changeTimer) clearTimeout(changeTimer);
    changeTimer = setTimeout(() => {
      changeTimer = null;
      void pullIfIdle().catch(reportError('bookmark sync pull'));
    }, 1000);
  }

  async function pullIfIdle() {
    if (!(await bookmarkSyncSettingsItem.getValue()).enabled || (await deps.queue.busy())) return;
    await sync.request({ pull: true, collections: true });
  }

  async function begin() {
    if (!(await bookmarkSyncSettingsItem.getValue()).enabled) return;
    if (!(await deps.account())) return;
    await sync.ensureAlarm();
    await sync.request({ pull: true, collections: true });
  }
  void begin().catch(reportError('bookmark sync start'));
  return sync;
}

