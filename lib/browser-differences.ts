// What differs between Chrome and Firefox, in one place: the highlight painting fallback, the OAuth
// redirect and sign-in window, storage.session, the shortcut settings page, side panel vs sidebar.
// Everything else in the extension uses the same WebExtension API in both; the manifest's differences
// (Chrome's `key`, Firefox's gecko id and minimum version) are in wxt.config.ts. Checked in both
// browsers by the end-to-end lanes (tests/e2e, tests/e2e-firefox).
// Two differences are CSS only, each in its page's stylesheet under `@supports (-moz-appearance: none)`
// (true in Firefox only): the popup keeps its scrollbar's room (components/popup/popup.css: Firefox puts
// the scrollbar inside the popup's width, which would then scroll sideways), and the sidebar's page heading
// is for screen readers only (components/sidepanel/sidepanel.css: Firefox's sidebar header shows it).
import { browser } from 'wxt/browser';

type BrowserName = 'chrome' | 'firefox';

/**
 * The browser this build is for (WXT sets it at build time; the other browser's branches are dropped).
 * `import.meta.env` does not exist outside the build, where the benches run lib/ in Node: Chrome there.
 */
const BROWSER: BrowserName = import.meta.env?.FIREFOX ? 'firefox' : 'chrome';

// The background: Chrome runs it as a service worker (no DOM, stopped when idle, woken by events),
// Firefox as an event page (`background.scripts`, written by WXT; a window, also unloaded when idle).
// lib/background is written for the stricter of the two (listeners registered synchronously at start,
// all state in storage, no DOM), so no code branches on it.

// The CSS Custom Highlight API: Firefox has it from 140 (the build's strict_min_version), so the Firefox
// build ships no rangy fallback painter (entrypoints/highlighter-fallback-painter/index.ts excludes it) and its
// highlighter never asks for one; Chrome has it from 105, and the highlighter asks for the fallback part
// in a frame that lacks it (lib/highlighter/controller.ts).

/**
 * Where the OAuth sign-in window ends: `identity.getRedirectURL('oauth')`. Chrome:
 * https://<extension id>.chromiumapp.org/oauth (the id is pinned by the manifest key); Firefox:
 * https://<SHA-1 of the add-on id>.extensions.allizom.org/oauth (the add-on id is pinned by the
 * gecko settings). The server registers both for the extension's OAuth client (CHROME_REDIRECT_URL
 * and FIREFOX_REDIRECT_URL in lib/api/extension-identity.ts); both end-to-end lanes sign in through them.
 */
export function oauthRedirectUrl(): string {
  return browser.identity.getRedirectURL('oauth');
}

/**
 * Opens the authorization page in the browser's sign-in window and resolves with the URL it was
 * redirected to. Chrome opens its own window; Firefox opens a popup window and stops it at the
 * redirect URL. Both reject when the user closes the window.
 */
export function launchAuthFlow(url: string): Promise<string> {
  return browser.identity.launchWebAuthFlow({ url, interactive: true }) as Promise<string>;
}

/**
 * The storage area for the short-lived access token. storage.session (kept in memory, cleared when
 * the browser closes) exists from Chrome 102 and Firefox 115, below both minimum versions. Chrome
 * lets only trusted contexts read it by default; Firefox never exposes it to content scripts.
 */
export const SESSION_AREA = 'session' as const;

/**
 * Opens the browser's keyboard-shortcut settings. Firefox has commands.openShortcutSettings()
 * (about:addons -> Manage Extension Shortcuts); Chrome has no API for it, so its page is opened.
 */
export async function openShortcutSettings(): Promise<void> {
  const commands = browser.commands as { openShortcutSettings?: () => Promise<void> };
  if (commands.openShortcutSettings) await commands.openShortcutSettings();
  else await browser.tabs.create({ url: 'chrome://extensions/shortcuts' });
}

interface ChromeSidePanel {
  open(options: { windowId?: number; tabId?: number }): Promise<void>;
}
interface FirefoxSidebar {
  open(): Promise<void>;
}

const chromeSidePanel = () => (browser as unknown as { sidePanel?: ChromeSidePanel }).sidePanel;
const firefoxSidebar = () => (browser as unknown as { sidebarAction?: FirefoxSidebar }).sidebarAction;

/**
 * Whether this browser has a side panel Tidemark can open: Chrome's side panel (`side_panel`,
 * chrome.sidePanel, Chrome 116+) or Firefox's sidebar (`sidebar_action`, sidebarAction). WXT
 * writes the right manifest key for each from entrypoints/sidepanel.
 */
export function hasSidePanel(): boolean {
  return BROWSER === 'firefox' ? !!firefoxSidebar() : !!chromeSidePanel();
}

/**
 * Opens the side panel: in `windowId` on Chrome (the panel then follows that window's active tab),
 * in the current window on Firefox. Both browsers refuse unless the user's click or key press is
 * still being handled: call this straight from the event's handler, before any await. Resolves
 * false when the browser has no panel or refused.
 */
export function openSidePanel(windowId: number | undefined): Promise<boolean> {
  let opening: Promise<void> | undefined;
  try {
    if (BROWSER === 'firefox') opening = firefoxSidebar()?.open();
    else if (windowId !== undefined) opening = chromeSidePanel()?.open({ windowId });
  } catch (err) {
    return Promise.resolve(sidePanelRefused(err));
  }
  if (!opening) return Promise.resolve(false);
  return opening.then(
    () => true,
    (err: unknown) => sidePanelRefused(err),
  );
}

function sidePanelRefused(err: unknown): false {
  console.warn(`Tidemark: the side panel did not open: ${(err as Error)?.message ?? String(err)}`);
  return false;
}
