// The long page of bench/anchoring (a generated API reference, 1.1M characters of text) open in
// Chromium with the built extension, signed in to the real server on loopback, with highlights saved
// as another device would have and painted by the highlighter (the click path: the reader's selection
// injects it). Shared by the live-page benches (page-changes.ts, highlight-command.ts).
import type { Page } from '@playwright/test';
import { buildApiScenario } from '../../tests/anchoring/fixtures/api-reference.js';
import { renderPage } from '../../tests/anchoring/fixtures/article-model.js';
import { ExtensionBrowser } from '../../tests/e2e/helpers/extension-browser.js';
import { dragSelect, painted } from '../../tests/e2e/helpers/highlighting.js';
import { describeSpansInPage } from '../../tests/e2e/helpers/describe-spans.js';
import { TestSite } from '../../tests/e2e/helpers/test-pages.js';
import { TidemarkServer } from '../../tests/e2e/helpers/tidemark-server.js';

export const countPainted = async (page: Page) => Object.values(await painted(page)).reduce((n, texts) => n + texts.length, 0);

export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const bodyOf = (blocks: Parameters<typeof renderPage>[0]) => renderPage(blocks, 'Store API reference').replace(/^[\s\S]*<body>|<\/body>[\s\S]*$/g, '');

/** The generated reference's HTML body (and its edited version's) and its highlights' spans (tests/anchoring/fixtures). */
export function longPageScenario() {
  const scenario = buildApiScenario(1, 1_100_000);
  return { html: bodyOf(scenario.original), editedHtml: bodyOf(scenario.edited), spans: scenario.highlights as unknown[] };
}

/** The real server and a test site on loopback, Chromium with the built extension, signed in. */
export interface ExtensionSession {
  server: TidemarkServer;
  site: TestSite;
  browser: ExtensionBrowser;
  token: string;
  close(): Promise<void>;
}

export async function startExtensionSession(extensionDir: string): Promise<ExtensionSession> {
  const [server, site] = await Promise.all([TidemarkServer.start(), TestSite.start()]);
  const browser = await ExtensionBrowser.launch(extensionDir);
  const close = async () => {
    await browser.close();
    await site.close();
    await server.close();
  };
  try {
    // Functions passed to the page from here carry tsx's __name helper (keepNames), which pages lack.
    await browser.context.addInitScript('globalThis.__name ??= (f) => f;');
    const { token } = await server.createUser('live@example.test', 'correct horse battery', 'Live Page');
    await browser.signInWithTestToken(server.origin, token);
    return { server, site, browser, token, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Saves `url` as a bookmark with `descriptors` as its highlights (in four colours), as another device would have. */
export async function saveHighlights(session: ExtensionSession, url: string, descriptors: readonly object[]): Promise<void> {
  const { server, token } = session;
  const created = await server.api('POST', '/bookmark', token, { link: url, title: 'Store API reference', collectionId: -1 });
  if (created.status !== 200) throw new Error(`saving ${url}: HTTP ${created.status}`);
  const put = await server.api('PUT', `/bookmark/${created.body.item._id}`, token, { highlights: descriptors.map((d, i) => ({ ...d, color: ['yellow', 'green', 'blue', 'red'][i % 4] })) });
  if (put.status !== 200) throw new Error(`saving the highlights of ${url}: HTTP ${put.status}`);
}

export interface LongPageSession extends ExtensionSession {
  /** The page, its `saved` highlights painted, idle. */
  page: Page;
  url: string;
}

export interface LongPageOptions {
  /** Where the page is served. */
  path?: string;
  /** The page the highlights were made on, when another (they are described there). */
  madeOn?: string;
  /** How many are painted once done (default: all of them). */
  painted?: number;
}

/** Opens the page with the first `saved` spans saved as highlights and painted. */
export async function openLongPage(extensionDir: string, html: string, spans: readonly unknown[], saved: number, options: LongPageOptions = {}): Promise<LongPageSession> {
  const { path = '/live-reference', madeOn, painted: expected = saved } = options;
  const session = await startExtensionSession(extensionDir);
  const { site, browser } = session;
  try {
    const url = site.add(path, { title: 'Store API reference', body: html });
    const madeOnUrl = madeOn ? site.add(`${path}-original`, { title: 'Store API reference', body: madeOn }) : url;
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto(madeOnUrl);
    const descriptors = await describeSpansInPage(page, spans.slice(0, saved));
    if (madeOnUrl !== url) await page.goto(url);
    await saveHighlights(session, url, descriptors);
    await browser.fireAlarm('index-sync');
    await dragSelect(page, 'interface groups the methods below');
    await until('the highlights painted', async () => (await countPainted(page)) >= expected);
    await page.evaluate(() => getSelection()?.removeAllRanges());
    await page.waitForTimeout(2000); // idle: the word index built, the marks' slices done
    return { ...session, page, url };
  } catch (err) {
    await session.close();
    throw err;
  }
}
