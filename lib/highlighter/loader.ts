// The eager part of the highlighter: tiny, runs on every page it is registered for. It only watches
// for the end of a text selection and, on saved pages, asks for painting; the highlighter itself
// (toolbar, anchoring, painting) is injected by the background when needed.
import { browser } from '@wxt-dev/browser';
import { highlightableSelection } from './editable.js';

/** Set in the content scripts' isolated world by the full highlighter once it runs. */
export const HIGHLIGHTER_GLOBAL = '__tidemarkHighlighter';
/**
 * Set by the loader when the reader ended a selection (mouse up, Shift+key up) before the highlighter
 * was there: the highlighter then offers its toolbar for that selection. A selection made any other
 * way (find in page, a page script) gets no toolbar when the highlighter arrives for another reason.
 */
export const SELECTION_PENDING_GLOBAL = '__tidemarkSelectionPending';
const LOADER_GLOBAL = '__tidemarkLoader';
/**
 * Set by the loader: it runs only as the registered content script, registered together with the
 * painter's ::highlight() style sheet, so the page has those rules (the painter adds no sheet of its own).
 */
export const STYLES_REGISTERED_GLOBAL = '__tidemarkStylesRegistered';

type Global = Record<string, unknown>;

export function startLoader(): void {
  const g = globalThis as unknown as Global;
  if (g[LOADER_GLOBAL] || window.top !== window) return;
  g[LOADER_GLOBAL] = true;
  g[STYLES_REGISTERED_GLOBAL] = true;
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
        delete g[SELECTION_PENDING_GLOBAL];
      },
    );
  };
  const onSelectionEnd = (e: Event) => {
    if (g[HIGHLIGHTER_GLOBAL]) return; // the highlighter handles it
    if (e instanceof KeyboardEvent && !e.shiftKey) return;
    if (!e.isTrusted) return;
    setTimeout(() => {
      if (!highlightableSelection()) return;
      g[SELECTION_PENDING_GLOBAL] = true;
      load(false);
    }, 0);
  };
  document.addEventListener('mouseup', onSelectionEnd, true);
  document.addEventListener('keyup', onSelectionEnd, true);
  // Saved pages: the background answers by injecting the highlighter, which paints. This runs on every
  // page: a refusal here only means the extension was reloaded or updated under the page (its context is
  // gone), which the next page load repairs, so it is not worth a console line on every site.
  browser.runtime.sendMessage({ type: 'loadHighlighter', data: { paint: true } }).catch(() => {});
}
