import type { SearchQuery } from './ast.js';

// Which parts of a search also look in a page's text, shared by both backends' SQL and by the
// snippets: positive plain words and phrases. In page text a word matches whole words only (in
// the bookmark's own fields it also matches as a prefix): without a prefix index on the text, a
// short prefix would make the index read thousands of words' entries, and a prefix index would
// double its size.

/** The words of one plain term, folded as the indexes fold them. */
export type PageTextTerm = string[];

/** Words as both backends' indexes split and fold them: letters and digits, no diacritics, lower case. */
function indexWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []).map(foldWord);
}

const NON_ASCII = /[^ -~]/;

export function foldWord(word: string): string {
  // Most words are printable ASCII (words hold no control characters): lower-casing is all they need (decomposing costs more than the rest of a snippet).
  if (!NON_ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** The positive plain words and phrases of a query, each as its folded words; terms without a word are left out. */
export function pageTextTerms(query: SearchQuery): PageTextTerm[] {
  const out: PageTextTerm[] = [];
  for (const term of query.terms) {
    if (term.negate || (term.kind !== 'word' && term.kind !== 'phrase')) continue;
    const words = indexWords(term.value);
    if (words.length > 0) out.push(words);
  }
  return out;
}
