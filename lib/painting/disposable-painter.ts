/**
 * The Highlight API painter with destroy(), what it has painted (has, keys, rangesOf) and a check that the
 * document has the API: for callers of the painting library (createPainter) and the tests, which take a
 * painter down again. The highlighter injected into pages never does (its painter lives as long as the
 * page, and framePainter checks for the API), so highlighter.js, which has a size budget, does not carry it.
 */
import { HighlightApiPainter, supportsHighlightApi, type HighlightApiPainterOptions } from './highlight-api-painter.js';
import { FLASH_HIGHLIGHT, NOTE_HIGHLIGHT, highlightName } from './styles.js';
import { HIGHLIGHT_COLORS, rangeList, type DisposablePainter } from './types.js';

export class DisposableHighlightApiPainter extends HighlightApiPainter implements DisposablePainter {
  constructor(doc: Document, options: HighlightApiPainterOptions = {}) {
    if (!supportsHighlightApi(doc)) throw new Error('No CSS Custom Highlight API: use createPainter()');
    super(doc, options);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  rangesOf(key: string): AbstractRange[] {
    const entry = this.entries.get(key);
    return entry ? rangeList(entry.ranges) : [];
  }

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
