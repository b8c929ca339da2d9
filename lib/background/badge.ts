// The saved-page badge: a check mark on tabs whose page is saved, and an icon title naming the
// collection. Answers come from the saved-link index (no request per navigation) or, until it is
// synced, from the batched url/exists check.
import { browser } from 'wxt/browser';
import { isHttpUrl } from '../api/url.js';
import { t } from '../i18n.js';

interface SavedStatus {
  saved: boolean;
  collectionId?: number;
}

interface BadgeDeps {
  enabled: () => Promise<boolean>;
  signedIn: () => Promise<boolean>;
  /** Saved or not; undefined when it cannot be known now (then the badge stays blank). */
  status: (url: string) => Promise<SavedStatus | undefined>;
  collectionTitle: (id: number) => Promise<string | null>;
}

const SAVED_BADGE = '✓';
const SAVED_COLOR = '#1f7a4d';
const NOTE_COLOR = '#5b5b66';
const ERROR_COLOR = '#b3261e';

export class BadgeService {
  /** The URL each tab's badge was last computed for: answers for an older URL are dropped. */
  #latest = new Map<number, string>();

  readonly #deps: BadgeDeps;

  constructor(deps: BadgeDeps) {
    this.#deps = deps;
  }

  async #set(tabId: number, text: string, title: string, color = SAVED_COLOR): Promise<void> {
    try {
      await Promise.all([
        browser.action.setBadgeText({ tabId, text }),
        text ? browser.action.setBadgeBackgroundColor({ tabId, color }) : Promise.resolve(),
        browser.action.setTitle({ tabId, title }),
      ]);
    } catch {
      /* the tab closed meanwhile */
    }
  }

  /** Recomputes one tab's badge. `url` is the tab's URL when the event carried it. */
  async showForTab(tabId: number, url?: string): Promise<void> {
    if (url === undefined) {
      const tab = await browser.tabs.get(tabId).catch(() => null);
      url = tab?.url;
    }
    if (!url) {
      // Without the "tabs" permission the URL of an inactive page is not visible: leave it blank.
      return;
    }
    this.#latest.set(tabId, url);
    if (!(await this.#deps.enabled()) || !(await this.#deps.signedIn()) || !isHttpUrl(url)) {
      await this.#set(tabId, '', t('actionTitle'));
      return;
    }
    const status = await this.#deps.status(url);
    if (this.#latest.get(tabId) !== url) return; // navigated again meanwhile
    if (status?.saved) {
      const where = status.collectionId !== undefined ? await this.#deps.collectionTitle(status.collectionId) : null;
      await this.#set(tabId, SAVED_BADGE, where ? t('badgeSavedIn', where) : t('badgeSaved'));
    } else {
      await this.#set(tabId, '', t('actionTitle'));
    }
  }

  /** Recomputes every open tab (after a sync, a save, sign-in/out, the setting changing). */
  async refreshAll(): Promise<void> {
    const tabs = await browser.tabs.query({}).catch(() => []);
    await Promise.all(tabs.filter((tab) => tab.id !== undefined).map((tab) => this.showForTab(tab.id!, tab.url)));
  }

  /** Brief feedback after a save from the context menu or the keyboard. */
  async flash(tabId: number, outcome: 'saved' | 'queued' | 'exists' | 'error', title: string): Promise<void> {
    const text = outcome === 'error' ? '!' : outcome === 'queued' ? '…' : SAVED_BADGE;
    const color = outcome === 'error' ? ERROR_COLOR : outcome === 'queued' ? NOTE_COLOR : SAVED_COLOR;
    await this.#set(tabId, text, title, color);
  }

  forget(tabId: number): void {
    this.#latest.delete(tabId);
  }
}
