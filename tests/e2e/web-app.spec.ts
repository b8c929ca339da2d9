// The web app in Chromium against the real server (the build of web/, served from `webAppDir`): sign
// in, the list and a search with operators as the API answers it, save by address (a page of a local
// test site, read by the server), bulk move and Undo, editing in the detail pane; the same on a phone
// (390x844, touch); the installed app reopened offline shows what it last loaded and refuses changes;
// the share target opens the save form filled in, and one tap saves.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startServer, type TestServer } from '../helpers/server.js';
import { ensureWebBuilt } from './helpers/web-build.js';

let s: TestServer;
let site: http.Server;
let siteOrigin: string;
let token: string;
const email = 'web-app@example.test';
const password = 'correct horse battery';
const ids: Record<string, number> = {};

const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Tide tables of the North Sea</title>
<meta name="description" content="When the water turns, port by port, for the whole year.">
</head><body><article><h1>Tide tables of the North Sea</h1><p>${'High water comes twice a day. '.repeat(40)}</p></article></body></html>`;

test.beforeAll(async () => {
  const build = await ensureWebBuilt();
  s = await startServer({ webAppDir: build, allowPrivateNetwork: true });
  token = (await s.createUser(email, { password, pro: true })).token;
  site = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(ARTICLE.replace('North Sea', req.url === '/shared' ? 'Irish Sea' : req.url === '/phone' ? 'Baltic' : 'North Sea'));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  ids.reading = (await s.createItem('/collection', token, { title: 'Reading' }))._id;
  ids.work = (await s.createItem('/collection', token, { title: 'Work' }))._id;
  const seed = [
    { title: 'Neap and spring tides', tags: ['tide', 'science'], c: ids.reading },
    { title: 'Storm surge warnings', tags: ['tide', 'storm'], c: ids.reading },
    { title: 'Reading the harbour charts', tags: ['charts'], c: ids.reading },
    { title: 'Quarterly report', tags: ['work'], c: ids.work },
    { title: 'Team offsite notes', tags: [], c: ids.work },
    { title: 'Loose note', tags: ['tide'], c: -1 },
  ];
  for (const [i, b] of seed.entries()) {
    ids[b.title] = (await s.createItem('/bookmark', token, { link: `https://example.com/${i}`, title: b.title, tags: b.tags, collection: { $id: b.c } }))._id;
  }
});

test.afterAll(async () => {
  await s?.close();
  await new Promise((resolve) => site?.close(resolve));
});

const titles = (page: Page) => page.locator('.bookmark .title').allTextContents();
const apiTitles = async (collectionId: number, search = '') =>
  ((await s.api('GET', `/bookmarks/${collectionId}?perpage=50${search ? `&search=${encodeURIComponent(search)}` : ''}`, { token })).body.items as { title: string }[]).map((b) => b.title);
const bookmark = async (id: number) => (await s.api('GET', `/bookmark/${id}`, { token })).body.item;

async function signIn(page: Page, path = '/'): Promise<void> {
  await page.goto(`${s.origin}${path}`);
  await expect(page).toHaveURL(/\/signin\?next=/);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await expect(page).toHaveURL(new RegExp(`^${s.origin.replace(/[.]/g, '\\.')}/`));
}

async function phone(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  return { context, page: await context.newPage() };
}

