// The browser's own UI: context menus, keyboard commands and the omnibox keyword. Their handlers are
// also what the end-to-end tests call (entrypoints/background/index.ts), as they cannot click native menus.
import { browser, type Browser } from 'wxt/browser';
import { HIGHLIGHT_COLORS, type HighlightColor } from '../../api/constants.js';
import { openSidePanel } from '../../browser-differences.js';
import { t } from '../../i18n.js';
import { tabCommand } from '../highlighter-injection.js';
import { createOmnibox, type OmniboxDisposition } from '../omnibox.js';
import { reportError } from '../report-error.js';
import { libraryPage, openLibrary } from './library.js';
import type { Services } from './services.js';

const MENU_SAVE_PAGE = 'save-page';
const MENU_SAVE_LINK = 'save-link';
const MENU_SAVE_IMAGE = 'save-image';
const COMMAND_SAVE_PAGE = 'save-page';
const MENU_HIGHLIGHT = 'highlight';
const MENU_HIGHLIGHT_NOTE = 'highlight-note';
const COMMAND_HIGHLIGHT = 'highlight-selection';
const COMMAND_SIDE_PANEL = 'open-side-panel';
const COMMAND_OPEN_LIBRARY = 'open-library';

export function createMenus(): void {
  browser.contextMenus.removeAll().then(() => {
    browser.contextMenus.create({ id: MENU_SAVE_PAGE, title: t('menuSavePage'), contexts: ['page'] });
    browser.contextMenus.create({ id: MENU_SAVE_LINK, title: t('menuSaveLink'), contexts: ['link'] });
    browser.contextMenus.create({ id: MENU_SAVE_IMAGE, title: t('menuSaveImage'), contexts: ['image'] });
    browser.contextMenus.create({ id: MENU_HIGHLIGHT, title: t('menuHighlight'), contexts: ['selection'] });
    for (const color of HIGHLIGHT_COLORS) {
      browser.contextMenus.create({ id: `${MENU_HIGHLIGHT}:${color}`, parentId: MENU_HIGHLIGHT, title: t(`color_${color}`), contexts: ['selection'] });
    }
    browser.contextMenus.create({ id: MENU_HIGHLIGHT_NOTE, title: t('menuHighlightNote'), contexts: ['selection'] });
  }).catch(reportError('context menu setup'));
}

const activeTab = async (tab: Browser.tabs.Tab | undefined) =>
  tab?.id !== undefined ? tab : (await browser.tabs.query({ active: true, currentWindow: true }))[0];

/** The context menus' and keyboard commands' handlers. */
export function menuAndCommandHandlers({ badge, bookmarks }: Services) {
  /** Feedback on the tab for a save that was not of the tab's own page, then the real badge again. */
  async function flashThenRestore(tabId: number | undefined, outcome: 'saved' | 'queued' | 'exists' | 'error', title: string) {
    if (tabId === undefined) return;
    await badge.flash(tabId, outcome, title);
    setTimeout(() => void badge.showForTab(tabId), 2500);
  }

  async function saveTabFromShortcut(tab: Browser.tabs.Tab | undefined) {
    const target = await activeTab(tab);
    if (target?.id === undefined) return;
    try {
      const result = await bookmarks.openForTab(target.id, { create: true });
      if (result.state === 'saved') {
        await badge.flash(target.id, result.queued ? 'queued' : 'saved', result.queued ? t('badgeQueued') : result.created ? t('badgeSaved') : t('badgeAlreadySaved'));
      } else if (result.state === 'signed-out') {
        await badge.flash(target.id, 'error', t('errorSignedOut'));
      } else if (result.state === 'unsupported') {
        await badge.flash(target.id, 'error', result.reason);
      }
    } catch (err) {
      await badge.flash(target.id, 'error', (err as Error).message);
    }
  }

  /** Context menu "Highlight" / "Highlight with note" and the keyboard command: the page's own handler does the work. */
  async function highlightInTab(tab: Browser.tabs.Tab | undefined, color: HighlightColor | null, withNote: boolean) {
    const target = await activeTab(tab);
    if (target?.id === undefined) return;
    try {
      const r = await tabCommand(target.id, 'highlight', { color, withNote });
      if (r && !r.ok && r.error) await flashThenRestore(target.id, 'error', r.error);
    } catch (err) {
      await flashThenRestore(target.id, 'error', (err as Error).message);
    }
  }

  async function onMenuClicked(info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab) {
    try {
      if (info.menuItemId === MENU_SAVE_PAGE) return await saveTabFromShortcut(tab);
      const id = String(info.menuItemId);
      if (id === MENU_HIGHLIGHT_NOTE) return await highlightInTab(tab, null, true);
      if (id.startsWith(`${MENU_HIGHLIGHT}:`)) return await highlightInTab(tab, id.slice(MENU_HIGHLIGHT.length + 1) as HighlightColor, false);
      if (info.menuItemId === MENU_SAVE_LINK && info.linkUrl) {
        const linkText = (info as { linkText?: string }).linkText;
        const r = await bookmarks.saveLink(info.linkUrl, linkText || info.selectionText);
        return await flashThenRestore(tab?.id, r.exists ? 'exists' : r.state, r.exists ? t('badgeLinkAlreadySaved') : r.state === 'queued' ? t('badgeQueued') : t('badgeLinkSaved'));
      }
      if (info.menuItemId === MENU_SAVE_IMAGE && info.srcUrl) {
        const r = await bookmarks.saveImage(info.srcUrl, tab?.title);
        return await flashThenRestore(tab?.id, r.state, r.state === 'queued' ? t('badgeQueued') : t('badgeImageSaved'));
      }
    } catch (err) {
      await flashThenRestore(tab?.id, 'error', (err as Error).message);
    }
  }

  async function onCommand(command: string, tab?: Browser.tabs.Tab) {
    // First, before any await: the side panel opens only while the key press lasts.
    if (command === COMMAND_SIDE_PANEL) {
      await openSidePanel(tab?.windowId);
      return;
    }
    if (command === COMMAND_SAVE_PAGE) await saveTabFromShortcut(tab);
    if (command === COMMAND_HIGHLIGHT) await highlightInTab(tab, null, false);
    if (command === COMMAND_OPEN_LIBRARY) await openLibrary();
  }

  return { onMenuClicked, onCommand };
}

/** The omnibox keyword ("tm" and a space): searches the library. */
export function omniboxHandlers({ library }: Services) {
  return createOmnibox({
    search: async (search) => (await library.list({ collectionId: 0, search, sort: '', page: 0 })).items,
    open: async (url: string, disposition: OmniboxDisposition) => {
      if (url.startsWith(libraryPage())) return openLibrary(url);
      if (disposition === 'currentTab') {
        const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
        if (tab?.id !== undefined) {
          await browser.tabs.update(tab.id, { url });
          return;
        }
      }
      await browser.tabs.create({ url, active: disposition !== 'newBackgroundTab' });
    },
    libraryPage,
    markup: import.meta.env.BROWSER !== 'firefox',
  });
}
