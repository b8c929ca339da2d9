// The library's host in the extension: every call is a typed message to the background, which
// holds the token, queues changes while the server cannot be reached and keeps the offline copy
// (lib/background/library.ts answers them).
import { browser } from '@wxt-dev/browser';
import { t } from '../i18n.js';
import { onEvent, receiveExport, send } from '../messaging/client.js';
import { refOf } from '../bookmark-ref.js';
import type { LibraryHost } from './host.js';

/** The list's pages, on their own for the page's early script (entrypoints/library-first-page.ts), which needs nothing else. */
export const listThroughBackground: LibraryHost['list'] = (query) => send('libraryList', query);

export const extensionHost: LibraryHost = {
  queuesOffline: true,
  get firstSaveHint() {
    return t('libFirstSaveExtension');
  },
  list: listThroughBackground,
  collections: () => send('libraryCollections', null),
  tags: () => send('listTags', null),
  highlights: (collectionId, page) => send('libraryHighlights', { collectionId, page }),
  bookmark: (bookmarkId) => send('readerBookmark', { bookmarkId }),
  readerHighlights: (target) => send('readerHighlights', target),
  addHighlight: (target, highlight) => send('readerAddHighlight', { ...target, highlight }),
  changeHighlight: (target, key, fields) => send('readerChangeHighlight', { ...target, key, fields }),
  removeHighlight: (target, key) => send('readerChangeHighlight', { ...target, key, fields: null }),
  updateBookmark: async (id, changes) => ({ queued: (await send('updateBookmark', { ref: refOf(id), changes })).state === 'queued' }),
  bulk: (action, targets) => send('libraryBulk', { action, targets }),
  undo: (action, before, queued) => send('libraryUndo', { action, before, queued }),
  bulkMatching: (action, collectionId, search) => send('libraryBulkMatching', { action, collectionId, search }),
  undoMatching: (action, collectionId, search) => send('libraryUndoMatching', { action, collectionId, search }),
  emptyTrash: () => send('libraryEmptyTrash', null),
  collectionOp: (op) => send('libraryCollectionOp', op),
  exportFile: (request) => receiveExport(request),
  savedCopy: (bookmarkId) => send('librarySavedCopy', { bookmarkId }),
  article: (bookmarkId) => send('libraryArticle', { bookmarkId }),
  retryArticle: (bookmarkId) => send('libraryRetryArticle', { bookmarkId }),
  savedCopyUrl: (bookmarkId) => `saved-copy.html?id=${bookmarkId}`,
  openHighlight: (link, highlightId) => send('libraryOpenHighlight', { link, highlightId }),
  onAccountChange: (cb) => onEvent('authChanged', () => cb()),
  signIn: {
    get label() {
      return t('libOpenOptions');
    },
    open: () => void browser.runtime.openOptionsPage(),
  },
};
