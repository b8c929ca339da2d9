// Debian's Firefox ESR with the built extension, driven by puppeteer-core over WebDriver BiDi (no
// downloaded browser), and the ways a test reaches the extension:
// - extension pages (options) at fixed moz-extension:// URLs (the add-on's UUID is pinned by a pref);
// - the background page, through runtime.getBackgroundPage() from an extension page ("control" tab);
// - the real toolbar button, pressed in the browser window (chrome scope, allowed by
//   --remote-allow-system-access), and the real popup it opens, reached through
//   extension.getViews({type: 'popup'}) from the control tab (the popup panel is no BiDi context, so
//   it is driven with DOM events rather than puppeteer's mouse and keyboard);
// - restarting the background the way about:debugging's "Reload" of the temporary add-on does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { browser as ExtensionApi } from 'wxt/browser';
import { FIREFOX_ADDON_ID } from '../../../lib/api/extension-identity.js';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** The moz-extension:// host of the add-on in every test profile. */
export const EXTENSION_UUID = '3f5b7c1e-2d4a-4e8b-9c6f-1a2b3c4d5e6f';
/** Firefox's widget id of an add-on (its id, lower case, other characters as "_"); its toolbar button and sidebar are named after it. */
const ADDON_WIDGET = FIREFOX_ADDON_ID.toLowerCase().replace(/[^a-z0-9_-]/g, '_');
const WIDGET_ID = `${ADDON_WIDGET}-browser-action`;
const SIDEBAR_ID = `${ADDON_WIDGET}-sidebar-action`;

/** What a function run in an extension page sees as `browser` (the WebExtension API). */
export type Ext = typeof ExtensionApi;

/** A value as JavaScript source (undefined stays undefined). */
const json = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns something other than undefined (or throws the last error at the deadline). */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
      last = undefined;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(50);
  }
}

interface BidiConnection {
  send(method: string, params: object): Promise<{ result: { type?: string; result?: { value?: unknown }; exceptionDetails?: { text: string }; contexts?: { context: string; url: string }[] } }>;
}

export class FirefoxExtension {
  private controlPage: Page | null = null;

  private constructor(
    readonly browser: Browser,
    private readonly profileDir: string,
  ) {}

