// The reader's highlights found in its article, with the same anchoring code the highlighter uses
// on live pages (lib/anchoring: quote, occurrence and context, "never the wrong place"), and new
// highlights described in the same form, so a highlight made in the reader is found on the live
// page and the other way round.
import { TextIndex, anchorAllSliced, describeRange, type AnchoredResult, type HighlightDescriptor } from '../anchoring/index.js';
import type { StoredHighlight } from '../model.js';

export interface ReaderPlacement {
  placed: { highlight: StoredHighlight; result: AnchoredResult }[];
  /** Highlights whose text is not in the article, or not at one place only: listed, never painted. */
  notFound: StoredHighlight[];
}

/** Builds the article's text index in slices (a long article never blocks the page for long). */
export function indexArticle(root: Node): Promise<TextIndex> {
  return TextIndex.build(root, { computedStyle: false });
}

/** Where each highlight belongs in the indexed article, in the article's order. */
export async function placeHighlights(index: TextIndex, highlights: readonly StoredHighlight[]): Promise<ReaderPlacement> {
  const results = await anchorAllSliced(index, highlights.map(descriptorOf));
  const placed: ReaderPlacement['placed'] = [];
  const notFound: StoredHighlight[] = [];
  results.forEach((result, i) => {
    const highlight = highlights[i]!;
    if (result.status === 'anchored') placed.push({ highlight, result });
    else notFound.push(highlight);
  });
  placed.sort((a, b) => a.result.start - b.result.start);
  return { placed, notFound };
}

/** A selection in the article described as the highlighter describes one on a live page; null when it holds no text of the article. */
export function describeSelection(index: TextIndex, range: AbstractRange): HighlightDescriptor | null {
  return describeRange(index, range);
}

function descriptorOf(h: StoredHighlight): HighlightDescriptor {
  return { text: h.text, position: h.position, prefix: h.prefix, suffix: h.suffix };
}
