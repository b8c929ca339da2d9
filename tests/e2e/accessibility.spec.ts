// Accessibility of the library UI and the server's pages, checked with axe-core in Chromium: no
// serious or critical violation on the sign-in page, the library list, the detail pane, the search
// suggestions, a dialog, and a public collection page; and the keyboard alone reaches and leaves
// everything (visible focus, Escape closes what opened).
import { expect, test, type Page } from '@playwright/test';
import { describeFindings, seriousViolations } from './helpers/axe.js';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import { ensureWebBuilt } from './helpers/web-build.js';
import { startServer, type TestServer } from '../helpers/server.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let publicUrl: string;

test.describe.configure({ mode: 'serial' });

async function expectNoSeriousViolations(page: Page, within?: string) {
  const found = await seriousViolations(page, within);
  expect(describeFindings(found)).toBe('');
}

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'a11y@example.test', name: 'Ada Access' }));
  const folder = await server.api('POST', '/collection', token, { title: 'Harbours', public: true, description: 'Ports worth a visit' });
  expect(folder.status).toBe(200);
  publicUrl = folder.body.item.publicUrl;
  expect(publicUrl).toMatch(/\/c\/\d+-harbours$/);
  await server.api('POST', '/collection', token, { title: 'Quays', parent: { $id: folder.body.item._id } });
  const items = [
    { link: 'https://ports.example/oban', title: 'Oban pier', tags: ['scotland', 'ferry'], collectionId: folder.body.item._id, note: 'Ferries to Mull', excerpt: 'A busy harbour', important: true },
    { link: 'https://ports.example/mallaig', title: 'Mallaig', tags: ['scotland'], collectionId: folder.body.item._id },
    ...Array.from({ length: 6 }, (_, i) => ({ link: `https://loose.example/${i}`, title: `Loose ${i}`, tags: i % 2 ? ['misc'] : [], collectionId: -1 })),
  ];
  expect((await server.api('POST', '/bookmarks', token, { items })).status).toBe(200);
  browser = await launchSignedIn(server, token);
});

test.afterAll(() => closeAll(browser, site, server));

