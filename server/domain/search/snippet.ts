import { foldWord, type PageTextTerm } from './page-text-terms.js';

// The `snippet` of a search result that matched in its page's text: a short extract around the
// first place a searched word or phrase occurs, HTML-escaped, the matched words inside <mark>.

/** Characters of context kept before the first match and in all. */
const BEFORE = 60;
const LENGTH = 220;

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

interface Token {
  start: number;
  end: number;
  word: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Spans of `tokens` that match a term (its words in a row), longest first where they start together. */
function matches(tokens: Token[], terms: PageTextTerm[], first = false): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let best = 0;
    for (const term of terms) {
      if (term.length <= best || i + term.length > tokens.length) continue;
      if (term.every((w, k) => tokens[i + k]!.word === w)) best = term.length;
    }
    if (best === 0) continue;
    out.push({ start: tokens[i]!.start, end: tokens[i + best - 1]!.end });
    if (first) return out;
    i += best - 1;
  }
  return out;
}

/** Reads words from `text` one at a time, so finding an early match costs only what was read. */
function* tokenize(text: string, from = 0, to = text.length): Generator<Token> {
  const re = new RegExp(WORD.source, 'gu');
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    yield { start: m.index, end: m.index + m[0].length, word: foldWord(m[0]) };
  }
}

/** Whether any term occurs in `text` (as the snippet would find it). */
export function holdsAnyTerm(text: string, terms: PageTextTerm[]): boolean {
  return terms.length > 0 && firstMatch(text, terms) !== null;
}

/** The first match of any term, reading the text a window of words at a time. */
function firstMatch(text: string, terms: PageTextTerm[]): { start: number; end: number } | null {
  const longest = Math.max(...terms.map((t) => t.length));
  const window: Token[] = [];
  for (const token of tokenize(text)) {
    window.push(token);
    if (window.length < longest) continue;
    const found = matches(window, terms, true)[0];
    if (found && found.start === window[0]!.start) return found;
    window.shift();
  }
  // The last few words, shorter than the longest term.
  return matches(window, terms, true)[0] ?? null;
}

/** The snippet for `text`, or null when no term occurs in it. */
export function makeSnippet(text: string, terms: PageTextTerm[]): string | null {
  if (terms.length === 0 || text === '') return null;
  const hit = firstMatch(text, terms);
  if (!hit) return null;
  let start = Math.max(0, hit.start - BEFORE);
  let end = Math.min(text.length, start + LENGTH);
  if (end < hit.end) end = hit.end;
  // Whole words at both ends.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < hit.start) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > hit.end) end = space;
  }
  const marks = matches([...tokenize(text, start, end)], terms);
  let html = '';
  let at = start;
  for (const m of marks) {
    html += escapeHtml(text.slice(at, m.start)) + '<mark>' + escapeHtml(text.slice(m.start, m.end)) + '</mark>';
    at = m.end;
  }
  html += escapeHtml(text.slice(at, end));
  html = html.replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${html}${end < text.length ? '…' : ''}`;
}
