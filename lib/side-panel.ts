// Opening Tidemark's side panel: Chrome's side panel (chrome.sidePanel) or Firefox's sidebar
// (sidebarAction). Both must be called while the user's click or key press lasts: call these
// straight from the event's handler, before any await. The one place that knows the difference
// (meant to move behind the browser-differences module).
import { browser } from 'wxt/browser';

interface ChromeSidePanel {
  open(options: { windowId?: number; tabId?: number }): Promise<void>;
}
interface FirefoxSidebar {
  open(): Promise<void>;
}

const chromeSidePanel = () => (browser as unknown as { sidePanel?: ChromeSidePanel }).sidePanel;
const firefoxSidebar = () => (browser as unknown as { sidebarAction?: FirefoxSidebar }).sidebarAction;

/** Whether this browser has a side panel Tidemark can open. */
export function hasSidePanel(): boolean {
  return !!chromeSidePanel() || !!firefoxSidebar();
}

/**
 * Opens the side panel in `windowId` (Chrome; the panel then follows that window's active tab).
 * Resolves false when the browser has none or refused (no user gesture).
 */
export function openSidePanel(windowId: number | undefined): Promise<boolean> {
  const chromePanel = chromeSidePanel();
  let opening: Promise<void> | undefined;
  try {
    if (chromePanel && windowId !== undefined) opening = chromePanel.open({ windowId });
    else opening = firefoxSidebar()?.open();
  } catch (err) {
    return Promise.resolve(refused(err));
  }
  if (!opening) return Promise.resolve(false);
  return opening.then(
    () => true,
    (err: unknown) => refused(err),
  );
}

function refused(err: unknown): false {
  console.warn(`Tidemark: the side panel did not open: ${(err as Error)?.message ?? String(err)}`);
  return false;
}
