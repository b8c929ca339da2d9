// The popup's first requests: to the background, the page's bookmark (found or saved on open) and
// the cached collection list; to the browser, what the Highlights section says about site access
// (site-access-state.ts). They are asked for by a classic script in the popup's <head>
// (entrypoints/popup-first-requests/index.ts), which runs while the popup's modules are still loading and
// being compiled, so the background works on them meanwhile; the app takes the answers when it
// starts (components/popup/PopupApp.tsx), and asks itself when there are none. Two scripts of the
// page use this file, each with its own copy: what they share lives in one slot of the global object.
import { browser } from '@wxt-dev/browser';
import { send } from '../messaging/client.js';
import type { CollectionsView, PopupOpenResult } from '../messaging/protocol.js';
import { siteAccessState, type SiteAccessState } from './site-access-state.js';

/** The tab the popup opened on and the background's answer for it; null when there is no such tab. */
export interface PopupOpening {
  tabId: number;
  windowId: number | undefined;
  /** The tab's title and address as the browser has them, shown while the answer is on its way. */
  title: string;
  url: string;
  answer: Promise<PopupOpenResult>;
}

/** The site-access state asked for early: its answer, and the answer itself once it came. */
export interface EarlySiteAccess {
  answer: Promise<SiteAccessState>;
  /** Set when the answer came: the app's first render uses it when it came before the app ran. */
  known: SiteAccessState | null;
}

interface Shared {
  opening: Promise<PopupOpening | null> | null;
  collections: Promise<CollectionsView> | null;
  siteAccess: EarlySiteAccess | null;
}
const SLOT = Symbol.for('tidemark.popupFirstRequests');
const shared: Shared = ((globalThis as { [SLOT]?: Shared })[SLOT] ??= { opening: null, collections: null, siteAccess: null });

/** Finds the active tab and tells the background the popup opened on it. */
export async function askOpening(): Promise<PopupOpening | null> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  if (tab?.id === undefined) return null;
  return { tabId: tab.id, windowId: tab.windowId, title: tab.title ?? '', url: tab.url ?? '', answer: send('popupOpened', { tabId: tab.id }) };
}

/** Asks all three now; the app takes them with `takeOpening`, `takeCollections` and `takeSiteAccess`. */
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
  // Asked at once, not after the tab is looked up: the app's first render shows it only when its answer
  // came before the app ran, and an answer arriving after the document loaded would make the popup grow
  // by the hints once it is already shown.
  const siteAccess: EarlySiteAccess = { answer: siteAccessState(), known: null };
  // As above: the app takes it, and shows what the background says when it failed.
  siteAccess.answer.then((state) => (siteAccess.known = state), () => undefined);
  shared.opening = opening;
  shared.collections = collections;
  shared.siteAccess = siteAccess;
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

/** The site-access state asked for early, if any (taken once). */
export function takeSiteAccess(): EarlySiteAccess | null {
  const siteAccess = shared.siteAccess;
  shared.siteAccess = null;
  return siteAccess;
}
