// The highlighter in pages (injecting it and its parts, its highlights) and the side panel's list.
import type { Browser } from 'wxt/browser';
import { emit } from '../../messaging/client.js';
import type { Handlers } from '../../messaging/router.js';
import { autoPaintAskedItem } from '../../storage/items.js';
import { injectHighlighter, injectHighlighterPart, tabCommand } from '../highlighter-injection.js';
import { syncLoaderRegistration } from '../highlighter-registration.js';
import { panelState } from '../panel.js';
import { reportError } from '../report-error.js';
import type { Services } from './services.js';
import type { PanelOpening } from './side-panel.js';

type HighlightMessages =
  | 'loadHighlighter'
  | 'loadHighlighterPart'
  | 'pageHighlights'
  | 'addHighlight'
  | 'changeHighlight'
  | 'removeHighlight'
  | 'editHighlightNote'
  | 'listHighlights'
  | 'setHighlightNote'
  | 'showHighlight'
  | 'panelState'
  | 'setHighlightColor'
  | 'deleteHighlight'
  | 'restoreHighlight'
  | 'openSidePanel'
  | 'autoPaintAnswered';

/** The page a content script is on: the tab's address for the top frame (it follows SPA navigations; the sender's URL does not). */
const senderPage = (sender: Browser.runtime.MessageSender) => ((sender.frameId ?? 0) === 0 && sender.tab?.url) || sender.url || '';

/** Tells the side panel and the popup that a tab's highlights changed, once the change is done. */
function changed<T>(tabId: number | null, done: Promise<T>): Promise<T> {
  return done.then((value) => {
    emit('highlightsChanged', { tabId });
    return value;
  });
}

export function highlightHandlers({ account, bookmarks, highlights, pagePrefetch }: Services, panel: PanelOpening): Pick<Handlers, HighlightMessages> {
  return {
    loadHighlighter: async ({ paint }, sender) => {
      // On load: only saved pages get the highlighter (to paint); a selection always gets it.
      const url = senderPage(sender);
      if (paint && !(await highlights.maybeSaved(url))) return null;
      // To paint, its first request is this page's highlights: asked now, while it is being injected.
      if (paint) pagePrefetch.start(sender.tab!.id!, sender.frameId ?? 0, url, () => highlights.page(url));
      await injectHighlighter(sender.tab!.id!, sender.frameId ?? 0);
      return null;
    },
    // The highlighter already runs in that frame (it asks): one of its on-demand parts.
    loadHighlighterPart: async ({ part }, sender) => {
      await injectHighlighterPart(sender.tab!.id!, sender.frameId ?? 0, part);
      return null;
    },
    pageHighlights: async (_data, sender) => {
      const url = senderPage(sender);
      return highlights.view(await (pagePrefetch.take(sender.tab?.id ?? -1, sender.frameId ?? 0, url) ?? highlights.page(url)));
    },
    addHighlight: (data, sender) => changed(sender.tab!.id!, highlights.add(sender.tab!.id!, senderPage(sender), data)),
    changeHighlight: async ({ key, color }, sender) =>
      changed(sender.tab!.id!, highlights.change(senderPage(sender), key, { color }).then((page) => highlights.view(page))),
    removeHighlight: async ({ key }, sender) =>
      changed(sender.tab!.id!, highlights.remove(senderPage(sender), key).then((page) => highlights.view(page))),
    // An open panel re-reads the list and opens that note.
    editHighlightNote: ({ key }, sender) => changed(sender.tab?.id ?? null, highlights.editNote(key, panel.take())),
    listHighlights: ({ tabId }) => highlights.list(tabId),
    setHighlightNote: ({ tabId, key, note }) => changed(tabId, highlights.setNote(tabId, key, note)),
    showHighlight: ({ tabId, key }) => tabCommand(tabId, 'show', { key }),
    panelState: ({ tabId }) =>
      panelState(tabId, { account, openForTab: (id, opts) => bookmarks.openForTab(id, opts), listHighlights: (id) => highlights.list(id) }),
    setHighlightColor: ({ tabId, key, color }) => changed(tabId, highlights.recolorInTab(tabId, key, color)),
    deleteHighlight: ({ tabId, key }) => changed(tabId, highlights.removeInTab(tabId, key)),
    restoreHighlight: ({ tabId, key }) => changed(tabId, highlights.restoreInTab(tabId, key)),
    openSidePanel: async () => ({ opened: await panel.take() }),
    autoPaintAnswered: async ({ granted }) => {
      await autoPaintAskedItem.setValue(true);
      if (granted) await syncLoaderRegistration().catch(reportError('highlighter registration'));
      return null;
    },
  };
}
