import type { Bookmark } from '../../../lib/api/types.js';
import { pageTextTerms } from '../../domain/search/page-text-terms.js';
import { parseSearch } from '../../domain/search/parse.js';
import { makeSnippet } from '../../domain/search/snippet.js';
import type { Repositories } from '../../repositories/types/index.js';

/**
 * Adds what the bookmark records do not hold to bookmarks about to be answered: `article` (the
 * state of the page's text; every bookmark has one) and, for a search, `snippet` on the results
 * whose page text holds a searched word or phrase. Read fresh for each answer, never cached with
 * the records. Only the page of results being answered is read.
 */
export async function withArticleFields(repos: Repositories, items: Bookmark[], search?: string): Promise<Bookmark[]> {
  if (items.length === 0) return items;
  const ids = items.map((b) => b._id);
  const terms = search ? pageTextTerms(parseSearch(search)) : [];
  const [states, texts] = await Promise.all([
    repos.articles.states(ids),
    terms.length > 0 ? repos.articles.matchingTexts(ids, terms) : Promise.resolve(new Map<number, string>()),
  ]);
  return items.map((b) => {
    const article = states.get(b._id);
    const text = texts.get(b._id);
    const snippet = text ? makeSnippet(text, terms) : null;
    return { ...b, ...(article ? { article } : {}), ...(snippet ? { snippet } : {}) };
  });
}
