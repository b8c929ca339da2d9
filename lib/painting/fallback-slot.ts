/**
 * Where the separately injected fallback painter (entrypoints/highlighter-fallback-painter/index.ts, rangy's
 * class applier) hands itself to the highlighter. Both scripts run in the extension's isolated world
 * of the same frame, so a property of that world's global object connects them; the page's own
 * scripts cannot see it. It is one of the highlighter's on-demand parts (lib/highlighter/parts.ts,
 * the same slot): the highlighter asks for it when it starts in a frame without the CSS Custom
 * Highlight API, so rangy is never parsed where it is not needed.
 */
import { HighlightApiPainter, supportsHighlightApi, type HighlightApiPainterOptions } from './highlight-api-painter.js';
import type { Painter } from './types.js';

/** The global parts.ts finds the 'fallback-painter' part under. */
const SLOT = '__tidemarkPart_fallback-painter';

export type PainterFactory = (doc: Document) => Painter;

/** Called by the fallback script: registers the class-applier painter for this frame. */
export function provideFallbackPainter(factory: PainterFactory): void {
  (globalThis as unknown as Record<string, unknown>)[SLOT] = factory;
}

/**
 * The painter for this frame: the Highlight API where it exists, else the injected fallback. Throws
 * an error a reader can act on when neither is there.
 */
export function framePainter(doc: Document, options: HighlightApiPainterOptions = {}): Painter {
  if (supportsHighlightApi(doc)) return new HighlightApiPainter(doc, options);
  const factory = (globalThis as unknown as Record<string, unknown>)[SLOT];
  if (typeof factory !== 'function') {
    throw new Error('Tidemark could not load its highlight painter for this page. Reload the page and try again.');
  }
  return (factory as PainterFactory)(doc);
}
