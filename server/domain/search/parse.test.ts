import { describe, expect, it } from 'vitest';
import { MAX_TERMS, parseSearch } from './parse.js';
import type { Term } from './ast.js';

const terms = (s: string) => parseSearch(s).terms;
const words = (...values: string[]) => values.map((value) => ({ kind: 'word', value, negate: false }));
const one = (s: string) => {
  const t = terms(s);
  expect(t).toHaveLength(1);
  return t[0];
};

describe('parseSearch: terms of the observed-behaviour table', () => {
  it('reads words, keeping their case and punctuation for the index to tokenise', () => {
    expect(terms('hello World')).toEqual([
      { kind: 'word', value: 'hello', negate: false },
      { kind: 'word', value: 'World', negate: false },
    ]);
    expect(one('-spam')).toEqual({ kind: 'word', value: 'spam', negate: true });
  });

  it('reads "exact phrases" and their negation', () => {
    expect(one('"exact phrase"')).toEqual({ kind: 'phrase', value: 'exact phrase', negate: false });
    expect(one('-"bad thing"')).toEqual({ kind: 'phrase', value: 'bad thing', negate: true });
    expect(one('\u201Csmart quotes\u201D')).toMatchObject({ kind: 'phrase', value: 'smart quotes' });
  });

  it('reads #tag, #"multi word tag" and -#tag', () => {
    expect(one('#js')).toEqual({ kind: 'tag', value: 'js', negate: false });
    expect(one('#"web dev"')).toEqual({ kind: 'tag', value: 'web dev', negate: false });
    expect(one('-#js')).toEqual({ kind: 'tag', value: 'js', negate: true });
    expect(one('#c++')).toEqual({ kind: 'tag', value: 'c++', negate: false });
  });

  it('reads type: and -type:', () => {
    expect(one('type:article')).toEqual({ kind: 'type', value: 'article', negate: false });
    expect(one('-type:Video')).toEqual({ kind: 'type', value: 'video', negate: true });
  });

  it('reads created:/lastUpdate: as year, month or day ranges, with < and >', () => {
    expect(one('created:2024')).toEqual({
      kind: 'date', field: 'created', op: '=', from: '2024-01-01T00:00:00.000Z', to: '2025-01-01T00:00:00.000Z', negate: false,
    });
    expect(one('created:2024-05')).toMatchObject({ from: '2024-05-01T00:00:00.000Z', to: '2024-06-01T00:00:00.000Z' });
    expect(one('created:2024-12-31')).toMatchObject({ from: '2024-12-31T00:00:00.000Z', to: '2025-01-01T00:00:00.000Z' });
    expect(one('created:<2024-05')).toMatchObject({ op: '<', from: '2024-05-01T00:00:00.000Z' });
    expect(one('lastUpdate:>2023')).toMatchObject({ field: 'lastUpdate', op: '>', to: '2024-01-01T00:00:00.000Z' });
    expect(one('LASTUPDATE:2023')).toMatchObject({ field: 'lastUpdate' });
  });

  it('reads ❤️ and the true/false flags', () => {
    expect(one('❤️')).toEqual({ kind: 'flag', flag: 'important', value: true, negate: false });
    expect(one('\u2764')).toMatchObject({ flag: 'important' });
    expect(one('important:true')).toEqual({ kind: 'flag', flag: 'important', value: true, negate: false });
    expect(one('important:false')).toMatchObject({ value: false });
    for (const flag of ['notag', 'note', 'highlights', 'file', 'broken', 'duplicate']) {
      expect(one(`${flag}:true`)).toEqual({ kind: 'flag', flag, value: true, negate: false });
      expect(one(`-${flag}:TRUE`)).toEqual({ kind: 'flag', flag, value: true, negate: true });
    }
  });

  it('reads the field filters', () => {
    expect(one('domain:Example.com')).toEqual({ kind: 'domain', value: 'example.com', negate: false });
    expect(one('domain:https://www.example.com/path?q=1')).toMatchObject({ value: 'example.com' });
    expect(one('title:rust')).toEqual({ kind: 'field', field: 'title', value: 'rust', negate: false });
    expect(one('title:"two words"')).toEqual({ kind: 'field', field: 'title', value: 'two words', negate: false });
    expect(one('excerpt:intro')).toMatchObject({ field: 'excerpt' });
    expect(one('note:remember')).toEqual({ kind: 'field', field: 'note', value: 'remember', negate: false });
    expect(one('link:github')).toMatchObject({ kind: 'field', field: 'link', value: 'github' });
    expect(one('_id:42')).toEqual({ kind: 'id', value: 42, negate: false });
    expect(one('lang:EN')).toEqual({ kind: 'lang', value: 'en', negate: false });
    expect(one('-lang:pt-BR')).toEqual({ kind: 'lang', value: 'pt-br', negate: true });
  });

  it('switches to OR with match:OR (any case) and keeps AND otherwise', () => {
    expect(parseSearch('a b').match).toBe('AND');
    const q = parseSearch('a match:OR b');
    expect(q.match).toBe('OR');
    expect(q.terms.map((t) => (t as { value: string }).value)).toEqual(['a', 'b']);
    expect(parseSearch('match:or a').match).toBe('OR');
  });

  it('mixes everything in one expression', () => {
    const q = terms('rust -async #lang -#old type:article created:>2023 ❤️ domain:blog.example.com "zero cost"');
    expect(q.map((t) => t.kind)).toEqual(['word', 'word', 'tag', 'tag', 'type', 'date', 'flag', 'domain', 'phrase']);
  });
});