test('desktop: list, search with operators, save by address, bulk move with Undo, edit in the detail pane', async ({ page }) => {
  await signIn(page, '/');
  await expect(page.locator('.bookmark')).toHaveCount(6);
  await expect(page.getByRole('listitem', { name: 'Reading' })).toBeVisible();

  // Operators: a tag, a negated word; the list is what the API answers for the same search.
  const search = page.getByRole('combobox', { name: 'Search the library' });
  for (const query of ['#tide', '#tide -storm']) {
    await search.fill(query);
    const expected = await apiTitles(0, query);
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => titles(page)).toEqual(expected);
  }
  await expect(page).toHaveURL(/q=%23tide/);
  await search.fill('');
  await expect(page.locator('.bookmark')).toHaveCount(6);

  // Save by address: the server reads the page; the form shows its title and excerpt.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Save a page' });
  await form.getByLabel('Address of the page').fill(`${siteOrigin}/article`);
  await expect(form.getByLabel('Title')).toHaveValue('Tide tables of the North Sea');
  await expect(form.getByLabel('Excerpt')).toHaveValue(/When the water turns/);
  await form.getByRole('combobox', { name: 'Tags' }).fill('coast');
  await form.getByRole('combobox', { name: 'Tags' }).press('Enter');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved in Unsorted.' })).toBeVisible();
  await expect(page.locator('.bookmark .title', { hasText: 'Tide tables of the North Sea' })).toBeVisible();
  const saved = (await s.api('GET', `/bookmarks/-1?search=${encodeURIComponent('#coast')}`, { token })).body.items;
  expect(saved.map((b: { title: string; link: string }) => [b.title, b.link])).toEqual([['Tide tables of the North Sea', `${siteOrigin}/article`]]);

  // The same address again: it is found, and offered for editing instead of a second copy.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const again = page.getByRole('dialog');
  await again.getByLabel('Address of the page').fill(`${siteOrigin}/article`);
  await expect(again.getByRole('heading', { name: 'Already saved: edit it' })).toBeVisible();
  await expect(again.getByText(/You saved this page before, in Unsorted/)).toBeVisible();
  await expect(again.getByLabel('Title')).toHaveValue('Tide tables of the North Sea');
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
  expect((await s.api('GET', `/bookmarks/0?search=${encodeURIComponent('#coast')}`, { token })).body.count).toBe(1);

  // Bulk: all of Reading to Work, then Undo.
  await page.getByRole('listitem', { name: 'Reading' }).getByRole('button', { name: /Reading/ }).first().click();
  await expect(page.locator('.bookmark')).toHaveCount(3);
  const reading = await titles(page);
  await page.getByRole('checkbox', { name: 'Select all shown' }).check();
  await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Work' });
  await expect(page.locator('.bookmark')).toHaveCount(0);
  expect((await apiTitles(ids.work)).sort()).toEqual([...reading, 'Quarterly report', 'Team offsite notes'].sort());
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('.bookmark')).toHaveCount(3);
  expect((await apiTitles(ids.reading)).sort()).toEqual([...reading].sort());

  // The detail pane: a row opens it; a changed title is saved when the field is left.
  await page.locator('.bookmark', { hasText: 'Reading the harbour charts' }).locator('.meta').click();
  const title = page.locator('#d-title');
  await expect(title).toHaveValue('Reading the harbour charts');
  await title.fill('Reading harbour charts at night');
  await title.press('Tab');
  await expect(page.locator('.save-state')).toHaveText('Saved');
  expect((await bookmark(ids['Reading the harbour charts'])).title).toBe('Reading harbour charts at night');
});

test('phone 390x844 with touch: drawer, Select mode, bulk move with Undo, full-screen detail, save by address', async ({ browser }) => {
  const { context, page } = await phone(browser);
  try {
    await signIn(page, `/?c=${ids.work}`);
    await expect(page.locator('.bookmark')).toHaveCount(2);
    const noSideScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);
    expect(await noSideScroll()).toBe(true);
    // Every control in view is big enough for a finger.
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.topbar button, .topbar summary, .topbar input, .select-mode')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => ({ name: el.getAttribute('aria-label') ?? el.textContent, h: el.getBoundingClientRect().height }))
        .filter((x) => x.h < 44),
    );
    expect(small).toEqual([]);

    // The sidebar is a drawer.
    const menu = page.getByRole('button', { name: 'Collections menu' });
    await expect(page.getByRole('navigation', { name: 'Collections' })).toBeHidden();
    await menu.tap();
    await expect(page.getByRole('navigation', { name: 'Collections' })).toBeVisible();
    await page.getByRole('listitem', { name: 'Reading' }).getByRole('button', { name: /Reading/ }).first().tap();
    await expect(page.getByRole('navigation', { name: 'Collections' })).toBeHidden();
    await expect(page.locator('.bookmark')).toHaveCount(3);
    const reading = await titles(page);

    // Select mode: taps pick rows; the bulk bar moves them; Undo puts them back.
    await expect(page.getByRole('toolbar', { name: 'Bulk actions' })).toBeHidden();
    await page.getByRole('button', { name: 'Select', exact: true }).tap();
    await page.locator('.bookmark').nth(0).locator('.meta').tap();
    await page.locator('.bookmark').nth(1).locator('.meta').tap();
    await expect(page.getByText('2 selected')).toBeVisible();
    await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Work' });
    await expect(page.locator('.bookmark')).toHaveCount(1);
    expect(await apiTitles(ids.reading)).toEqual([reading[2]]);
    await page.getByRole('button', { name: 'Undo' }).tap();
    await expect(page.locator('.bookmark')).toHaveCount(3);
    expect((await apiTitles(ids.reading)).sort()).toEqual([...reading].sort());
    await page.getByRole('button', { name: 'Done', exact: true }).tap();

    // A tap opens the detail pane over the whole screen; Back returns to the list.
    await page.locator('.bookmark', { hasText: 'Storm surge warnings' }).locator('.meta').tap();
    const detail = page.locator('.detail');
    await expect(detail).toBeVisible();
    const box = (await detail.boundingBox())!;
    expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, 390, 844]);
    await page.locator('#d-title').fill('Storm surge warnings, North Sea');
    await page.locator('#d-title').press('Tab');
    await expect(page.locator('.save-state')).toHaveText('Saved');
    expect((await bookmark(ids['Storm surge warnings'])).title).toBe('Storm surge warnings, North Sea');
    await page.getByRole('button', { name: 'Back' }).tap();
    await expect(detail).toBeHidden();
    expect(await noSideScroll()).toBe(true);

    // Save by address from the ＋ button.
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    const form = page.getByRole('dialog', { name: 'Save a page' });
    await form.getByLabel('Address of the page').fill(`${siteOrigin}/phone`);
    await expect(form.getByLabel('Title')).toHaveValue('Tide tables of the Baltic');
    await form.getByRole('button', { name: 'Save', exact: true }).tap();
    await expect(page.getByRole('status').filter({ hasText: 'Saved in Reading.' })).toBeVisible();
    expect(await apiTitles(ids.reading)).toContain('Tide tables of the Baltic');
  } finally {
    await context.close();
  }
});

