import { describe, expect, it } from 'vitest';
import { parseSearch } from './parse.js';
import { pageTextTerms } from './page-text-terms.js';
import { makeSnippet } from './snippet.js';

const terms = (search: string) => pageTextTerms(parseSearch(search));

describe('makeSnippet', () => {
  it('marks the words and phrases searched, whatever their case and accents, around the first match', () => {
    const text = `${'Earlier words about nothing. '.repeat(20)}The Tide gauges of Brest, then more tide talk. ${'Later words. '.repeat(40)}`;
    const snippet = makeSnippet(text, terms('"tide gauges" brest'))!;
    expect(snippet).toMatch(/^…/);
    expect(snippet).toMatch(/…$/);
    expect(snippet).toContain('The <mark>Tide gauges</mark> of <mark>Brest</mark>, then more tide talk.');
    expect(snippet.replace(/<\/?mark>/g, '').length).toBeLessThan(240);
    expect(makeSnippet('Crème brûlée à la café', terms('creme CAFE'))).toBe('<mark>Crème</mark> brûlée à la <mark>café</mark>');
  });

  it('escapes the text, marks whole words only, and answers null without a match', () => {
    expect(makeSnippet('a <b>tide</b> & "tides"', terms('tide'))).toBe('a &#60;b&#62;<mark>tide</mark>&#60;/b&#62; &#38; &#34;tides&#34;');
    expect(makeSnippet('tides and gauges', terms('tide'))).toBeNull();
    expect(makeSnippet('gauges tide', terms('"tide gauges"'))).toBeNull();
    expect(makeSnippet('anything', terms('-anything #tag title:anything'))).toBeNull();
  });
});
