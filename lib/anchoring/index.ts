/**
 * Tidemark text anchoring — pure DOM in, ranges out (no extension APIs, no network).
 *
 * A highlight is stored as a HighlightDescriptor `{ text, position?, prefix?, suffix? }` in normalised
 * text (whitespace runs -> one space, nbsp folded, soft hyphens and zero-width characters dropped,
 * block boundaries and <br> read as spaces; script/style/hidden content skipped; open shadow roots walked).
 *
 *   const index = new TextIndex(document);                 // one pass over the page
 *   const d = describeRange(index, selection.getRangeAt(0)); // -> descriptor to store
 *   const results = anchorAll(index, descriptors);         // -> one AnchorResult per descriptor
 *   for (const r of results) if (r.status === 'anchored') paint(r.range);
 *
 * AnchorResult is `{ status: 'anchored', range, start, end, method, score }` with method
 * 'exact' | 'whitespace' | 'fuzzy', or `{ status: 'orphan' | 'ambiguous', reason }`: a quote that cannot
 * be placed with confidence is reported, never guessed. After the page re-renders (SPA), build a new
 * TextIndex and anchor again. On long pages, `await TextIndex.build(root)` and `anchorAllSliced` do the
 * same work in slices of a few ms, yielding to the page in between (no long task).
 */
export { TextIndex, yieldToPage, type TextIndexOptions, type SliceOptions, type DomPoint } from './text-index.js';
export { describeRange, describeOffsets, CONTEXT_LENGTH } from './describe.js';
export { anchor, anchorAll, anchorAllSliced } from './anchor-with-approximate.js';
export { normalizeText } from './normalize.js';
export { offsetAt, offsetsOf } from './range-offsets.js';
export type {
  HighlightDescriptor,
  AnchorResult,
  AnchoredResult,
  UnanchoredResult,
  AnchorMethod,
  AnchorOptions,
} from './types.js';