test('the installed app reopens offline with the last list, marked offline, and refuses changes', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, `/?c=${ids.work}`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The worker controls the page from its next load: that load's answers are what it keeps.
    await page.reload();
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    const shown = await apiTitles(ids.work);
    await expect.poll(() => titles(page)).toEqual(shown);

    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => titles(page)).toEqual(shown);
    await expect(page.getByText(/^You are offline\. Tidemark shows what it last loaded/)).toBeVisible();
    await expect(page.locator('.offline-badge')).toHaveText(/^Offline — showing what was loaded at /);

    await page.locator('.bookmark').first().locator('.meta').click();
    await page.locator('#d-title').fill('Changed offline');
    await page.locator('#d-title').press('Tab');
    await expect(page.locator('.save-state')).toHaveText("You are offline: this change was not saved. Try again when you're back online.");
    await context.setOffline(false);
    expect(await apiTitles(ids.work)).toEqual(shown);
  } finally {
    await context.close();
  }
});

test('the share target opens the save form filled in, and one tap saves', async ({ browser }) => {
  const { context, page } = await phone(browser);
  try {
    await signIn(page, '/');
    await page.goto(`${s.origin}/share?title=${encodeURIComponent('From the share sheet')}&text=${encodeURIComponent(`Look at this ${siteOrigin}/shared`)}`);
    await expect(page).toHaveURL(/\/\?save=/);
    const form = page.getByRole('dialog', { name: 'Save a page' });
    await expect(form.getByLabel('Address of the page')).toHaveValue(`${siteOrigin}/shared`);
    await expect(form.getByLabel('Title')).toHaveValue('From the share sheet');
    await expect(form.getByLabel('Excerpt')).toHaveValue(/When the water turns/);
    await form.getByRole('button', { name: 'Save', exact: true }).tap();
    await expect(page.getByRole('status').filter({ hasText: 'Saved in Unsorted.' })).toBeVisible();
    await expect(page).not.toHaveURL(/save=/);
    const found = (await s.api('GET', `/bookmarks/-1?search=${encodeURIComponent('"From the share sheet"')}`, { token })).body.items;
    expect(found.map((b: { link: string }) => b.link)).toEqual([`${siteOrigin}/shared`]);
  } finally {
    await context.close();
  }
});

