// Automatic painting and its optional host permission, in Chromium with the built extension against
// the real server. The saved page is on 127.0.0.1, a host the extension may not read by itself (its
// only host is localhost): without the permission nothing runs there until the toolbar button is
// clicked (activeTab; pressed for real with CDP Extensions.triggerAction, see ExtensionBrowser.clickToolbarButton).
// The popup then asks once, with an explanation, whether to paint automatically.
//
// Headless Chromium cannot answer the permission prompt: chrome.permissions.request() from a real
// click shows it and stays pending for ever. But Chromium shows no prompt for hosts the user already
// allowed the extension on chrome://extensions ("Site access"), and resolves the request as granted.
// So the "Allow" test grants site access there first (chrome.developerPrivate.addHostPermission, the
// call that page makes), then presses Allow: the request, permissions.onAdded, the loader's
// registration and the painting on load all run for real. Only the prompt dialog is not exercised.
import { expect, test, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { painted, phraseBox, saveWithHighlights } from './helpers/highlighting.js';
import { decodePng, shareOf } from './fixtures/anchoring/harness.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

const Q = {
  first: 'the pilot boat went out to meet the freighter',
  second: 'ropes were thrown and the tugs took over',
};
const BODY = `<style>body { font: 20px/1.6 sans-serif; margin: 24px; }</style>
<p>At six ${Q.first} beyond the breakwater.</p>
<p>Inside the harbour ${Q.second} for the last mile.</p>`;
const EXPLANATION = 'Allow Tidemark to read the sites you visit?';
const EXPECTED = { green: [Q.first], orange: [Q.second] };
let server: TidemarkServer;
let site: TestSite;
let token: string;
let url: string;
/** The same page, with its first highlight stored as a slightly different text (it needs approximate anchoring). */
let changedUrl: string;

test.describe.configure({ mode: 'serial' });

const signedInBrowser = () => launchSignedIn(server, token, { toolbarButton: true });

const granted = (b: ExtensionBrowser) =>
  b.inWorker(() => (globalThis as any).chrome.permissions.contains({ origins: ['http://*/*', 'https://*/*'] }) as Promise<boolean>);
const registeredFor = async (b: ExtensionBrowser) => (await b.registeredScripts()).flatMap((s) => s.matches).sort();

/** Opens the popup with the toolbar button and waits for its summary of the page's highlights. */
async function popupWithList(b: ExtensionBrowser, tab: Page): Promise<Page> {
  const popup = await b.clickToolbarButton(tab);
  await expect(popup.getByTestId('highlight-summary')).toHaveText('2 highlights');
  return popup;
}

/**
 * Loads the page (on 127.0.0.1, a host the extension may not read by itself). What would paint it
 * without a click is the loader, registered for the hosts the extension may read: it is not registered
 * for this one, so nothing of the extension's runs in the page.
 */
async function openSaved(b: ExtensionBrowser, tab?: Page): Promise<Page> {
  const page = tab ?? (await b.context.newPage());
  await page.goto(url);
  expect(await registeredFor(b)).toEqual(['http://localhost/*']);
  return page;
}

/**
 * The background's injection of one part's script fails from now on (as when the page navigates or the
 * browser refuses it); everything else is injected as usual. Gives a new tab and its console errors.
 */
async function refusingInjectionOf(b: ExtensionBrowser, part: string): Promise<{ tab: Page; errors: string[] }> {
  await b.inWorker((name) => {
    const scripting = (globalThis as any).chrome.scripting;
    const inject = scripting.executeScript.bind(scripting);
    scripting.executeScript = (options: { files?: string[] }) =>
      options.files?.some((f) => f.includes(name)) ? Promise.reject(new Error(`Could not inject ${name}.js (refused by the test).`)) : inject(options);
  }, part);
  const tab = await b.context.newPage();
  const errors: string[] = [];
  tab.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  return { tab, errors };
}

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'permission@example.test', name: 'Per Mission' }));
  site.add('/pilot', { title: 'The pilot boat', body: BODY });
  url = `http://127.0.0.1:${new URL(site.origin).port}/pilot`;
  await saveWithHighlights(server, token, url, [
    { text: Q.first, color: 'green', note: 'call the harbour office' },
    { text: Q.second, color: 'orange' },
  ]);
  site.add('/pilot-changed', { title: 'The pilot boat, changed', body: BODY });
  changedUrl = `http://127.0.0.1:${new URL(site.origin).port}/pilot-changed`;
  await saveWithHighlights(server, token, changedUrl, [
    { text: Q.first.replace('freighter', 'freightr'), color: 'green' },
    { text: Q.second, color: 'orange' },
  ]);
});

test.afterAll(() => closeAll(site, server));

test('without the permission nothing paints by itself; the toolbar click paints and asks once, with an explanation; "Not now" is remembered', async () => {
  const b = await signedInBrowser();
  try {
    expect(await granted(b)).toBe(false);
    expect(await registeredFor(b)).toEqual(['http://localhost/*']);
    const tab = await openSaved(b);
    expect(await painted(tab)).toEqual({});

    const popup = await popupWithList(b, tab);
    await expect.poll(() => painted(tab)).toEqual(EXPECTED);
    // The page had no ::highlight() rules from its start: the painter added its own, scoped to the
    // elements whose text is highlighted (marked), so adding them restyled no other element; the
    // colour is on screen.
    expect(await tab.evaluate(() => [...document.querySelectorAll('[data-tidemark-hl]')].map((e) => e.localName))).toEqual(['p', 'p']);
    const { middle } = await phraseBox(tab, Q.first);
    const shot = decodePng(await tab.screenshot({ clip: { x: middle.x - 30, y: middle.y - 6, width: 60, height: 12 } }));
    expect(shareOf(shot, ([r, g, bl]) => g > r + 12 && g > bl + 12)).toBeGreaterThan(0.3);
    await tab.screenshot({ path: test.info().outputPath('clicked-page-painted.png') });
    await expect(popup.getByText(EXPLANATION)).toBeVisible();
    await expect(popup.getByText('Tidemark only sends a page to your server when you save or highlight it')).toBeVisible();
    await popup.getByRole('button', { name: 'Not now' }).click();
    await expect(popup.getByText(EXPLANATION)).toBeHidden();
    await popup.close();

    // Still not automatic, and not asked again.
    await openSaved(b, tab);
    expect(await painted(tab)).toEqual({});
    const again = await popupWithList(b, tab);
    await expect.poll(() => painted(tab)).toEqual(EXPECTED);
    await expect(again.getByRole('button', { name: 'Allow' })).toHaveCount(0);
    await expect(again.getByText(EXPLANATION)).toHaveCount(0);
    await again.close();
    expect(await granted(b)).toBe(false);
  } finally {
    await b.close();
  }
});

