// The page's text: the library reads it and its state and asks the server to fetch it again; the
// popup's "Update text" sends the page in the tab again.
import { serverIdOf } from '../../bookmark-ref.js';
import { t } from '../../i18n.js';
import { UserFacingError, type Handlers } from '../../messaging/router.js';
import { sendPageText } from '../article-capture.js';
import type { Services } from './services.js';

type ArticleMessages = 'libraryArticle' | 'libraryRetryArticle' | 'updateArticleText';

export function articleHandlers({ api, queue }: Services): Pick<Handlers, ArticleMessages> {
  return {
    libraryArticle: ({ bookmarkId }) => api.getArticle(bookmarkId, { retries: 1 }),
    libraryRetryArticle: ({ bookmarkId }) => api.retryArticle(bookmarkId, { retries: 1 }),
    updateArticleText: async ({ tabId, ref, link }) => {
      const id = serverIdOf(await queue.serverRef(ref));
      // Saved offline and not sent yet: the server reads the page itself once the save arrives.
      if (id === null) throw new UserFacingError(t('errorTextNotSaved'));
      return sendPageText(api, tabId, id, link);
    },
  };
}
