// The popup's height from its first frame, in Chromium: a raw CDP connection (./raw-cdp.ts) pauses
// every page as it is created, adds a recorder to the extension's popup before any of its scripts
// run, and lets it go. The recorder notes the document's height at every animation frame where it
// changed, and when the document finished loading (Chromium shows an extension's popup once its
// first load stopped: what the user sees starts there).
import type { Page } from '@playwright/test';
import type { ExtensionBrowser } from './extension-browser.js';
import { RawCdp } from './raw-cdp.js';

/** A height (px, the document's) and when it was first painted (ms since the popup's navigation started). */
export interface PopupHeight {
  at: number;
  height: number;
  /** The first frame after the load: the height the popup is shown at. */
  shown?: true;
}

/** What the popup's status line said, and from when (ms since the popup's navigation started). */
export interface PopupStatus {
  at: number;
  text: string;
}

export interface PopupHeights {
  /** Every height, in order, from the first frame on (before the load, too). */
  frames: PopupHeight[];
  /** Every text of the status line (role=status in the header), in order, from the first frame that had one. */
  statuses: PopupStatus[];
  /** When the popup's document finished loading (ms). */
  loadedAt: number;
}

const SLOT = '__tidemarkTestPopupHeights';

/** Runs in the popup before its scripts. Stops after `forMs`, so a popup left open costs nothing. */
function recorder(slot: string, forMs: number) {
  if (location.protocol !== 'chrome-extension:' || location.pathname !== '/popup.html') return;
  const heights: { frames: { at: number; height: number; shown?: true }[]; statuses: { at: number; text: string }[]; loadedAt: number } = {
    frames: [],
    statuses: [],
    loadedAt: -1,
  };
  (globalThis as Record<string, unknown>)[slot] = heights;
  addEventListener('load', () => (heights.loadedAt = performance.now()));
  let shown = false;
  const frame = (now: number) => {
    const height = Math.round(document.documentElement.getBoundingClientRect().height);
    if (!shown && heights.loadedAt >= 0) {
      shown = true;
      heights.frames.push({ at: Math.round(now), height, shown: true });
    } else if (heights.frames.at(-1)?.height !== height) heights.frames.push({ at: Math.round(now), height });
    const status = document.querySelector('header [role=status]')?.textContent ?? null;
    if (status !== null && heights.statuses.at(-1)?.text !== status) heights.statuses.push({ at: Math.round(now), text: status });
    if (now < forMs) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** Adds the recorder to every popup that opens while it runs; `stop()` when done. */
export class PopupHeightWatch {
  private constructor(private readonly cdp: RawCdp) {}

  /** `before`: a script of the test's own, run in the popup (only) before its scripts, after the recorder. */
  static async start(browser: ExtensionBrowser, forMs = 6000, before = ''): Promise<PopupHeightWatch> {
    const cdp = await RawCdp.open(await RawCdp.browserUrl(browser.debugPort));
    const inPopup = `if (location.protocol === 'chrome-extension:' && location.pathname === '/popup.html') {\n${before}\n}`;
    const source = `(${recorder.toString()})(${JSON.stringify(SLOT)}, ${forMs});\n${before ? inPopup : ''}`;
    cdp.onEvent((e) => {
      if (e.method !== 'Target.attachedToTarget') return;
      const { sessionId, targetInfo, waitingForDebugger } = e.params as { sessionId: string; targetInfo: { type: string }; waitingForDebugger: boolean };
      // The popup is attached as "other" (it becomes a page as it navigates): the recorder is added to both kinds.
      const added = ['page', 'other'].includes(targetInfo.type)
        ? cdp.send('Page.enable', {}, sessionId).then(() => cdp.send('Page.addScriptToEvaluateOnNewDocument', { source }, sessionId))
        : Promise.resolve();
      // Resumed whatever happened: a target that closed meanwhile has nothing to resume, and a recorder
      // that could not be added shows as popupHeights' error.
      void added
        .catch(() => undefined)
        .then(() => (waitingForDebugger ? cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId) : undefined))
        .catch(() => undefined);
    });
    // Browser-level auto-attach pauses every new target until it is resumed above (tabs' pages are
    // reached through their tab targets, which are left out, as is the browser itself).
    await cdp.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: [{ type: 'browser', exclude: true }, { type: 'tab', exclude: true }, {}],
    });
    return new PopupHeightWatch(cdp);
  }

  async stop(): Promise<void> {
    // Closing the connection detaches its sessions; the browser may be closing already.
    await this.cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => {});
    this.cdp.close();
  }
}

/** What the recorder in `popup` noted so far (throws when the popup opened without it). */
export async function popupHeights(popup: Page): Promise<PopupHeights> {
  const heights = await popup.evaluate((slot) => (globalThis as Record<string, unknown>)[slot] as PopupHeights | undefined, SLOT);
  if (!heights) throw new Error('The popup has no height recorder: it opened before PopupHeightWatch.start().');
  return heights;
}

/** The heights the user sees: the one of the first frame after the load, and every later one. */
export function shownHeights({ frames }: PopupHeights): PopupHeight[] {
  const first = frames.findIndex((f) => f.shown);
  return first < 0 ? [] : frames.slice(first);
}
