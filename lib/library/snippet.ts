// A search result's `snippet` (beyond the spec): the server's extract of the page text, HTML-escaped,
// with the matched words inside <mark>. It is never given to the DOM as HTML: it is read here into
// plain text pieces, marked or not, which the list renders as text nodes, so nothing else in it
// (a <script>, an <img onerror>) can ever become an element.

export interface SnippetPart {
  text: string;
  mark: boolean;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The text an HTML-escaped string stands for: character references decoded, unknown ones kept as written. */
export function unescapeHtml(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/** The snippet as pieces of text, each inside a <mark> or not; empty pieces are left out. */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let mark = false;
  for (const piece of snippet.split(/(<\/?mark>)/i)) {
    const tag = piece.toLowerCase();
    if (tag === '<mark>' || tag === '</mark>') {
      mark = tag === '<mark>';
      continue;
    }
    const text = unescapeHtml(piece);
    if (text) parts.push({ text, mark });
  }
  return parts;
}
