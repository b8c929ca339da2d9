// The browser folder flattened into maps by id, so a plan compares it with the mirror in one pass.
import { normalizeUrl } from '../api/url.js';
import type { BrowserNode } from './types.js';

export interface SnapshotBookmark {
  url: string;
  key: string;
  title: string;
  parent: string;
  addedAt?: number;
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

/** The mirror's key of a bookmark whose address is unchanged (normalising an address costs ~15 µs: thousands add up). */
export type KnownKey = (id: string, url: string) => string | undefined;

/** Flattens `root` (the synced folder, with its children). Separators and unsyncable addresses are left out. */
export function snapshotOf(root: BrowserNode, known?: KnownKey): Snapshot {
  const walk = snapshotWalk(root, known);
  for (let step = walk.next(); !step.done; step = walk.next());
  return walk.snap;
}

/**
 * The same, in slices of about `sliceMs` of work with a macrotask between them, so a large folder
 * never holds the service worker's event loop for long.
 */
export async function snapshotInSlices(root: BrowserNode, known?: KnownKey, sliceMs = 8): Promise<Snapshot> {
  const walk = snapshotWalk(root, known);
  let start = performance.now();
  for (let step = walk.next(); !step.done; step = walk.next()) {
    if (performance.now() - start > sliceMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      start = performance.now();
    }
  }
  return walk.snap;
}

function snapshotWalk(root: BrowserNode, known?: KnownKey): Generator<void, void, void> & { snap: Snapshot } {
  const snap: Snapshot = { rootId: root.id, bookmarks: new Map(), folders: new Map(), skipped: 0 };
  function* walk(node: BrowserNode, depth: number): Generator<void, void, void> {
    for (const child of node.children ?? []) {
      if (child.type === 'separator') continue;
      if (child.url !== undefined) {
        const key = known?.(child.id, child.url) ?? syncableKey(child.url);
        if (key) snap.bookmarks.set(child.id, { url: child.url, key, title: child.title, parent: node.id, ...(child.dateAdded ? { addedAt: child.dateAdded } : {}) });
        else snap.skipped++;
        yield;
      } else {
        snap.folders.set(child.id, { title: child.title, parent: node.id, depth });
        yield* walk(child, depth + 1);
      }
    }
  }
  return Object.assign(walk(root, 0), { snap });
}
