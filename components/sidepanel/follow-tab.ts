// Which tab the side panel shows: the active tab of its window, followed through tab switches and
// navigations. The real side panel belongs to the browser window it is open in; opened as a page
// (tests, or a detached window) it is told the window to follow with `?windowId=<id>`. The logic
// after that is the same.
import { browser } from 'wxt/browser';

/** The window whose active tab the panel shows. */
export async function panelWindowId(search = location.search): Promise<number | undefined> {
  const given = Number(new URLSearchParams(search).get('windowId'));
  if (Number.isInteger(given) && given > 0) return given;
  return (await browser.windows.getCurrent().catch(() => null))?.id;
}

async function activeTabOf(windowId: number | undefined): Promise<number | undefined> {
  const query = windowId === undefined ? { active: true, lastFocusedWindow: true } : { active: true, windowId };
  return (await browser.tabs.query(query).catch(() => []))[0]?.id;
}

/**
 * Calls `show(tabId)` now and whenever the window's active tab changes or the shown tab navigates
 * (a new address, or a page that finished loading). Returns the function that stops following.
 */
export function followActiveTab(windowId: number | undefined, show: (tabId: number) => void): () => void {
  let current: number | undefined;
  const pick = (tabId: number | undefined) => {
    current = tabId;
    if (tabId !== undefined) show(tabId);
  };
  const onActivated = (info: { tabId: number; windowId: number }) => {
    if (windowId === undefined || info.windowId === windowId) pick(info.tabId);
  };
  const onUpdated = (tabId: number, change: { url?: string; status?: string }) => {
    if (tabId === current && (change.url !== undefined || change.status === 'complete')) show(tabId);
  };
  const onRemoved = (tabId: number) => {
    if (tabId === current) void activeTabOf(windowId).then(pick);
  };
  browser.tabs.onActivated.addListener(onActivated);
  browser.tabs.onUpdated.addListener(onUpdated);
  browser.tabs.onRemoved.addListener(onRemoved);
  void activeTabOf(windowId).then(pick);
  return () => {
    browser.tabs.onActivated.removeListener(onActivated);
    browser.tabs.onUpdated.removeListener(onUpdated);
    browser.tabs.onRemoved.removeListener(onRemoved);
  };
}
