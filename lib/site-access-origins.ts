// Letting Tidemark read the sites the user visits: the optional host permission, as it is asked for
// and checked (components/shared/site-access.ts, lib/popup/site-access-state.ts).
// The browser API without the polyfill: the popup's small first script checks it too.
import { browser } from '@wxt-dev/browser';

export const SITE_ACCESS = { origins: ['http://*/*', 'https://*/*'] };

/** Whether the extension may read the sites the user visits; a browser that cannot tell has not granted it. */
export function hasSiteAccess(): Promise<boolean> {
  return browser.permissions.contains(SITE_ACCESS).catch(() => false);
}
