// How a test knows that the injected highlighter has acted on a change of the page, where what it
// checks is that the change made it do nothing (search again, repaint): it waits for the count of
// changes handled to move, then asserts. The count is kept in the content scripts' world (reached
// through chrome.scripting from the service worker) by wrapping the highlighter's own methods: the
// debounced check after a change (repaintChanged) and the anchoring run it may start.
import type { ExtensionBrowser } from './extension-browser.js';

/**
 * In the content scripts' world of the tab showing `pageUrl`: 'watch' starts counting the page changes
 * the highlighter has finished acting on (false where it is not in the page); 'count' reads the count.
 * The function is passed to chrome.scripting as it is: the service worker may not build one from text.
 */
function inHighlighterWorld(browser: ExtensionBrowser, pageUrl: string, what: 'watch' | 'count'): Promise<unknown> {
  return browser.inWorker(
    async ({ url, kind }) => {
      const c = (globalThis as any).chrome;
      const tab = (await c.tabs.query({})).find((t: { url?: string }) => t.url === url);
      if (!tab) throw new Error(`No tab with ${url}`);
      const [r] = await c.scripting.executeScript({
        target: { tabId: tab.id },
        args: [kind],
        func: (k: string) => {
          const h = (globalThis as any).__tidemarkHighlighter;
          if (k === 'count') return h?.__changesHandled ?? null;
          if (!h) return false;
          if (h.__changesHandled !== undefined) return true;
          h.__changesHandled = 0;
          const anchor = h.anchorAndPaint;
          const repaint = h.repaintChanged;
          let started: Promise<void> | null = null;
          h.anchorAndPaint = function (...args: unknown[]) {
            return (started = anchor.apply(this, args));
          };
          h.repaintChanged = function () {
            started = null;
            repaint.call(this);
            const run = started as Promise<void> | null;
            if (run) void run.finally(() => h.__changesHandled++);
            else h.__changesHandled++;
          };
          return true;
        },
      });
      return r.result;
    },
    { url: pageUrl, kind: what },
  );
}

/**
 * From now on counts the page changes the tab's highlighter has finished acting on (0 at first).
 * Fails where the highlighter is not in the page yet.
 */
export async function watchPageChanges(browser: ExtensionBrowser, pageUrl: string): Promise<void> {
  if (!(await inHighlighterWorld(browser, pageUrl, 'watch'))) throw new Error(`The highlighter is not in ${pageUrl}`);
}

/** The page changes the tab's highlighter has finished acting on since watchPageChanges. */
export async function pageChangesHandled(browser: ExtensionBrowser, pageUrl: string): Promise<number> {
  return (await inHighlighterWorld(browser, pageUrl, 'count')) as number;
}
