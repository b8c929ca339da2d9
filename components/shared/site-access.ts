// Letting Tidemark read the sites the user visits (the optional host permission): selecting text
// then shows the highlight toolbar on every site, and saved pages show their highlights on load.
// Asked for in the user's click (the browser needs the gesture): call `askSiteAccess` from the
// click handler itself, before any await.
import { browser } from 'wxt/browser';
import { SITE_ACCESS } from '../../lib/site-access-origins.js';

export { SITE_ACCESS };

export function hasSiteAccess(): Promise<boolean> {
  return browser.permissions.contains(SITE_ACCESS).catch(() => false);
}

export function askSiteAccess(): Promise<boolean> {
  return browser.permissions.request(SITE_ACCESS).catch(() => false);
}
