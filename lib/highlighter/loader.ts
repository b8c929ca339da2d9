// The eager part of the highlighter: tiny, runs on every page it is registered for. It only watches
// for the end of a text selection and, on saved pages, asks for painting; the highlighter itself
// (toolbar, anchoring, painting) is injected by the background when needed.
import { browser } from 'wxt/browser';
import { highlightableSelection } from './editable.js';

/** Set in the content scripts' isolated world by the full highlighter once it runs. */
export const HIGHLIGHTER_GLOBAL = '__tidemarkHighlighter';
const LOADER_GLOBAL = '__tidemarkLoader';

type Global = Record<string, unknown>;

export function startLoader(): void {
  const g = globalThis as unknown as Global;
  if (g[LOADER_GLOBAL] || window.top !== window) return;
  g[LOADER_GLOBAL] = true;
  let requested = false;
  const load = (paint: boolean) => {
    if (g[HIGHLIGHTER_GLOBAL] || requested) return;
    requested = true;
    browser.runtime.sendMessage({ type: 'loadHighlighter', data: { paint } }).then(
      (reply: { ok?: boolean } | undefined) => {
        if (!reply?.ok) requested = false;
      },
      () => {
        requested = false;
      },
    );
  };
  const onSelectionEnd = (e: Event) => {
    if (g[HIGHLIGHTER_GLOBAL]) return; // the highlighter handles it
    if (e instanceof KeyboardEvent && !e.shiftKey) return;
    setTimeout(() => {
      if (highlightableSelection()) load(false);
    }, 0);
  };
  document.addEventListener('mouseup', onSelectionEnd, true);
  document.addEventListener('keyup', onSelectionEnd, true);
  // Saved pages: the background answers by injecting the highlighter, which paints.
  browser.runtime.sendMessage({ type: 'loadHighlighter', data: { paint: true } }).catch(() => {});
}
