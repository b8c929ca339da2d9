// The popup's first requests to the background: the page's bookmark (found or saved on open) and
// the cached collection list. They are asked for by a classic script in the popup's <head>
// (entrypoints/popup-first-requests.ts), which runs while the popup's modules are still loading and
// being compiled, so the background works on them meanwhile; the app takes the answers when it
// starts (components/popup/PopupApp.tsx), and asks itself when there are none. Two scripts of the
// page use this file, each with its own copy: what they share lives in one slot of the global object.
import { browser } from '@wxt-dev/browser';
import { send } from '../messaging/client.js';
import type { CollectionsView, PopupOpenResult } from '../messaging/protocol.js';

/** The tab the popup opened on and the background's answer for it; null when there is no such tab. */
export interface PopupOpening {
  tabId: number;
  windowId: number | undefined;
  /** The tab's title and address as the browser has them, shown while the answer is on its way. */
  title: string;
  url: string;
  answer: Promise<PopupOpenResult>;
}

interface Shared {
  opening: Promise<PopupOpening | null> | null;
  collections: Promise<CollectionsView> | null;
}
const SLOT = Symbol.for('tidemark.popupFirstRequests');
const shared: Shared = ((globalThis as { [SLOT]?: Shared })[SLOT] ??= { opening: null, collections: null });

/** Finds the active tab and tells the background the popup opened on it. */
export async function askOpening(): Promise<PopupOpening | null> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  if (tab?.id === undefined) return null;
  return { tabId: tab.id, windowId: tab.windowId, title: tab.title ?? '', url: tab.url ?? '', answer: send('popupOpened', { tabId: tab.id }) };
}

/** Asks both now; the app takes them with `takeOpening` and `takeCollections`. */
export function askFirstRequests(): void {
  // For bench/extension and the e2e test: when the first requests left, against the page's load.
  performance.mark('tidemark:first-requests');
  const opening = askOpening();
  // Not dropped: the app awaits these promises and shows their errors. Only an answer nobody takes
  // (the app failed to start) would otherwise be reported as unhandled.
  opening.then((o) => o?.answer.catch(() => undefined), () => undefined);
  const collections = send('listCollections', { refresh: false });
  // As above: the app takes it (the picker keeps what it shows when it fails).
  collections.catch(() => undefined);
  shared.opening = opening;
  shared.collections = collections;
}

/** The opening asked for early, if any (taken once). */
export function takeOpening(): Promise<PopupOpening | null> | null {
  const opening = shared.opening;
  shared.opening = null;
  return opening;
}

/** The cached collection list asked for early, if any (taken once). */
export function takeCollections(): Promise<CollectionsView> | null {
  const collections = shared.collections;
  shared.collections = null;
  return collections;
}
