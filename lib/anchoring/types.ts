/** Types of the anchoring module's public API, and types its modules share (here, so no two of them import each other). */

/**
 * How a highlight is stored: the quote and enough context to find it again.
 * All strings are in normalised form (see normalizeText); stored values are normalised again on use.
 */
export interface HighlightDescriptor {
  /** The quoted text. */
  text: string;
  /** 0-based index of this occurrence among all occurrences of `text` in the page's normalised text. */
  position?: number;
  /** Up to 32 characters of normalised text immediately before the quote. */
  prefix?: string;
  /** Up to 32 characters of normalised text immediately after the quote. */
  suffix?: string;
}

export type AnchorMethod = 'exact' | 'whitespace' | 'fuzzy';

export interface AnchoredResult {
  status: 'anchored';
  /** DOM range of the match in the current page. */
  range: Range;
  /** Offsets of the match in the index's normalised text. */
  start: number;
  end: number;
  method: AnchorMethod;
  /** Confidence in [0, 1]: 1 for an exact quote with matching context. */
  score: number;
}

export interface UnanchoredResult {
  /** 'orphan': not found (or only found where the context disagrees); 'ambiguous': several equally good places. */
  status: 'orphan' | 'ambiguous';
  /** A sentence for people saying why. */
  reason: string;
}

export type AnchorResult = AnchoredResult | UnanchoredResult;

export interface AnchorOptions {
  /** Shortest quote length for which fuzzy (approximate) matching is tried. Default 12. */
  fuzzyMinLength?: number;
  /** Maximum errors allowed in a fuzzy match as a fraction of the quote length. Default 0.2. */
  fuzzyMaxErrorRate?: number;
}

/** A change of the text: old [from, to) became `len` characters. In ascending order, not overlapping. */
export interface TextEdit {
  from: number;
  to: number;
  len: number;
}
