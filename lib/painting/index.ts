/**
 * Tidemark highlight painting — in-page, no extension APIs.
 *
 *   const painter = await createPainter(document);
 *   painter.paint(localKey, anchoredResult.range, { color: 'yellow', hasNote: true });
 *   painter.highlightsAt(event.clientX, event.clientY); // -> keys under the pointer
 *   painter.scrollTo(localKey); await painter.flash(localKey);
 *
 * Where the CSS Custom Highlight API exists, highlights are painted without touching the DOM: one
 * Highlight per colour registered as `tidemark-<colour>`, `tidemark-note` for the note underline,
 * `tidemark-flash` for the flash effect, and `::highlight()` styles in one adopted style sheet (or one
 * <style> element). Otherwise a rangy class-applier painter is loaded on demand (dynamic import) that
 * wraps text in <span class="tidemark-hl-<colour>">. Keys and ranges are kept in memory only.
 */
import { supportsHighlightApi, type HighlightApiPainterOptions } from './highlight-api-painter.js';
import { DisposableHighlightApiPainter } from './disposable-painter.js';
import { ScopeMarks } from './scope-marks.js';
import type { DisposablePainter } from './types.js';

/** The Highlight API painter, with destroy() (the highlighter's own lacks it: disposable-painter.ts). */
export { DisposableHighlightApiPainter as HighlightApiPainter, ScopeMarks, supportsHighlightApi };
export { HIGHLIGHT_COLORS } from './types.js';
export type { HighlightColor, PaintStyle, PaintItem, Painter, DisposablePainter, FlashOptions, ScrollToOptions } from './types.js';
export { highlightName, NOTE_HIGHLIGHT, FLASH_HIGHLIGHT, colorClass } from './styles.js';

export interface CreatePainterOptions extends HighlightApiPainterOptions {
  /** 'auto' (default): the Highlight API where supported, else the class-applier fallback. */
  implementation?: 'auto' | 'highlight-api' | 'class-applier';
}

/** The best painter this document supports. */
export async function createPainter(doc: Document = document, options: CreatePainterOptions = {}): Promise<DisposablePainter> {
  const which = options.implementation ?? 'auto';
  if (which === 'highlight-api' || (which === 'auto' && supportsHighlightApi(doc))) {
    return new DisposableHighlightApiPainter(doc, { ...options, marks: options.marks ?? (options.documentStyled ? undefined : new ScopeMarks()) });
  }
  const { ClassApplierPainter } = await import('./class-applier-painter.js');
  return new ClassApplierPainter(doc);
}