test('where the painter\'s scope-marks script cannot be injected, the toolbar click still paints the saved highlights (unscoped sheet, nothing marked) and the failure is logged', async () => {
  const b = await signedInBrowser();
  try {
    const { tab, errors } = await refusingInjectionOf(b, 'highlighter-scope-marks');
    await openSaved(b, tab);
    const popup = await popupWithList(b, tab);
    await expect.poll(() => painted(tab)).toEqual(EXPECTED);
    expect(await tab.evaluate(() => document.querySelectorAll('[data-tidemark-hl]').length)).toBe(0);
    const { middle } = await phraseBox(tab, Q.first);
    const shot = decodePng(await tab.screenshot({ clip: { x: middle.x - 30, y: middle.y - 6, width: 60, height: 12 } }));
    expect(shareOf(shot, ([r, g, bl]) => g > r + 12 && g > bl + 12)).toBeGreaterThan(0.3);
    await expect.poll(() => errors.join('\n')).toContain('highlighter-scope-marks.js');
    await popup.close();
  } finally {
    await b.close();
  }
});

test('where approximate anchoring cannot be injected, the highlights found verbatim are still painted and the failure is logged', async () => {
  const b = await signedInBrowser();
  try {
    const { tab, errors } = await refusingInjectionOf(b, 'highlighter-approximate');
    await tab.goto(changedUrl);
    const popup = await b.clickToolbarButton(tab);
    // The popup says what the page shows; the console says why and what to do.
    await expect(popup.getByTestId('highlight-summary')).toHaveText('2 highlights, 1 not found');
    await expect.poll(() => painted(tab)).toEqual({ orange: [Q.second] });
    await expect.poll(() => errors.join('\n')).toContain('could not load its search for changed text; reload the page');
    await popup.close();
  } finally {
    await b.close();
  }
});

test('when the page navigates in place after the extension was reloaded, the failed repaint is logged and the page keeps its highlights', async () => {
  const b = await signedInBrowser();
  try {
    const tab = await openSaved(b);
    const errors: string[] = [];
    tab.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    const popup = await popupWithList(b, tab);
    await expect.poll(() => painted(tab)).toEqual(EXPECTED);
    await popup.close();
    // Reloading the extension (an update does the same) cuts the page's highlighter off from the background.
    await b.inWorker(() => (globalThis as any).chrome.runtime.reload()).catch(() => {
      // The worker goes away while answering: expected.
    });
    // An SPA navigation: the highlighter asks the background for the new address's highlights.
    await tab.evaluate(() => {
      history.pushState({}, '', '/pilot?page=2');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => errors.join('\n')).toContain('Tidemark could not repaint the highlights; reload the page.');
    expect(await painted(tab)).toEqual(EXPECTED);
  } finally {
    await b.close();
  }
});

test('"Allow": the permission is granted and saved pages paint on load, without any click; the question is not asked again', async () => {
  const b = await signedInBrowser();
  try {
    // The user's site-access grant on chrome://extensions (see the top of this file). It is not the
    // permission itself: the extension still cannot read other hosts until it asks.
    const extensions = await b.context.newPage();
    await extensions.goto('chrome://extensions/');
    const error = await extensions.evaluate(
      (id) =>
        new Promise<string>((resolve) =>
          (globalThis as any).chrome.developerPrivate.addHostPermission(id, '*://*/*', () => resolve((globalThis as any).chrome.runtime.lastError?.message ?? '')),
        ),
      b.extensionId,
    );
    expect(error).toBe('');
    await extensions.close();
    expect(await granted(b)).toBe(false);

    const tab = await openSaved(b);
    expect(await painted(tab)).toEqual({});
    const popup = await popupWithList(b, tab);
    await expect(popup.getByText(EXPLANATION)).toBeVisible();
    await popup.getByRole('button', { name: 'Allow' }).click();
    await expect(popup.getByText(EXPLANATION)).toBeHidden();
    await expect.poll(() => granted(b)).toBe(true);
    // permissions.onAdded / the popup's answer: the small loader now runs on every http(s) page.
    await expect.poll(() => registeredFor(b)).toEqual(['http://*/*', 'http://localhost/*', 'https://*/*']);
    await popup.close();

    // A new tab with the saved page, and the first one reloaded: painted, nobody clicked anything.
    const other = await b.context.newPage();
    await other.goto(url);
    await expect.poll(() => painted(other), { timeout: 10_000 }).toEqual(EXPECTED);
    await tab.reload();
    await expect.poll(() => painted(tab), { timeout: 10_000 }).toEqual(EXPECTED);

    const again = await popupWithList(b, other);
    await expect(again.getByText(EXPLANATION)).toHaveCount(0);
    await again.close();
  } finally {
    await b.close();
  }
});
