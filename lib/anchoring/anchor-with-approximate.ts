/**
 * anchor, anchorAll and anchorAllSliced with approximate search always at hand: the module's public
 * API (index.ts). The injected highlighter uses anchor.ts itself and loads anchor-approximate.ts only when
 * a highlight needs it.
 */
import * as core from './anchor.js';
import { approximateSearch } from './anchor-approximate.js';
import type { SliceOptions, TextIndex, TextIndexOptions } from './text-index.js';
import type { AnchorOptions, AnchorResult, HighlightDescriptor } from './types.js';

/** Finds where `descriptor` belongs in the page indexed by `index`. */
export function anchor(index: TextIndex, descriptor: HighlightDescriptor, options: AnchorOptions = {}): AnchorResult {
  return core.anchor(index, descriptor, { approximate: approximateSearch, ...options });
}

/** Anchors many descriptors against one page state, building the text index once (results in their order). */
export function anchorAll(rootOrIndex: Node | TextIndex, descriptors: readonly HighlightDescriptor[], options: AnchorOptions & TextIndexOptions = {}): AnchorResult[] {
  return core.anchorAll(rootOrIndex, descriptors, { approximate: approximateSearch, ...options });
}

/** anchorAll in slices of a few ms that yield to the page (see anchor.ts). */
export function anchorAllSliced(index: TextIndex, descriptors: readonly HighlightDescriptor[], options: AnchorOptions & SliceOptions = {}): Promise<AnchorResult[]> {
  return core.anchorAllSliced(index, descriptors, { approximate: approximateSearch, ...options });
}
