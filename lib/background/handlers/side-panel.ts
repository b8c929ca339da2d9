// The page's toolbar asks for the side panel (a note to edit, or the panel itself). The panel can open
// only while the user's click still counts, so a listener of its own opens it synchronously, before
// the checked message handler (highlights.ts) runs; the handler answers with the outcome.
import { browser, type Browser } from 'wxt/browser';
import { openSidePanel } from '../../browser-differences.js';
import { classifySender, isEnvelope, type ExtensionIdentity } from '../../messaging/router.js';

export class PanelOpening {
  private pending: Promise<boolean> | null = null;

  /** Registers the listener that opens the panel; call at start-up, with the other listeners. */
  listen(self: () => ExtensionIdentity): void {
    browser.runtime.onMessage.addListener((message: unknown, sender: Browser.runtime.MessageSender) => {
      if (!isEnvelope(message) || (message.type !== 'openSidePanel' && message.type !== 'editHighlightNote')) return undefined;
      if (classifySender(sender, self()) === 'content') this.pending = openSidePanel(sender.tab?.windowId);
      return undefined;
    });
  }

  /** Whether the panel opened for the message being handled (false when none was opened). */
  take(): Promise<boolean> {
    const opening = this.pending ?? Promise.resolve(false);
    this.pending = null;
    return opening;
  }
}
