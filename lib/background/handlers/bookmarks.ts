// The popup's and side panel's bookmark form: the page's bookmark, its collection and tags.
import { t } from '../../i18n.js';
import { serverIdOf } from '../../bookmark-ref.js';
import { emit } from '../../messaging/client.js';
import { UserFacingError, type Handlers } from '../../messaging/router.js';
import { tagsCacheItem } from '../../storage/items.js';
import { reportError } from '../report-error.js';
import type { Services } from './services.js';

type BookmarkMessages =
  | 'popupOpened'
  | 'saveTab'
  | 'updateBookmark'
  | 'removeBookmark'
  | 'restoreBookmark'
  | 'listCollections'
  | 'createCollection'
  | 'listTags'
  | 'suggestTags';

export function bookmarkHandlers({ api, account, queue, bookmarks, collections }: Services, drainSoon: () => void): Pick<Handlers, BookmarkMessages> {
  return {
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
      const id = serverIdOf(await queue.serverRef(ref));
      if (id === null) return [];
      return api.suggestTags(id).catch(() => []);
    },
  };
}
