// What the popup's Highlights section says about site access: whether the extension may read the sites
// the user visits, and whether to ask for it. Both are local questions (a permission, a stored answer),
// asked with the popup's first requests (first-requests.ts), so the section's hint and question are in
// the popup's first frame and never make it taller when the bookmark and the highlights arrive.
// The browser API without the polyfill, like the rest of the popup's first script: it stays small.
import { browser } from '@wxt-dev/browser';
import { hasSiteAccess } from '../site-access-origins.js';
import { AUTO_PAINT_ASKED_KEY } from '../storage/auto-paint-asked.js';

export interface SiteAccessState {
  /** The extension may read the sites the user visits (the optional host permission). */
  granted: boolean;
  /** The popup asks whether to allow it: not granted and not answered before (as the background decides in lib/background/highlights.ts). */
  ask: boolean;
}

export async function siteAccessState(): Promise<SiteAccessState> {
  const [granted, stored] = await Promise.all([
    hasSiteAccess(),
    browser.storage.local.get(AUTO_PAINT_ASKED_KEY),
  ]);
  return { granted, ask: !granted && stored[AUTO_PAINT_ASKED_KEY] !== true };
}

/**
 * The state the last popup learned, kept in the popup's localStorage, which is read synchronously: the
 * app's first render shows it when the answer asked early is not there yet (it sometimes comes after
 * the popup is shown), and the answer replaces it when it comes. Granting site access anywhere in the
 * extension keeps the new state (components/shared/site-access.ts); taking it back forgets it. It differs
 * from the answer only when site access was changed outside the extension (chrome://extensions).
 */
const REMEMBERED = 'tidemark.popupSiteAccess';

export function rememberedSiteAccess(): SiteAccessState | null {
  try {
    const value = JSON.parse(localStorage.getItem(REMEMBERED) ?? 'null') as Partial<SiteAccessState> | null;
    return typeof value?.granted === 'boolean' && typeof value.ask === 'boolean' ? { granted: value.granted, ask: value.ask } : null;
  } catch {
    // Unreadable (storage disabled, or not JSON): the first render waits for the answer, as with nothing kept.
    return null;
  }
}

export function rememberSiteAccess(state: SiteAccessState): void {
  try {
    localStorage.setItem(REMEMBERED, JSON.stringify({ granted: state.granted, ask: state.ask }));
  } catch (err) {
    // The popup still works without it: the next first render waits for the answer.
    console.warn(`Tidemark could not keep the site-access state for the popup's next opening: ${(err as Error).message}`);
  }
}

/** Site access is being taken back (options page): the next popup waits for the true state. */
export function forgetSiteAccess(): void {
  try {
    localStorage.removeItem(REMEMBERED);
  } catch (err) {
    console.warn(`Tidemark could not forget the popup's site-access state: ${(err as Error).message}`);
  }
}

/**
 * Keeps the true state for the next popup, from another extension page: the options page, where a new
 * install is signed in, so the first popup after install has it for its first frame too.
 */
export function rememberSiteAccessNow(): void {
  siteAccessState().then(rememberSiteAccess, (err: Error) =>
    // The popup still works without it: its first render waits for the answer.
    console.warn(`Tidemark could not read the site-access state for the popup: ${err.message}`),
  );
}
