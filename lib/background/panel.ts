// What the side panel shows for the tab it follows: the same answers the popup gets (the page's
// bookmark, or why there is none) plus the page's highlights. Never creates a bookmark: the panel
// offers a Save button instead.
import { browser } from 'wxt/browser';
import { isHttpUrl } from '../api/url.js';
import { t } from '../i18n.js';
import type { Account } from '../model.js';
import type { HighlightListView, PanelView, PopupOpenResult } from '../messaging/protocol.js';
import { signedOutReasonItem } from '../storage/items.js';
import { isClosedPage } from './bookmarks.js';

interface PanelDeps {
  account: () => Promise<Account | null>;
  openForTab: (tabId: number, opts: { create: boolean }) => Promise<PopupOpenResult>;
  listHighlights: (tabId: number) => Promise<HighlightListView>;
}

const NO_HIGHLIGHTS: HighlightListView = { found: [], notFound: [], askAutoPaint: false, editNoteOf: null };

export async function panelState(tabId: number, deps: PanelDeps): Promise<PanelView> {
  if (!(await deps.account())) return { state: 'signed-out', reason: await signedOutReasonItem.getValue() };
  const tab = await browser.tabs.get(tabId).catch(() => null);
  if (!tab) return { state: 'unsupported', reason: t('errorNoTab') };
  // No address: a browser page, or a site the user has not let Tidemark read (the panel offers that).
  if (!tab.url) return { state: 'no-access', reason: t('panelNoAccess'), canAsk: true };
  if (!isHttpUrl(tab.url)) return { state: 'unsupported', reason: t(isClosedPage(tab.url) ? 'errorPageCannotBeSaved' : 'errorNotWebPage') };
  const opened = await deps.openForTab(tabId, { create: false });
  if (opened.state !== 'saved') return opened;
  const highlights = await deps.listHighlights(tabId).catch(() => NO_HIGHLIGHTS);
  return { state: 'saved', bookmark: opened.bookmark, offline: !!opened.offline || opened.queued, partial: !!opened.partial, highlights };
}