  static async launch(extensionDir: string): Promise<FirefoxExtension> {
    const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-firefox-'));
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: profileDir,
      // Without it, moz-extension:// pages cannot be opened over BiDi, nor the browser window reached.
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: {
        'extensions.webextensions.uuids': JSON.stringify({ [FIREFOX_ADDON_ID]: EXTENSION_UUID }),
      },
    });
    const ff = new FirefoxExtension(browser, profileDir);
    try {
      const id = await browser.installExtension(extensionDir);
      if (id !== FIREFOX_ADDON_ID) throw new Error(`Installed add-on ${id}, expected ${FIREFOX_ADDON_ID}`);
      await ff.control();
    } catch (err) {
      await ff.close();
      throw err;
    }
    return ff;
  }

  url(file: string): string {
    return `moz-extension://${EXTENSION_UUID}/${file}`;
  }

  /**
   * Opens an extension page in a new tab. page.goto() of a moz-extension:// URL may never resolve
   * though the page loads: start the navigation and poll the page's address and readyState.
   */
  async openExtensionPage(file: string): Promise<Page> {
    const page = await this.browser.newPage();
    const url = this.url(file);
    page.goto(url).catch(() => {
      // Ignored on purpose: the navigation's promise may reject ("Frame detached") or never settle
      // while the page itself loads; the poll below is what decides.
    });
    await waitFor(`${url} to load`, async () => {
      const state = await page.evaluate(() => `${location.href} ${document.readyState}`);
      return state === `${url} complete` ? true : undefined;
    });
    return page;
  }

  /** The extension page the tests use to reach the extension's APIs (opened once, reopened after a reload). */
  async control(): Promise<Page> {
    if (this.controlPage && !this.controlPage.isClosed()) {
      const alive = await this.controlPage.evaluate(() => typeof (globalThis as { browser?: unknown }).browser === 'object').catch(() => false);
      if (alive) return this.controlPage;
    }
    this.controlPage = await this.openExtensionPage('options.html');
    return this.controlPage;
  }

  /** Runs `fn(browser, arg)` in an extension page: the extension's own APIs (tabs, action, alarms, storage...). */
  async inExtension<R, A = undefined>(fn: (ext: Ext, arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.evaluateInControl(`(${fn.toString()})(globalThis.browser, ${json(arg)})`);
  }

  /** Runs `fn(tidemark, arg)` with the background page's test hooks (the functions its listeners call). */
  async inBackground<R, A = undefined>(fn: (tidemark: BackgroundHooks, arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.evaluateInControl(`(async () => {
      const bg = await globalThis.browser.runtime.getBackgroundPage();
      if (!bg || !bg.tidemark) throw new Error('The background page is not running (or has no test hooks).');
      return (${fn.toString()})(bg.tidemark, ${json(arg)});
    })()`);
  }

  /**
   * Evaluates `expression` (awaited) in the control tab. Functions are sent as their source text in
   * one expression: the extension page's CSP forbids eval, but WebDriver's own evaluation is allowed.
   */
  async evaluateInControl<R>(expression: string): Promise<R> {
    const page = await this.control();
    return page.evaluate(expression) as Promise<R>;
  }

  /** Runs the handler of alarm `name` now: the same function the alarm listener calls. */
  async fireAlarm(name: string): Promise<void> {
    await this.inBackground((t, n) => t.onAlarm({ name: n, scheduledTime: Date.now() }), name);
  }

  private async chromeWindow(): Promise<{ send: BidiConnection['send']; context: string }> {
    const connection = (this.browser as unknown as { connection: BidiConnection }).connection;
    const tree = await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
    const win = tree.result.contexts?.find((c) => c.url === 'chrome://browser/content/browser.xhtml');
    if (!win) throw new Error('The browser window is not reachable (is --remote-allow-system-access set?).');
    return { send: (m, p) => connection.send(m, p), context: win.context };
  }

  /** Evaluates `expression` in the browser window itself (chrome scope). */
  async inBrowserWindow(expression: string): Promise<unknown> {
    const { send, context } = await this.chromeWindow();
    const { result } = await send('script.evaluate', { target: { context }, expression, awaitPromise: true });
    if (result.type === 'exception') throw new Error(`In the browser window: ${result.exceptionDetails?.text}`);
    return result.result?.value;
  }

  /**
   * Presses the extension's real toolbar button with `page` as the selected tab (the button is
   * pinned to the toolbar first, as a user does from the extensions menu), and returns the popup
   * it opens. The press grants activeTab like a click.
   */
  async pressToolbarButton(page: Page): Promise<Popup> {
    await this.closePopup();
    await page.bringToFront();
    const pageUrl = page.url();
    await waitFor('the page to be the selected tab', async () =>
      (await this.inBrowserWindow('gBrowser.selectedBrowser.currentURI.spec')) === pageUrl ? true : undefined,
    );
    await this.inBrowserWindow(`(() => {
      const id = ${JSON.stringify(WIDGET_ID)};
      if (!document.getElementById(id)) CustomizableUI.addWidgetToArea(id, CustomizableUI.AREA_NAVBAR);
      const button = document.getElementById(id)?.querySelector('toolbarbutton');
      if (!button) throw new Error('The Tidemark toolbar button is missing');
      button.click();
      return true;
    })()`);
    const popup = new Popup(this);
    await waitFor('the popup to open', async () => ((await popup.readyState()) === 'complete' ? true : undefined));
    return popup;
  }

  /**
   * Opens Tidemark's sidebar through Firefox's own sidebar UI (what choosing it in the sidebar
   * menu does) and returns it. sidebarAction.open() itself needs a user's click or key press, which
   * WebDriver cannot give an extension page.
   */
  async openSidebar(): Promise<Popup> {
    await this.inBrowserWindow(`(async () => {
      const controller = window.SidebarController ?? window.SidebarUI;
      await controller.show(${JSON.stringify(SIDEBAR_ID)});
      return true;
    })()`);
    const sidebar = new Popup(this, 'sidebar');
    await waitFor('the sidebar to open', async () => ((await sidebar.readyState()) === 'complete' ? true : undefined));
    return sidebar;
  }

  /** Closes the popup panel when one is open. */
  async closePopup(): Promise<void> {
    await this.inBrowserWindow(`(() => {
      const panel = document.getElementById('customizationui-widget-panel');
      if (panel && panel.state !== 'closed') panel.hidePopup();
      return true;
    })()`);
    await waitFor('the popup to close', async () =>
      (await this.inExtension((ext) => ext.extension.getViews({ type: 'popup' }).length)) === 0 ? true : undefined,
    );
  }

  /** The badge text and title the toolbar button shows on the active tab. */
  async badgeOfActiveTab(): Promise<{ text: string; title: string }> {
    return this.inExtension(async (ext) => {
      const [tab] = await ext.tabs.query({ active: true, currentWindow: true });
      return { text: await ext.action.getBadgeText({ tabId: tab.id }), title: await ext.action.getTitle({ tabId: tab.id }) };
    });
  }

  /**
   * Restarts the extension as about:debugging's "Reload" does for a temporary add-on
   * (runtime.reload()): the background page starts again from scratch with what is stored.
   */
  async reloadExtension(): Promise<void> {
    // The old background page is marked, so the new one is recognised.
    await this.evaluateInControl(`(async () => {
      (await globalThis.browser.runtime.getBackgroundPage()).__tidemarkBeforeReload = true;
      setTimeout(() => globalThis.browser.runtime.reload(), 0);
    })()`);
    await waitFor(
      'the background page to run again',
      async () => {
        const fresh = await this.evaluateInControl<boolean>(`(async () => {
          const bg = await globalThis.browser.runtime.getBackgroundPage();
          return !!bg && !bg.__tidemarkBeforeReload && !!bg.tidemark;
        })()`);
        return fresh ? true : undefined;
      },
      15_000,
    );
  }

  /** Signs in on the options page with a pasted test token ("Advanced"), typing as a user does. */
  async signInWithTestToken(serverOrigin: string, token: string): Promise<void> {
    const options = await this.openExtensionPage('options.html');
    await options.click('#server-url', { count: 3 });
    await options.type('#server-url', serverOrigin);
    await options.click('details summary');
    await options.type('#test-token', token);
    await options.click('::-p-text(Use token)');
    await options.waitForFunction(() => document.querySelector('[role="status"]')?.textContent?.includes('Signed in as'), { timeout: 10_000 });
    await options.close();
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {
      // Already gone (a failed launch): nothing left to close.
    });
    fs.rmSync(this.profileDir, { recursive: true, force: true });
  }
}

