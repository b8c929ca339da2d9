// Letting Tidemark read the sites the user visits (the optional host permission): selecting text
// then shows the highlight toolbar on every site, and saved pages show their highlights on load.
// Asked for in the user's click (the browser needs the gesture): call `askSiteAccess` from the
// click handler itself, before any await.
import { browser } from 'wxt/browser';
import { SITE_ACCESS } from '../../lib/site-access-origins.js';
export { hasSiteAccess } from '../../lib/site-access-origins.js';
import { forgetSiteAccess, rememberSiteAccess } from '../../lib/popup/site-access-state.js';

export function askSiteAccess(): Promise<boolean> {
  const asked = browser.permissions.request(SITE_ACCESS).catch(() => false);
  // Granted: the popup's next first frame shows it (with access there is no question).
  void asked.then((granted) => granted && rememberSiteAccess({ granted: true, ask: false }));
  return asked;
}

/** Gives site access back (the options page's switch). */
export function removeSiteAccess(): Promise<boolean> {
  // Whether the popup asks again depends on the stored answer: its next first frame waits for the true state.
  forgetSiteAccess();
  return browser.permissions.remove(SITE_ACCESS);
}
