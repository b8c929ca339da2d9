// Chromium with the built extension loaded (new headless mode supports extensions), and the ways a
// test reaches the extension: its service worker, its real popup (chrome.action.openPopup() from the
// worker, then found over CDP), its options page, and stopping the worker like the browser does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../playwright.config.js';
import { EXTENSION_ID } from '../../../lib/api/extension-identity.js';

/** The ExtensionBrowser of each launched context (the stuck-page diagnosis finds its browser from a page). */
const launched = new WeakMap<BrowserContext, ExtensionBrowser>();

export class ExtensionBrowser {
  private cdp: Browser | null = null;

  /** The ExtensionBrowser that launched `context`, if one did. */
  static of(context: BrowserContext): ExtensionBrowser | undefined {
    return launched.get(context);
  }

  private constructor(
    readonly context: BrowserContext,
    readonly userDataDir: string,
    readonly debugPort: number,
    private readonly toolbarButton: boolean,
  ) {}

  /**
   * `alsoLoad`: more unpacked extensions in the same browser (the bench's baseline popup).
   * `toolbarButton`: lets `clickToolbarButton` press the extension's real button (CDP needs
   * --enable-unsafe-extension-debugging for Extensions.triggerAction). `args`: more Chromium switches.
   */
  static async launch(
    extensionDir: string,
    opts: { alsoLoad?: string[]; toolbarButton?: boolean; args?: string[] } = {},
  ): Promise<ExtensionBrowser> {
    const extensions = [extensionDir, ...(opts.alsoLoad ?? [])].join(',');
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
      headless: true,
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        `--disable-extensions-except=${extensions}`,
        `--load-extension=${extensions}`,
        // Port 0: Chromium takes a free port itself and writes it to DevToolsActivePort (read below).
        // A port picked beforehand could be taken by another process before Chromium binds it; Chromium
        // then listens on [::1] instead, and connecting to 127.0.0.1 is refused.
        '--remote-debugging-port=0',
        ...(opts.toolbarButton ? ['--enable-unsafe-extension-debugging'] : []),
        ...(opts.args ?? []),
        ...chromiumLogArgs(),
      ],
    });
    let debugPort: number;
    try {
      debugPort = await devToolsPort(userDataDir);
    } catch (err) {
      await context.close();
      throw err;
    }
    const b = new ExtensionBrowser(context, userDataDir, debugPort, !!opts.toolbarButton);
    launched.set(context, b);
    await b.worker();
    return b;
  }

  get extensionId(): string {
    return EXTENSION_ID;
  }

  url(file: string): string {
    return `chrome-extension://${EXTENSION_ID}/${file}`;
  }

  private closed = new WeakSet<Worker>();

  private track(w: Worker): Worker {
    w.once('close', () => this.closed.add(w));
    return w;
  }

  /** The running service worker (waiting for it when it is starting). */
  async worker(): Promise<Worker> {
    const live = this.context
      .serviceWorkers()
      .find((w) => w.url().startsWith(`chrome-extension://${EXTENSION_ID}/`) && !this.closed.has(w));
    if (live) return this.track(live);
    return this.track(await this.context.waitForEvent('serviceworker', { timeout: 15_000 }));
  }

  /** Runs `fn` in the service worker. */
  async inWorker<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
    const w = await this.worker();
    return w.evaluate(fn as never, arg as never) as Promise<T>;
  }

  /** The content scripts the extension registered (chrome.scripting), with the pages they match. */
  async registeredScripts(): Promise<{ id: string; matches: string[] }[]> {
    return this.inWorker(async () => {
      const scripts = (await (globalThis as any).chrome.scripting.getRegisteredContentScripts()) as { id: string; matches?: string[] }[];
      return scripts.map((s) => ({ id: s.id, matches: s.matches ?? [] }));
    });
  }

  /** Runs the handler of alarm `name` now: the same function the alarm listener calls. */
  async fireAlarm(name: string): Promise<void> {
    await this.inWorker((n) => (globalThis as any).tidemark.onAlarm({ name: n, scheduledTime: Date.now() }), name);
  }

  async options(): Promise<Page> {
    const page = await this.context.newPage();
    await page.goto(this.url('options.html'));
    return page;
  }

  /** Signs in on the options page with a pasted test token ("Advanced"). */
  async signInWithTestToken(serverOrigin: string, token: string): Promise<void> {
    const options = await this.options();
    await options.getByLabel('Server URL').fill(serverOrigin);
    await options.getByText('Advanced: paste a test token').click();
    await options.getByLabel('Test token').fill(token);
    await options.getByRole('button', { name: 'Use token' }).click();
    await options.getByRole('status').filter({ hasText: 'Signed in as' }).waitFor();
    await options.close();
  }

  private async cdpBrowser(): Promise<Browser> {
    this.cdp ??= await chromium.connectOverCDP(`http://127.0.0.1:${this.debugPort}`, { timeout: 10_000 });
    return this.cdp;
  }

  /** Opens the real toolbar popup for the active tab of `page`, and returns it (reached over CDP). */
  async openPopup(page: Page): Promise<Page> {
    // A popup left open by an earlier step may still be listed while it closes: close it first, so
    // the page found below is the new one.
    await this.closePopups();
    await this.focus(page);
    await this.inWorker(() => (globalThis as unknown as { chrome: { action: { openPopup(): Promise<void> } } }).chrome.action.openPopup());
    return this.openPopupPage();
  }

  /** Makes `page` the active tab (openPopup() opens the popup of the focused window's active tab). */
  async focus(page: Page): Promise<void> {
    // bringToFront can stall while a popup window is closing; the tab is usually active already.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([page.bringToFront(), new Promise<void>((resolve) => (timer = setTimeout(resolve, 3000)))]);
    clearTimeout(timer);
  }

  /** Closes every open popup page of the extension (found over CDP). */
  async closePopups(): Promise<void> {
    // Teardown: already closed is fine.
    await this.cdp?.close().catch(() => {});
    this.cdp = null;
    const cdp = await this.cdpBrowser();
    for (const ctx of cdp.contexts()) {
      for (const p of ctx.pages()) {
        // Teardown: already closed is fine.
        if (p.url().includes(EXTENSION_ID) && p.url().endsWith('/popup.html')) await p.close().catch(() => {});
      }
    }
  }

  /**
   * Presses the extension's real toolbar button on `page`'s tab and returns the popup that opens.
   * CDP's Extensions.triggerAction runs the action as a click does: the popup opens and the
   * extension gets activeTab for the tab (chrome.action.openPopup() from the worker grants nothing).
   */
  async clickToolbarButton(page: Page): Promise<Page> {
    if (!this.toolbarButton) throw new Error('Launch with { toolbarButton: true } to press the toolbar button.');
    const browser = this.context.browser();
    if (!browser) throw new Error('No browser connection to send Extensions.triggerAction on.');
    await this.closePopups();
    await this.focus(page);
    const session = await browser.newBrowserCDPSession();
    try {
      const { targetInfos } = (await session.send('Target.getTargets', { filter: [{ type: 'tab' }] } as never)) as {
        targetInfos: { targetId: string; type: string; url: string; embedderData?: { tabActive?: boolean } }[];
      };
      // `page` was just brought to the front: the active tab with its address.
      const tabs = targetInfos.filter((t) => t.type === 'tab' && t.url === page.url() && t.embedderData?.tabActive);
      if (tabs.length !== 1) throw new Error(`Expected one active tab at ${page.url()}, found ${tabs.length}.`);
      await session.send('Extensions.triggerAction' as never, { id: EXTENSION_ID, targetId: tabs[0].targetId } as never);
    } finally {
      // Teardown: already closed is fine.
      await session.detach().catch(() => {});
    }
    return this.openPopupPage();
  }

  /** The open popup page, found over CDP (a fresh connection each time: an older one is not told about new popups). */
  async openPopupPage(file = '/popup.html'): Promise<Page> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      // Teardown: already closed is fine.
      await this.cdp?.close().catch(() => {});
      this.cdp = null;
      const cdp = await this.cdpBrowser();
      for (const ctx of cdp.contexts()) {
        const popup = ctx.pages().find((p) => p.url().endsWith(file) && (file !== '/popup.html' || p.url().includes(EXTENSION_ID)));
        if (popup) {
          await popup.waitForLoadState('domcontentloaded');
          return popup;
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('The popup did not open.');
  }

  /** A page (tab or window) whose URL starts with `prefix`, waiting for it to appear. */
  async waitForPage(prefix: string, timeoutMs = 10_000): Promise<Page> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const page = this.context.pages().find((p) => p.url().startsWith(prefix));
      if (page) return page;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`No page at ${prefix} appeared.`);
  }

  /** Stops the extension's service worker, as the browser does when it is idle, and waits until it is gone. */
  async stopWorker(): Promise<void> {
    await this.worker(); // running now, so that its stop is reported
    // ServiceWorker.* is a page-target domain: use an open page's session. (Opening or closing a tab
    // for it would fire tab events, which wake the worker straight away.)
    const page = this.context.pages().find((p) => !p.url().startsWith('chrome-extension:')) ?? this.context.pages()[0];
    const client = await this.context.newCDPSession(page);
    const stopped = new Promise<void>((resolve) =>
      client.on('ServiceWorker.workerVersionUpdated', (e: { versions: { scriptURL: string; runningStatus: string }[] }) => {
        const mine = e.versions.filter((v) => v.scriptURL.includes(EXTENSION_ID));
        if (mine.length && mine.every((v) => v.runningStatus === 'stopped')) resolve();
      }),
    );
    await client.send('ServiceWorker.enable');
    await client.send('ServiceWorker.stopAllWorkers');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('The service worker did not stop.')), 10_000);
    });
    try {
      await Promise.race([stopped, timeout]);
    } finally {
      clearTimeout(timer);
    }
    await client.detach();
  }

  /** Whether the extension's service worker is running now (asked from the browser's target list). */
  async workerRunning(): Promise<boolean> {
    const targets = (await (await fetch(`http://127.0.0.1:${this.debugPort}/json/list`)).json()) as { type: string; url: string }[];
    return targets.some((t) => t.type === 'service_worker' && t.url.includes(EXTENSION_ID));
  }

  /** The badge text and title the toolbar button shows for a tab. */
  async badgeOf(tabUrl: string): Promise<{ text: string; title: string }> {
    return this.inWorker(async (url) => {
      const c = (globalThis as unknown as { chrome: any }).chrome;
      const tab = (await c.tabs.query({})).find((t: { url?: string }) => t.url === url);
      if (!tab) throw new Error(`No tab with ${url}`);
      return { text: await c.action.getBadgeText({ tabId: tab.id }), title: await c.action.getTitle({ tabId: tab.id }) };
    }, tabUrl);
  }

  async close(): Promise<void> {
    // Teardown: already closed is fine.
    await this.cdp?.close().catch(() => {});
    // Teardown: already closed is fine.
    await this.context.close().catch(() => {});
    fs.rmSync(this.userDataDir, { recursive: true, force: true });
  }
}

/** With TIDEMARK_E2E_CHROMIUM_LOG=<dir>: Chromium logs verbosely to a file of its own in that folder. */
function chromiumLogArgs(): string[] {
  const dir = process.env.TIDEMARK_E2E_CHROMIUM_LOG;
  if (!dir) return [];
  fs.mkdirSync(dir, { recursive: true });
  return ['--enable-logging', `--log-file=${path.join(path.resolve(dir), `chromium-${Date.now()}-${process.pid}.log`)}`, '--v=1'];
}

/** The DevTools port Chromium listens on: the first line of DevToolsActivePort in its profile, written once it listens. */
async function devToolsPort(userDataDir: string): Promise<number> {
  const file = path.join(userDataDir, 'DevToolsActivePort');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const port = fs.existsSync(file) ? Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0], 10) : NaN;
    if (port > 0) return port;
    if (Date.now() > deadline) throw new Error(`Chromium wrote no DevTools port to ${file} within 10 s.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