test('the sign-in page', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/signin`);
  await expect(page.getByLabel('Email')).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.close();
});

test('a public collection page', async () => {
  const page = await browser.context.newPage();
  await page.goto(publicUrl);
  await expect(page.getByRole('heading', { name: 'Harbours' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.close();
});

test('the library list, search suggestions, detail pane and a dialog', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(browser.url('library.html'));
  await expect(page.locator('.bookmark')).toHaveCount(8);
  await expectNoSeriousViolations(page);

  await page.locator('.bookmark').first().getByRole('checkbox').check();
  await expectNoSeriousViolations(page);

  const search = page.getByRole('combobox', { name: 'Search the library' });
  await search.fill('#sc');
  await expect(page.locator('#search-suggestions')).toBeVisible();
  await expectNoSeriousViolations(page);
  // Escape closes the suggestions and keeps the text the list was searched with.
  await page.keyboard.press('Escape');
  await expect(page.locator('#search-suggestions')).toHaveCount(0);
  await expect(search).toHaveValue('#sc');
  await search.fill('');
  await expect(page.locator('.bookmark')).toHaveCount(8);

  await page.locator('.bookmark', { hasText: 'Oban pier' }).click();
  await expect(page.getByRole('complementary', { name: 'Bookmark' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.close();
});

/** What has the focus now: its role-ish description, and whether a focus ring or outline shows on it. */
const focusNow = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40);
    const type = el.tagName === 'INPUT' ? `[${el.getAttribute('type')}]` : '';
    return { what: `${el.tagName.toLowerCase()}${type} "${name}"`, ring };
  });

/** Tabs through the page from its start, `stops` times; answers each stop (or null where the focus left the page). */
async function tabThrough(page: Page, stops: number) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen = [];
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab');
    seen.push(await focusNow(page));
  }
  return seen;
}

test('keyboard only: every stop shows its focus; menus, dialogs and the detail pane close with Escape', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(browser.url('library.html'));
  await expect(page.locator('.bookmark')).toHaveCount(8);

  // Tab reaches the search box, the collections, the list's controls and every row's checkbox and
  // link, each showing where the focus is.
  const stops = await tabThrough(page, 40);
  expect(stops.filter((s) => s && !s.ring).map((s) => s!.what)).toEqual([]);
  const order = stops.map((s) => s?.what ?? 'outside the page');
  const at = (what: string) => order.indexOf(what);
  // In reading order: search, the sidebar, the list's controls, then each row's checkbox and link.
  const expected = ['input[search] "Search the library"', 'button "New collection"', 'button "Actions for Harbours"', 'select "Sort by"', 'input[checkbox] "Select all shown"', 'input[checkbox] "Select Loose 5"', 'a "Loose 5"', 'input[checkbox] "Select Oban pier"', 'a "Oban pier"'];
  for (const what of expected) expect(order).toContain(what);
  expect(expected.map(at)).toEqual(expected.map(at).sort((a, b) => a - b));

  // The collection menu: Enter opens it on its first item, the arrows move, Escape closes it and
  // gives the focus back to its button.
  const more = page.getByRole('button', { name: 'Actions for Harbours' });
  await more.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Actions for Harbours' });
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem').nth(1)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(more).toBeFocused();

  // Enter on a button is the button's, even while a row of the list has the list's focus.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('.bookmark.focused')).toHaveCount(1);

  // A dialog (New collection): opened by keyboard, focus inside it, Escape closes it and the focus
  // returns to the button that opened it.
  const create = page.getByRole('button', { name: 'New collection' });
  await create.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox')).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(create).toBeFocused();

  // The detail pane: arrows and Enter open a row, Escape closes the pane.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const detail = page.getByRole('complementary', { name: 'Bookmark' });
  await expect(detail).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await page.close();
});

test('the library in the dark palette', async () => {
  const page = await browser.context.newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(browser.url('library.html'));
  await expect(page.locator('.bookmark')).toHaveCount(8);
  await page.locator('.bookmark').first().getByRole('checkbox').check();
  await page.locator('.bookmark', { hasText: 'Oban pier' }).click();
  await expect(page.getByRole('complementary', { name: 'Bookmark' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.close();
});

test.describe('the web app', () => {
  let web: TestServer;
  let pages: http.Server;
  let pagesOrigin: string;
  const email = 'a11y-web@example.test';
  let webToken: string;
  const password = 'correct horse battery';

  test.beforeAll(async () => {
    web = await startServer({ webAppDir: await ensureWebBuilt(), allowPrivateNetwork: true });
    ({ token: webToken } = await web.createUser(email, { password }));
    const reading = await web.createItem('/collection', webToken, { title: 'Reading' });
    await web.createItem('/collection', webToken, { title: 'Inside', parent: { $id: reading._id } });
    for (const [i, title] of ['Neap tides', 'Storm surge', 'Harbour charts'].entries()) {
      await web.createItem('/bookmark', webToken, { link: `https://example.com/${i}`, title, tags: ['tide'], note: i === 0 ? 'Twice a month' : '', collection: { $id: reading._id } });
    }
    pages = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Spring tides</title><meta name="description" content="The highest tides of the month."><p>Sun and moon in line.</p>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  });

  test.afterAll(async () => {
    await web?.close();
    await new Promise((resolve) => pages?.close(resolve));
  });

  async function signIn(page: Page) {
    await page.goto(`${web.origin}/`);
    await expect(page).toHaveURL(/\/signin\?next=/);
    await expectNoSeriousViolations(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Password').press('Enter');
    await expect(page.locator('.bookmark')).toHaveCount(3);
  }

  test('sign-in, list, detail pane and the save form', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    await expectNoSeriousViolations(page);

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('complementary', { name: 'Bookmark' })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('complementary', { name: 'Bookmark' })).toHaveCount(0);

    // The save form, by keyboard: opened from its button, filled, read by the server, Escape closes it.
    const open = page.getByRole('button', { name: 'Save', exact: true });
    await open.focus();
    // The form is open, its address focused, before the task of the press ends: keys typed right
    // after the press land in it, however late the next frame comes.
    const focusedAfterClick = await page.evaluate(async () => {
      (document.querySelector('.save-button') as HTMLButtonElement).click();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      return document.activeElement?.id;
    });
    expect(focusedAfterClick).toBe('save-url');
    await page.keyboard.press('Escape');
    await expect(open).toBeFocused();
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Save a page' });
    await expect(form.getByLabel('Address of the page')).toBeFocused();
    await expectNoSeriousViolations(page);
    await page.keyboard.type(`${pagesOrigin}/spring`);
    await expect(form.getByLabel('Title')).toHaveValue('Spring tides');
    await expectNoSeriousViolations(page);
    await page.keyboard.press('Escape');
    await expect(form).toHaveCount(0);
    await expect(open).toBeFocused();
  });

  test('keyboard only: save by address from start to end, and the account menu', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    // From the top of the page: the web app's own controls are in the order, each showing its focus.
    const stops = await tabThrough(page, 8);
    expect(stops.filter((s) => s && !s.ring).map((s) => s!.what)).toEqual([]);
    const order = stops.map((s) => s?.what ?? 'outside the page');
    expect(order.slice(0, 3)).toEqual(['input[search] "Search the library"', 'button "Save"', 'summary "Account and sign out"']);

    // Save: opened, filled, every field passed with Tab (each showing its focus), saved with Enter.
    const open = page.getByRole('button', { name: 'Save', exact: true });
    await open.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Save a page' });
    await page.keyboard.type(`${pagesOrigin}/keyboard`);
    await expect(form.getByLabel('Title')).toHaveValue('Spring tides');
    const submit = form.getByRole('button', { name: 'Save', exact: true });
    const passed: string[] = [];
    for (let i = 0; i < 12 && !(await submit.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      const now = await focusNow(page);
      expect(now?.ring, `focus shows on ${now?.what}`).toBe(true);
      passed.push(await page.evaluate(() => document.activeElement!.id || document.activeElement!.textContent!.trim()));
    }
    await expect(submit).toBeFocused();
    expect(passed).toEqual(['save-title', 'save-excerpt', 'collection-input', 'tags-input', 'Cancel', 'Save']);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Saved in Unsorted.' })).toBeVisible();
    await expect(form).toHaveCount(0);
    await expect(open).toBeFocused();

    // The account menu: Enter opens it, Tab walks it, Escape closes it and the focus goes back.
    const account = page.getByLabel('Account and sign out');
    await account.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('link', { name: 'Account settings' })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Account settings' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
    await expect(account).toBeFocused();
    // Leaving it by Tab closes it too: nothing stays open behind the focus.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();

    // The library as the other tests of this file expect it: without the page saved here.
    const saved = (await web.api('GET', `/bookmarks/0?search=${encodeURIComponent('"Spring tides"')}`, { token: webToken })).body.items as { _id: number }[];
    expect(saved).toHaveLength(1);
    for (const id of [saved[0]._id, saved[0]._id]) expect((await web.api('DELETE', `/bookmark/${id}`, { token: webToken })).status).toBe(200);
  });

  test('on a phone: the list, the drawer and the detail pane', async ({ browser: chromium }) => {
    const context = await chromium.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await signIn(page);
    await expectNoSeriousViolations(page);
    const menu = page.getByRole('button', { name: 'Collections menu' });
    await menu.tap();
    await expect(page.getByRole('navigation', { name: 'Collections' })).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: 'Collections' })).toBeHidden();
    await page.locator('.bookmark', { hasText: 'Neap tides' }).locator('.body').tap();
    await expect(page.getByRole('complementary', { name: 'Bookmark' })).toBeVisible();
    await expectNoSeriousViolations(page);
    await context.close();
  });
});
