// What the popup's Highlights section says about site access: whether the extension may read the sites
// the user visits, and whether to ask for it. Both are local questions (a permission, a stored answer),
// asked with the popup's first requests (first-requests.ts), so the section's hint and question are in
// the popup's first frame and never make it taller when the bookmark and the highlights arrive.
// The browser API without the polyfill, like the rest of the popup's first script: it stays small.
import { browser } from '@wxt-dev/browser';
import { SITE_ACCESS } from '../site-access-origins.js';
import { AUTO_PAINT_ASKED_KEY } from '../storage/auto-paint-asked.js';

export interface SiteAccessState {
  /** The extension may read the sites the user visits (the optional host permission). */
  granted: boolean;
  /** The popup asks whether to allow it: not granted and not answered before (as the background decides in lib/background/highlights.ts). */
  ask: boolean;
}

export async function siteAccessState(): Promise<SiteAccessState> {
  const [granted, stored] = await Promise.all([
    // As components/shared/site-access.ts: a browser that cannot tell has not granted it.
    browser.permissions.contains(SITE_ACCESS).catch(() => false),
    browser.storage.local.get(AUTO_PAINT_ASKED_KEY),
  ]);
  return { granted, ask: !granted && stored[AUTO_PAINT_ASKED_KEY] !== true };
}
