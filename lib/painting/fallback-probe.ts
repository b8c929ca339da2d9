/**
 * The check the background runs in a frame (scripting.executeScript `func`) before injecting the
 * highlighter: does this frame lack the CSS Custom Highlight API, so that the fallback painter script
 * must be injected first? Serialised into the page, so it uses nothing but the frame's globals, and
 * it agrees with supportsHighlightApi in highlight-api-painter.ts.
 */
export function frameLacksHighlightApi(): boolean {
  const g = globalThis as unknown as { CSS?: { highlights?: unknown }; Highlight?: unknown };
  return !(g.CSS && 'highlights' in g.CSS && g.CSS.highlights && typeof g.Highlight === 'function');
}
