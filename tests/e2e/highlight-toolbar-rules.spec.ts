// When the selection toolbar must stay away, and the Copy action over a highlight, in Chromium with
// the built extension against the real server: no toolbar for selections in inputs, textareas and
// contenteditable (by mouse or keyboard, before and after the highlighter is loaded), none for what
// find-in-page selects, while a reader's own selection in the text gets it; Copy puts the highlight's
// text on the clipboard.
//
// The browser's find bar itself cannot be driven from a test (Ctrl+F sent over CDP goes to the page,
// and headless Chromium draws no find bar). What it does to the page is reproduced instead: it selects
// the match without any pointer or key event reaching the page; Chromium's scriptable find,
// window.find(), does exactly that.
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import { clickPhrase, dragSelect, highlightToolbar, painted, saveWithHighlights } from './helpers/highlighting.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

const Q = {
  text: 'the ferry leaves the island at half past seven',
  found: 'gulls follow the boat',
  saved: 'the harbour lights come on one by one',
  editable: 'a draft edited in place on the page',
};

const BODY = `<style>body { font: 20px/1.6 sans-serif; margin: 24px; } input, textarea { font: inherit; width: 600px; }</style>
<p>Every morning ${Q.text}, and ${Q.found} out of the bay.</p>
<p><label>Address <input value="an address typed into the form field"></label></p>
<p><label>Comment <textarea rows="2">a comment being written in the text area</textarea></label></p>
<div contenteditable="true"><p>Editable: ${Q.editable}, with its own caret.</p></div>
<div contenteditable="plaintext-only">Plain editable: only words typed by the reader go here.</div>
<p>Later ${Q.saved}, along the quay.</p>`;

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let tab: Page;

test.describe.configure({ mode: 'serial' });

/**
 * What the extension made of the last selection, in the tab's content-script world: whether the loader
 * asked for the highlighter for it (a pending selection), whether the highlighter is there, and whether
 * its editor (which decides about the toolbar) is loaded.
 */
const selectionState = (pageUrl: string) =>
  browser.inWorker(async (url) => {
    const c = (globalThis as any).chrome;
    const t = (await c.tabs.query({})).find((x: { url?: string }) => x.url === url);
    const [r] = await c.scripting.executeScript({
      target: { tabId: t.id },
      func: () => {
        const g = globalThis as any;
        const h = g.__tidemarkHighlighter;
        return { pending: !!g.__tidemarkSelectionPending, highlighter: !!h, editor: !!h?.editor };
      },
    });
    return r.result as { pending: boolean; highlighter: boolean; editor: boolean };
  }, pageUrl);

/** A task of the page's, queued after the handlers of the events sent so far (theirs are setTimeout 0 too). */
const afterHandlers = (page: Page) => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));

/**
 * A click away from the text, once its handlers have run. The highlighter reads the selection a task
 * after mouseup; a script's selection (window.find) sent before that task would be read as the reader's.
 */
async function clickAway(page: Page) {
  await page.mouse.click(5, 5);
  await afterHandlers(page);
  await expect(highlightToolbar(page)).toBeHidden();
}

/**
 * No toolbar for the selection: once the loader's and the highlighter's handlers of the last mouse or key
 * event have run, the loader asked for nothing and the editor shows none. `byReader`: the selection was
 * ended by the reader's mouse or Shift+key, for which the highlighter (where it is) loads its editor,
 * which decides; a selection made otherwise (find in page) reaches no handler at all.
 */
async function expectNoToolbar(page: Page, byReader = false) {
  await afterHandlers(page);
  let state = await selectionState(page.url());
  if (byReader && state.highlighter && !state.editor) {
    // The highlighter is loading its editor for this selection: its answer comes once it is there.
    await expect.poll(async () => (state = await selectionState(page.url())).editor).toBe(true);
    await afterHandlers(page);
  }
  expect(state.pending).toBe(false);
  await expect(highlightToolbar(page)).toBeHidden();
}

/** Selects text inside `field` with the mouse (a triple click), then with the keyboard (Shift+End). */
async function selectInside(page: Page, field: Locator, how: 'mouse' | 'keyboard') {
  if (how === 'mouse') {
    await field.click({ clickCount: 3 });
  } else {
    await field.click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
  }
  // Something really is selected there.
  const selected = await field.evaluate((el) => {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0);
    return getSelection()!.toString();
  });
  expect(selected.trim().length).toBeGreaterThan(5);
}

async function editablesGetNoToolbar(page: Page) {
  const fields = [
    page.getByLabel('Address'),
    page.getByLabel('Comment'),
    page.locator('[contenteditable="true"] p'),
    page.locator('[contenteditable="plaintext-only"]'),
  ];
  for (const field of fields) {
    for (const how of ['mouse', 'keyboard'] as const) {
      await selectInside(page, field, how);
      await expectNoToolbar(page, true);
    }
  }
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'rules@example.test', name: 'Rue Rules' }));
  // A saved page on a host the extension may not read by itself (127.0.0.1, not localhost): the
  // highlighter only arrives there with the toolbar click (activeTab).
  const port = new URL(site.origin).port;
  site.add('/quay', { title: 'The quay', body: BODY });
  await saveWithHighlights(server, token, `http://127.0.0.1:${port}/quay`, [{ text: Q.saved, color: 'teal' }]);
  await saveWithHighlights(server, token, `http://ferry.test:${port}/quay`, [{ text: Q.saved, color: 'teal' }]);
  // *.test names resolve to the test site: pages on plain http that are not secure contexts.
  browser = await launchSignedIn(server, token, { toolbarButton: true, args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
  tab = await browser.context.newPage();
});

