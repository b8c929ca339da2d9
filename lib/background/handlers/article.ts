// The page's text: the library reads it and its state and asks the server to fetch it again; the
// popup's "Update text" sends the page in the tab again.
import type { Handlers } from '../../messaging/router.js';
import { sendPageText } from '../article-capture.js';
import type { Services } from './services.js';

type ArticleMessages = 'libraryArticle' | 'libraryRetryArticle' | 'updateArticleText';

export function articleHandlers({ api }: Services): Pick<Handlers, ArticleMessages> {
  return {
    libraryArticle: ({ bookmarkId }) => api.getArticle(bookmarkId, { retries: 1 }),
    libraryRetryArticle: ({ bookmarkId }) => api.retryArticle(bookmarkId, { retries: 1 }),
    updateArticleText: ({ tabId, bookmarkId }) => sendPageText(api, tabId, bookmarkId),
  };
}
