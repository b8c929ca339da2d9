// The library page: its list, bulk changes, collections, and opening a bookmark at a highlight.
import { browser } from 'wxt/browser';
import type { Handlers } from '../../messaging/router.js';
import { tabCommand } from '../highlighter-injection.js';
import { reportError } from '../report-error.js';
import type { Services } from './services.js';

type LibraryMessages =
  | 'libraryList'
  | 'libraryCollections'
  | 'libraryHighlights'
  | 'libraryBulk'
  | 'libraryUndo'
  | 'libraryBulkMatching'
  | 'libraryUndoMatching'
  | 'libraryEmptyTrash'
  | 'libraryCollectionOp'
  | 'libraryOpenHighlight'
  | 'librarySavedCopy';

export const libraryPage = () => browser.runtime.getURL('/library.html');

/** Opens the library (a tab of it already open is reused and shown), optionally at `url`. */
export async function openLibrary(url = libraryPage()): Promise<void> {
  const [open] = await browser.tabs.query({ url: `${libraryPage()}*` }).catch(() => []);
  if (open?.id !== undefined) {
    await browser.tabs.update(open.id, { active: true, ...(url !== libraryPage() ? { url } : {}) });
    // The tab is shown already; a window that cannot take the focus (closed meanwhile) changes nothing.
    if (open.windowId !== undefined) await browser.windows.update(open.windowId, { focused: true }).catch(() => {});
  } else {
    await browser.tabs.create({ url });
  }
}

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

export function libraryHandlers({ library, collections }: Services): Pick<Handlers, LibraryMessages> {
  return {
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
}
