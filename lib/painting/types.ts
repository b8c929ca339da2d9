/** Types of the painting module's public API. */

import type { HighlightColor } from '../api/constants.js';

// The API's twelve colours, declared once in lib/api.
export { HIGHLIGHT_COLORS, type HighlightColor } from '../api/constants.js';

export interface PaintStyle {
  color: HighlightColor;
  /** Draws the note underline (Highlight API painter only; the fallback shows colour only). */
  hasNote?: boolean;
}

/** A highlight to paint: the Highlight API painter and its scope marks keep it as given (not copied), so it is not to be changed once painted. */
export interface PaintItem extends PaintStyle {
  /** Opaque local key chosen by the caller; never written to the page. */
  key: string;
  ranges: AbstractRange | readonly AbstractRange[];
}

/** A fresh array of the one or many ranges a caller passed. */
export function rangeList(ranges: AbstractRange | readonly AbstractRange[]): AbstractRange[] {
  return Array.isArray(ranges) ? ranges.slice() : [ranges as AbstractRange];
}

export interface FlashOptions {
  /** Total duration of the effect in ms (default 900). */
  durationMs?: number;
}

export interface ScrollToOptions {
  behavior?: ScrollBehavior;
}

/**
 * Paints highlights on a page. Two implementations: the CSS Custom Highlight API (no DOM changes)
 * and a fallback that wraps text in <span class="tidemark-hl-COLOR"> (loaded only when needed).
 */
export interface Painter {
  readonly kind: 'highlight-api' | 'class-applier';
  /** Paints (or repaints) the highlight `key` over `ranges`. */
  paint(key: string, ranges: AbstractRange | readonly AbstractRange[], style: PaintStyle): void;
  /** Paints many highlights at once. */
  paintMany(items: readonly PaintItem[]): void;
  /** Changes colour and/or note underline of a painted highlight. False when `key` is not painted. */
  restyle(key: string, style: Partial<PaintStyle>): boolean;
  /** Removes one highlight. False when `key` is not painted. */
  remove(key: string): boolean;
  /** Removes every highlight (the painter stays usable). */
  clear(): void;
  /** Keys of the highlights under viewport point (x, y), most specific (shortest) first. */
  highlightsAt(x: number, y: number): string[];
  /** Briefly pulses the highlight. Resolves false when `key` is not painted. */
  flash(key: string, options?: FlashOptions): Promise<boolean>;
  /** Scrolls the highlight into the middle of the view. False when `key` is not painted. */
  scrollTo(key: string, options?: ScrollToOptions): boolean;
}

/**
 * The library's painter (createPainter; the tests'): it also answers what it has painted, and can be taken
 * down again (see disposable-painter.ts). The highlighter injected into pages needs neither, and its
 * script has a size budget.
 */
export interface DisposablePainter extends Painter {
  has(key: string): boolean;
  keys(): string[];
  /** Current ranges of a highlight (copies for the fallback, whose DOM changes under it). */
  rangesOf(key: string): AbstractRange[];
  /** Removes every highlight and the injected styles. */
  destroy(): void;
}