/** The background page's test hooks (entrypoints/background/index.ts). */
export interface BackgroundHooks {
  onMenuClicked(info: object, tab?: object): Promise<void>;
  onCommand(command: string, tab?: object): Promise<void>;
  onAlarm(alarm: { name: string; scheduledTime: number }): Promise<void>;
  indexState(): { state: string; size: number };
  /** The browser-bookmarks sync (lib/background/bookmark-sync): a pass, waited for. */
  bookmarkSync: { request(want: { pull: boolean; collections: boolean }): Promise<void>; onAlarm(): Promise<void> };
  /** The omnibox keyword's handlers (lib/background/omnibox.ts). */
  omnibox: {
    onInputChanged(text: string, suggest: (s: { content: string; description: string }[]) => void): Promise<void>;
    onInputEntered(text: string, disposition: 'currentTab' | 'newForegroundTab' | 'newBackgroundTab'): Promise<string>;
  };
}

/**
 * The open toolbar popup (or the sidebar). Its document is reached from the control tab through
 * extension.getViews({type}); interactions are DOM events (focus, input, key, click) sent
 * to the real elements, which the popup's handlers receive as they would from the user.
 */
export class Popup {
  constructor(
    private readonly ff: FirefoxExtension,
    /** Which of the extension's views this is: the toolbar popup or the sidebar. */
    readonly viewType: 'popup' | 'sidebar' = 'popup',
  ) {}

