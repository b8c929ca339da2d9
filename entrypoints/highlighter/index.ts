import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { Highlighter } from '../../lib/highlighter/controller.js';
import { HIGHLIGHTER_GLOBAL } from '../../lib/highlighter/loader.js';

// The highlighter, injected into a tab by the background (scripting.executeScript) when a selection
// is made, a saved page is opened, or the popup/context menu/shortcut needs it. Once per frame.
export default defineUnlistedScript(() => {
  const g = globalThis as unknown as Record<string, unknown>;
  if (g[HIGHLIGHTER_GLOBAL]) return;
  g[HIGHLIGHTER_GLOBAL] = new Highlighter();
});
