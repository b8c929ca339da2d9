import type { CacheRow, FilesRepository } from '../../repositories/index.js';
import { pageCopyKey, type FileStorage } from './storage.js';

/**
 * Stores a permanent copy (HTML that has already been through sanitizeForArchive) for a bookmark,
 * replacing an older one. Returns the new row, or null when the bookmark vanished meanwhile (the
 * bytes are then removed again).
 */
export async function storePageCopy(
  store: FileStorage,
  files: FilesRepository,
  copy: { bookmarkId: number; userId: number; html: string; pageUrl: string; source: CacheRow['source'] },
): Promise<CacheRow | null> {
  const relative = pageCopyKey(copy.bookmarkId);
  const { size, sha256 } = await store.write(relative, copy.html, 'text/html; charset=utf-8');
  const saved = await files.saveCache({
    bookmark_id: copy.bookmarkId,
    user_id: copy.userId,
    source: copy.source,
    size,
    sha256,
    path: relative,
    page_url: copy.pageUrl,
  });
  if (!saved) {
    await store.remove(relative);
    return null;
  }
  return (await files.cacheOf(copy.bookmarkId)) ?? null;
}
