// Reading the synced folder, and keeping the mapping when the folder itself was replaced.
import { browser } from 'wxt/browser';
import type { BrowserNode, Mirror } from '../../bookmark-sync/types.js';

/** Folders read at once. */
const READ_AT_ONCE = 16;

/**
 * The folder with everything below it, read folder by folder: one getSubTree of thousands of
 * bookmarks arrives as one message whose decoding holds the worker's event loop for tens of ms.
 */
export async function readFolder(rootId: string): Promise<BrowserNode> {
  const [top] = await browser.bookmarks.get(rootId);
  const root: BrowserNode = { id: top.id, title: top.title, children: [] };
  let level: BrowserNode[] = [root];
  while (level.length) {
    const next: BrowserNode[] = [];
    for (let i = 0; i < level.length; i += READ_AT_ONCE) {
      const batch = level.slice(i, i + READ_AT_ONCE);
      const lists = await Promise.all(batch.map((f) => browser.bookmarks.getChildren(f.id)));
      batch.forEach((folder, j) => {
        folder.children = lists[j].map((c) => {
          const node: BrowserNode = { id: c.id, title: c.title, url: c.url, dateAdded: c.dateAdded, type: (c as { type?: string }).type };
          if (c.url === undefined && node.type !== 'separator') {
            node.children = [];
            next.push(node);
          }
          return node;
        });
      });
    }
    level = next;
  }
  return root;
}

/** The synced folder was replaced (deleted, then made again): what hung from the old one hangs from the new one. */
export function rerootMirror(mirror: Mirror, rootId: string): void {
  const old = mirror.rootId;
  mirror.rootId = rootId;
  for (const b of Object.values(mirror.bookmarks)) if (b.parent === old) b.parent = rootId;
  for (const f of Object.values(mirror.folders)) if (f.parent === old) f.parent = rootId;
}
