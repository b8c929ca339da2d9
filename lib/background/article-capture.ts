// Sends the page in a tab as a bookmark's text (PUT /bookmark/{id}/article): right after a save, and
// when the popup's "Update text" asks. The page is read with scripting, so only where Tidemark may
// read the tab (the toolbar press grants it); elsewhere the server's own job fetches the address.
import { browser } from 'wxt/browser';
import type { TidemarkApi } from '../api/client/index.js';
import { ARTICLE_UPLOAD_MAX_BYTES } from '../api/constants.js';
import { t } from '../i18n.js';
import type { TextSent } from '../messaging/protocol.js';
import { UserFacingError } from '../messaging/router.js';
import { serialisePage, type SerialisedPage } from './page-html.js';

/**
 * Serialises the tab's page and sends it as the text of bookmark `id`. Callers ask right after the
 * save or from the popup of that tab, so the tab still shows the bookmark's page.
 */
export async function sendPageText(api: TidemarkApi, tabId: number, id: number): Promise<TextSent> {
  const [run] = await browser.scripting
    .executeScript({ target: { tabId }, func: serialisePage, args: [ARTICLE_UPLOAD_MAX_BYTES] })
    .catch((err: Error) => {
      throw new UserFacingError(t('errorTextUnreadable', err.message));
    });
  const page = run!.result as SerialisedPage;
  return { ...(await api.putArticle(id, { html: page.html, url: page.url }, { retries: 1 })), cutAt: page.cutAt };
}
