// The browser folder flattened into maps by id, so a plan compares it with the mirror in one pass.
import { normalizeUrl } from '../api/url.js';
import type { BrowserNode } from './types.js';

export interface SnapshotBookmark {
  url: string;
  key: string;
  title: string;
  parent: string;
}

export interface SnapshotFolder {
  title: string;
  parent: string;
  depth: number;
}

export interface Snapshot {
  rootId: string;
  bookmarks: Map<string, SnapshotBookmark>;
  folders: Map<string, SnapshotFolder>;
  /** Bookmarks whose address Tidemark cannot keep (javascript:, place:, about:...): left alone. */
  skipped: number;
}

/** Only web addresses are synced: a bookmarklet or a browser page stays in the browser only. */
export function syncableKey(url: string): string | null {
  if (!/^https?:\/\//i.test(url)) return null;
  return normalizeUrl(url);
}

/** Flattens `root` (the synced folder, with its children). Separators and unsyncable addresses are left out. */
export function snapshotOf(root: BrowserNode): Snapshot {
  const snap: Snapshot = { rootId: root.id, bookmarks: new Map(), folders: new Map(), skipped: 0 };
  const walk = (node: BrowserNode, depth: number) => {
    for (const child of node.children ?? []) {
      if (child.type === 'separator') continue;
      if (child.url !== undefined) {
        const key = syncableKey(child.url);
        if (key) snap.bookmarks.set(child.id, { url: child.url, key, title: child.title, parent: node.id });
        else snap.skipped++;
      } else {
        snap.folders.set(child.id, { title: child.title, parent: node.id, depth });
        walk(child, depth + 1);
      }
    }
  };
  walk(root, 0);
  return snap;
}
