import type { Bookmark } from '../../../lib/api/types.js';
import { TRASH, UNSORTED } from '../../../lib/api/constants.js';
import type { BookmarkExportRepository, ExportFolder } from '../../repositories/index.js';
import type { BookmarkScope } from '../../repositories/index.js';

/**
 * What an export writer receives, in document order: a folder opens (with its path of titles from
 * the export's top), its bookmarks arrive in batches, nested folders follow, then it closes.
 * Bookmarks outside any folder (Unsorted, Trash) arrive with `path: []` after every folder.
 */
export type ExportEvent =
  | { kind: 'open'; folder: ExportFolder; path: string[]; depth: number }
  | { kind: 'bookmarks'; items: Bookmark[]; path: string[]; depth: number }
  | { kind: 'close'; folder: ExportFolder; depth: number };

/**
 * Walks the scope's collection tree depth first and yields its bookmarks one keyset batch at a
 * time (see BookmarkExportRepository), so memory stays at one batch whatever the export's size.
 */
export async function* walkExport(
  repo: BookmarkExportRepository,
  scope: BookmarkScope,
  search: string | undefined,
): AsyncGenerator<ExportEvent> {
  const folders = await repo.folders(scope);
  const children = new Map<number | null, ExportFolder[]>();
  for (const f of folders) {
    const list = children.get(f.parentId);
    if (list) list.push(f);
    else children.set(f.parentId, [f]);
  }
  // Depth first without recursion: a stack of [folder, path, depth, opened].
  const stack: { folder: ExportFolder; path: string[]; depth: number; opened: boolean }[] = [];
  for (const f of [...(children.get(null) ?? [])].reverse()) stack.push({ folder: f, path: [f.title], depth: 0, opened: false });
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.opened) {
      stack.pop();
      yield { kind: 'close', folder: top.folder, depth: top.depth };
      continue;
    }
    top.opened = true;
    yield { kind: 'open', folder: top.folder, path: top.path, depth: top.depth };
    for await (const items of repo.bookmarksOf(top.folder.id, { search })) {
      yield { kind: 'bookmarks', items, path: top.path, depth: top.depth + 1 };
    }
    for (const child of [...(children.get(top.folder.id) ?? [])].reverse()) {
      stack.push({ folder: child, path: [...top.path, child.title], depth: top.depth + 1, opened: false });
    }
  }
  const loose: { id: number; ownerId: number }[] = [];
  if (scope.kind === 'user') {
    loose.push({ id: UNSORTED, ownerId: scope.userId });
    if (scope.includeTrash) loose.push({ id: TRASH, ownerId: scope.userId });
  } else if (scope.kind === 'system') {
    loose.push({ id: scope.collectionId, ownerId: scope.userId });
  }
  for (const l of loose) {
    for await (const items of repo.bookmarksOf(l.id, { ownerId: l.ownerId, search })) {
      yield { kind: 'bookmarks', items, path: [], depth: 0 };
    }
  }
}