describe('parseSearch: malformed input degrades, never throws', () => {
  it('drops an unbalanced quote and reads the rest as usual', () => {
    expect(terms('"unclosed words')).toEqual([
      { kind: 'word', value: 'unclosed', negate: false },
      { kind: 'word', value: 'words', negate: false },
    ]);
    expect(terms('#"unclosed tag')).toEqual([
      { kind: 'word', value: 'unclosed', negate: false },
      { kind: 'word', value: 'tag', negate: false },
    ]);
    expect(terms('title:"unclosed')).toEqual([
      { kind: 'word', value: 'title', negate: false },
      { kind: 'word', value: 'unclosed', negate: false },
    ]);
  });

  it('ignores lone operators, empty tags and empty values', () => {
    expect(terms('- # #"" "" -# type: title:')).toEqual([]);
    expect(terms('   ')).toEqual([]);
    expect(parseSearch(undefined).terms).toEqual([]);
  });

  it('reads invalid operator values as plain words', () => {
    expect(terms('created:someday')).toEqual(words('created', 'someday'));
    expect(terms('created:2024-13')).toEqual(words('created', '2024-13'));
    expect(terms('created:2023-02-29')).toEqual(words('created', '2023-02-29'));
    expect(terms('_id:abc')).toEqual(words('_id', 'abc'));
    expect(terms('broken:maybe')).toEqual(words('broken', 'maybe'));
    expect(terms('match:sometimes')).toEqual(words('match', 'sometimes'));
    expect(terms('unknown:key')).toEqual([{ kind: 'word', value: 'unknown:key', negate: false }]);
  });

  it('drops words without letters or digits and survives odd unicode', () => {
    expect(terms('!!! *** () ^')).toEqual([]);
    expect(terms('\uD800broken surrogate')).toEqual([
      { kind: 'word', value: '\uFFFDbroken', negate: false },
      { kind: 'word', value: 'surrogate', negate: false },
    ]);
    expect(terms('a\u0000b')).toEqual([
      { kind: 'word', value: 'a', negate: false },
      { kind: 'word', value: 'b', negate: false },
    ]);
    expect(one('caf\u0065\u0301')).toEqual({ kind: 'word', value: 'café', negate: false });
  });

  it('bounds the number of terms', () => {
    expect(terms(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '))).toHaveLength(MAX_TERMS);
  });

  it('never throws on random input', () => {
    const alphabet = ['"', '#', '-', ':', '<', '>', ' ', 'a', 'Z', '1', '❤️', '\u0301', '\uD83D', '(', '*', 'created:', 'type:', 'match:OR', '[', ']', '{', '}'];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: rnd(20) }, () => alphabet[rnd(alphabet.length)]).join('');
      const q = parseSearch(s);
      for (const t of q.terms) expect(['word', 'phrase', 'tag', 'type', 'date', 'flag', 'domain', 'field', 'id', 'lang']).toContain(t.kind);
    }
  });
});

describe('parseSearch: the older JSON form', () => {
  it('reads keys word, tag, notag, important, type and domain', () => {
    const q = parseSearch(
      JSON.stringify([
        { key: 'word', val: 'hello world' },
        { key: 'tag', val: 'js' },
        { key: 'notag', val: true },
        { key: 'important', val: 'true' },
        { key: 'type', val: 'article' },
        { key: 'domain', val: 'example.com' },
        { key: 'somethingElse', val: 'x' },
      ]),
    );
    expect(q.terms).toEqual<Term[]>([
      { kind: 'word', value: 'hello', negate: false },
      { kind: 'word', value: 'world', negate: false },
      { kind: 'tag', value: 'js', negate: false },
      { kind: 'flag', flag: 'notag', value: true, negate: false },
      { kind: 'flag', flag: 'important', value: true, negate: false },
      { kind: 'type', value: 'article', negate: false },
      { kind: 'domain', value: 'example.com', negate: false },
    ]);
  });

  it('reads JSON that is not that shape as text', () => {
    expect(terms('[1, 2]')).toEqual([{ kind: 'word', value: '[1,', negate: false }, { kind: 'word', value: '2]', negate: false }]);
    expect(terms('[not json')).toEqual([
      { kind: 'word', value: '[not', negate: false },
      { kind: 'word', value: 'json', negate: false },
    ]);
  });
});
