// Where a search matched in the page's text: the server's extract under the title, its matched words
// marked. Rendered from plain text pieces (lib/library/snippet.ts), never as HTML.
import { useMemo } from 'preact/hooks';
import { snippetParts } from '../../lib/library/snippet.js';

export function Snippet({ snippet }: { snippet: string }) {
  const parts = useMemo(() => snippetParts(snippet), [snippet]);
  return <p class="snippet">{parts.map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : p.text))}</p>;
}
