/**
 * The Highlight API painter with destroy(): for callers of the painting library (createPainter) and the
 * tests, which take a painter down again. The highlighter injected into pages never does (its painter
 * lives as long as the page), so highlighter.js, which has a size budget, does not carry it.
 */
import { HighlightApiPainter } from './highlight-api-painter.js';
import { FLASH_HIGHLIGHT, NOTE_HIGHLIGHT, highlightName } from './styles.js';
import { HIGHLIGHT_COLORS, type DisposablePainter } from './types.js';

export class DisposableHighlightApiPainter extends HighlightApiPainter implements DisposablePainter {
  /** Removes every highlight, the Highlights it registered (not a page's own under the same names) and its styles. */
  destroy(): void {
    this.marks?.clear(true);
    this.clear();
    for (const color of HIGHLIGHT_COLORS) {
      if (this.registry.get(highlightName(color)) === this.byColor.get(color)) this.registry.delete(highlightName(color));
    }
    if (this.registry.get(NOTE_HIGHLIGHT) === this.note) this.registry.delete(NOTE_HIGHLIGHT);
    if (this.registry.get(FLASH_HIGHLIGHT) === this.flashing) this.registry.delete(FLASH_HIGHLIGHT);
    this.styles.removeAll();
  }
}