  /** Runs `fn(document, arg)` in the view's document. */
  async eval<R, A = undefined>(fn: (doc: Document, arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.ff.evaluateInControl(`(() => {
      const [view] = globalThis.browser.extension.getViews({ type: ${JSON.stringify(this.viewType)} });
      if (!view) throw new Error('No ${this.viewType} is open.');
      return (${fn.toString()})(view.document, ${json(arg)});
    })()`);
  }

  readyState(): Promise<string> {
    return this.eval((doc) => doc.readyState);
  }

  /** The text of the popup's status line (role=status). */
  status(): Promise<string> {
    return this.eval((doc) => doc.querySelector('[role="status"]')?.textContent?.trim() ?? '');
  }

  async waitForStatus(text: string, timeoutMs = 10_000): Promise<void> {
    let seen = '';
    await waitFor(
      `popup status "${text}"`,
      async () => {
        seen = await this.status();
        return seen === text ? true : undefined;
      },
      timeoutMs,
    ).catch((err: Error) => {
      throw new Error(`${err.message} (it says "${seen}")`);
    });
  }

  /** The value of the field labelled `label`. */
  value(label: string): Promise<string> {
    return this.eval((doc, l) => {
      const field = [...doc.querySelectorAll('label')].find((x) => x.textContent?.trim() === l)?.control as HTMLInputElement | null;
      const byAria = doc.querySelector(`[aria-label="${l}"]`) as HTMLInputElement | null;
      const el = field ?? byAria;
      if (!el) throw new Error(`No field labelled ${l}`);
      return el.value;
    }, label);
  }

  /** Focuses the element matching `selector`, clicks it, and types `text` into it (an input event per character). */
  async type(selector: string, text: string): Promise<void> {
    await this.eval(
      (doc, { sel, t }) => {
        const el = doc.querySelector(sel) as HTMLInputElement | null;
        if (!el) throw new Error(`No ${sel} in the popup`);
        const win = doc.defaultView!;
        el.focus();
        el.click();
        el.value = '';
        for (const ch of t) {
          el.value += ch;
          el.dispatchEvent(new win.InputEvent('input', { bubbles: true, data: ch, inputType: 'insertText' }));
        }
      },
      { sel: selector, t: text },
    );
  }

  /** A key press (keydown) on the element matching `selector`. */
  async press(selector: string, key: string): Promise<void> {
    await this.eval(
      (doc, { sel, k }) => {
        const el = doc.querySelector(sel);
        if (!el) throw new Error(`No ${sel} in the popup`);
        el.dispatchEvent(new (doc.defaultView!.KeyboardEvent)('keydown', { key: k, bubbles: true, cancelable: true }));
      },
      { sel: selector, k: key },
    );
  }

  /** Clicks the option whose text is `name` in the listbox open now (waiting for it to be listed). */
  async chooseOption(name: string | RegExp): Promise<void> {
    const pattern = typeof name === 'string' ? { s: name } : { re: name.source };
    await waitFor(`option ${String(name)}`, () =>
      this.eval((doc, p) => {
        const options = [...doc.querySelectorAll('[role="option"]')] as HTMLElement[];
        const hit = options.find((o) => (p.s !== undefined ? o.textContent?.trim() === p.s : new RegExp(p.re!).test(o.textContent ?? '')));
        if (!hit) return undefined;
        hit.dispatchEvent(new (doc.defaultView!.MouseEvent)('mousedown', { bubbles: true, cancelable: true }));
        hit.click();
        return true;
      }, pattern as { s?: string; re?: string }),
    );
  }

  /**
   * A PNG of the popup (or sidebar) as Firefox renders it (neither is a BiDi context, so the
   * window's own drawSnapshot of its browser element is used). For looking at, not asserting.
   */
  async screenshot(file: string): Promise<void> {
    const dataUrl = (await this.ff.inBrowserWindow(`(async () => {
      const page = ${JSON.stringify(this.viewType === 'popup' ? '/popup.html' : '/sidepanel.html')};
      // The popup's browser is in the window; the sidebar's inside the sidebar's own chrome document.
      const docs = [document, document.getElementById('sidebar')?.contentDocument].filter(Boolean);
      const b = docs.flatMap((d) => [...d.querySelectorAll('browser')]).find((x) => x.currentURI && x.currentURI.spec.endsWith(page));
      if (!b) throw new Error('No ${this.viewType} is open.');
      const bitmap = await b.browsingContext.currentWindowGlobal.drawSnapshot(null, 2, 'white');
      const canvas = document.createElementNS('http://www.w3.org/1999/xhtml', 'canvas');
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      canvas.getContext('2d').drawImage(bitmap, 0, 0);
      return canvas.toDataURL('image/png');
    })()`)) as string;
    fs.writeFileSync(file, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
  }

  /** The popup's whole text (textContent: innerText would give headings in their CSS upper case). */
  text(): Promise<string> {
    return this.eval((doc) => doc.body.textContent ?? '');
  }
}