test('reading and leaving: the saved copy opens sandboxed, the export downloads, sign-out ends the session', async ({ browser }) => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  try {
    // A permanent copy, as the extension uploads it.
    const form = new FormData();
    form.append('cache', new Blob(['<!DOCTYPE html><html><head><title>Quarterly (kept)</title><style>#kept { color: rgb(0, 128, 0) }</style></head><body><p id="kept">Figures for the quarter.</p></body></html>'], { type: 'text/html' }), 'q.html');
    form.append('url', 'https://example.com/3');
    const up = await fetch(`${s.url}/bookmark/${ids['Quarterly report']}/cache`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(up.status).toBe(200);

    await signIn(page, `/?c=${ids.work}`);
    await page.locator('.bookmark', { hasText: 'Quarterly report' }).locator('.meta').click();
    const opening = context.waitForEvent('page');
    await page.getByRole('link', { name: 'Open saved copy' }).click();
    const copy = await opening;
    await expect(copy).toHaveURL(/\/\?copy=1&id=\d+$/);
    await expect(copy.frameLocator('iframe.copy-frame').locator('#kept')).toHaveText('Figures for the quarter.');
    await expect(copy.locator('iframe.copy-frame')).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
    const inside = copy.frames().find((f) => f !== copy.mainFrame())!;
    expect(await inside.evaluate(() => origin)).toBe('null');
    // Under the server's policy for copies (not the app's, which forbids inline styles): the copy keeps its looks.
    await expect(copy.frameLocator('iframe.copy-frame').locator('#kept')).toHaveCSS('color', 'rgb(0, 128, 0)');
    await copy.close();

    // Export: the file the server writes, offered as a download.
    const downloading = page.waitForEvent('download');
    await page.getByRole('combobox', { name: /export/i }).selectOption({ index: 1 });
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.(html|csv|md)$/);
    const text = await (await download.createReadStream()).toArray();
    expect(Buffer.concat(text).toString('utf8')).toContain('Quarterly report');

    // Sign out: back to the sign-in page; the API no longer takes this browser's cookie, and this
    // device's copy of the library (the service worker's) is gone with the session.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).includes('tidemark-api'))).toBe(true);
    await page.getByText('Account', { exact: true }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/signin/);
    // The browser's cookies, sent as a same-origin read would send them.
    expect((await context.request.get(`${s.url}/user`)).status()).toBe(401);
    expect(await page.evaluate(async () => (await caches.keys()).includes('tidemark-api'))).toBe(false);
    await page.goto(`${s.origin}/?c=${ids.work}`);
    await expect(page).toHaveURL(/\/signin\?next=/);
  } finally {
    await context.close();
  }
});

test('collections from the sidebar and the highlights view, which opens a highlight on its page', async ({ page }) => {
  const tides = await s.createItem('/bookmark', token, { link: `${siteOrigin}/tides`, title: 'Tide tables page', collection: { $id: ids.work } });
  const put = await s.api('PUT', `/bookmark/${tides._id}`, { token, body: { highlights: [{ text: 'High water comes twice a day.', color: 'blue' }] } });
  expect(put.status).toBe(200);
  await signIn(page, '/');
  const sidebar = page.getByRole('navigation', { name: 'Collections' });
  await sidebar.getByRole('button', { name: 'New collection' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Harbours');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(sidebar.getByRole('listitem', { name: /Harbours/ })).toBeVisible();
  expect((await s.api('GET', '/collections', { token })).body.items.map((c: { title: string }) => c.title)).toContain('Harbours');

  await page.getByRole('button', { name: 'All highlights' }).click();
  await expect(page.locator('.hl-group')).toHaveCount(1);
  const opening = page.context().waitForEvent('page');
  await page.getByRole('button', { name: /Open the page at “High water comes/ }).click();
  const tab = await opening;
  await tab.waitForLoadState();
  // The browser scrolls to the words and marks them (a text fragment: the extension is not here to paint).
  expect(tab.url()).toBe(`${siteOrigin}/tides#:~:text=High%20water%20comes%20twice%20a%20day.`);
  await expect(tab.locator('h1')).toHaveText('Tide tables of the North Sea');
  await tab.close();
  await expect(page.getByText('could not show the highlight', { exact: false })).toHaveCount(0);
});

test('a session ended elsewhere sends the app to sign in, and back to the same place after it', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const app = await context.newPage();
    await signIn(app, `/?c=${ids.work}`);
    await expect(app.locator('.bookmark').first()).toBeVisible();
    // Another tab of the same browser signs out.
    const other = await context.newPage();
    await other.goto(`${s.origin}/account`);
    await other.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(other).toHaveURL(/\/signin/);
    await other.close();

    await app.getByRole('listitem', { name: 'Reading' }).getByRole('button', { name: /Reading/ }).first().click();
    await expect(app).toHaveURL(new RegExp(`/signin\\?next=${encodeURIComponent(`/?c=${ids.reading}`).replace(/[?]/g, '\\?')}$`));
    await app.fill('#email', email);
    await app.fill('#password', password);
    await app.click('button[type=submit]');
    await expect(app).toHaveURL(`${s.origin}/?c=${ids.reading}`);
    await expect(app.locator('.view-title')).toHaveText('Reading');
  } finally {
    await context.close();
  }
});