test.afterAll(() => closeAll(browser, site, server));

test('no toolbar for selections in inputs, textareas or contenteditable, by mouse or keyboard; a selection in the text gets it', async () => {
  await tab.goto(site.add('/ferry', { title: 'The ferry', body: BODY }));
  // Before anything loaded the highlighter (the page is not saved: only the small loader runs).
  await editablesGetNoToolbar(tab);

  // The control: the reader's own selection in the text gets the toolbar, and keeps its selection.
  await dragSelect(tab, Q.text);
  await expect(highlightToolbar(tab)).toBeVisible();
  expect(await tab.evaluate(() => getSelection()!.toString())).toBe(Q.text);
  await tab.keyboard.press('Escape');
  await clickAway(tab);

  // And now that the highlighter is loaded in the page.
  await editablesGetNoToolbar(tab);
  await dragSelect(tab, Q.text);
  await expect(highlightToolbar(tab)).toBeVisible();
  await clickAway(tab);
});

test('what find-in-page selects gets no toolbar; extending it with Shift+Arrow (the reader selecting) does', async () => {
  // The highlighter is loaded in this page (previous test).
  const find = () => tab.evaluate((text) => (window as unknown as { find(s: string): boolean }).find(text), Q.found);
  expect(await find()).toBe(true);
  expect(await tab.evaluate(() => getSelection()!.toString())).toBe(Q.found);
  await expectNoToolbar(tab);
  // Keys that end or repeat a search.
  await tab.keyboard.press('Enter');
  await tab.keyboard.press('Escape');
  await expectNoToolbar(tab);
  expect(await tab.evaluate(() => getSelection()!.toString())).toBe(Q.found);

  await tab.keyboard.press('Shift+ArrowRight');
  await expect(highlightToolbar(tab)).toBeVisible();
  await clickAway(tab);

  // A fresh page: only the loader runs when find selects text.
  await tab.reload();
  expect(await find()).toBe(true);
  await expectNoToolbar(tab);
});

test('a find selection made before the toolbar click brings the highlighter is not offered a toolbar either', async () => {
  const port = new URL(site.origin).port;
  const url = `http://127.0.0.1:${port}/quay`;
  await tab.goto(url);
  // No permission for 127.0.0.1: the loader is not registered there, so nothing runs in the page yet.
  expect((await browser.registeredScripts()).flatMap((s) => s.matches)).not.toContain(`http://127.0.0.1/*`);
  expect(await painted(tab)).toEqual({});
  expect(await tab.evaluate((text) => (window as unknown as { find(s: string): boolean }).find(text), Q.found)).toBe(true);

  // The toolbar button: the popup counts the page's highlights, which injects the highlighter (activeTab).
  const popup = await browser.clickToolbarButton(tab);
  await expect(popup.getByTestId('highlight-summary')).toHaveText('1 highlight');
  await expect.poll(() => painted(tab)).toEqual({ teal: [Q.saved] });
  await popup.close();
  await expectNoToolbar(tab);
  expect(await tab.evaluate(() => getSelection()!.toString())).toBe(Q.found);
});

test('Copy over a highlight puts its text on the clipboard', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  const url = site.add('/copy', { title: 'Copy', body: BODY });
  await tab.goto(url);
  await tab.evaluate(() => navigator.clipboard.writeText('what was on the clipboard before'));
  await dragSelect(tab, Q.text);
  await highlightToolbar(tab).getByRole('button', { name: 'Blue' }).click();
  await expect.poll(() => painted(tab)).toEqual({ blue: [Q.text] });
  await expect(tab.getByRole('status').filter({ hasText: 'Highlighted' })).toBeVisible();

  await clickPhrase(tab, Q.text);
  const bar = highlightToolbar(tab);
  await expect(bar.getByRole('button', { name: 'Delete' })).toBeVisible();
  await bar.getByRole('button', { name: 'Copy' }).click();
  await expect(tab.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  await expect(bar).toBeHidden();
  expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe(Q.text);
  // Copying changed nothing on the page or the server.
  expect(await painted(tab)).toEqual({ blue: [Q.text] });
});

test('Copy also works on a plain-http page, where the page has no async clipboard (not a secure context)', async () => {
  const port = new URL(site.origin).port;
  const url = `http://ferry.test:${port}/quay`;
  await tab.goto(url);
  expect(await tab.evaluate(() => ({ secure: isSecureContext, clipboard: 'clipboard' in navigator }))).toEqual({ secure: false, clipboard: false });
  // Not a host the extension may read by itself: the toolbar click brings the highlighter, which paints.
  const popup = await browser.clickToolbarButton(tab);
  await expect(popup.getByTestId('highlight-summary')).toHaveText('1 highlight');
  await expect.poll(() => painted(tab)).toEqual({ teal: [Q.saved] });
  await popup.close();

  // The clipboard is read from a secure page of the test site.
  const reader = await browser.context.newPage();
  await reader.goto(`${site.origin}/reader`);
  await reader.evaluate(() => navigator.clipboard.writeText('what was on the clipboard before'));

  await browser.focus(tab);
  await clickPhrase(tab, Q.saved);
  await highlightToolbar(tab).getByRole('button', { name: 'Copy' }).click();
  await expect(tab.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  // Copying did not leave a selection behind on the page.
  expect(await tab.evaluate(() => getSelection()!.toString())).toBe('');
  await browser.focus(reader);
  expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(Q.saved);
  await reader.close();
});
