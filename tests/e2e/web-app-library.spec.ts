// The rest of the web app's library in Chromium against the real server: the saved copy, export and
// sign-out; collections and the highlights view; a session ended elsewhere; a deep link through
// sign-in; changes to every match of a search and emptying Trash; a new account's empty library.
import { expect, test } from '@playwright/test';
import { startWebBackend, type WebBackend } from './helpers/web-app.js';

let w: WebBackend;
test.beforeAll(async () => {
  w = await startWebBackend('web-app-library@example.test');
});
test.afterAll(() => w?.close());

test('reading and leaving: the saved copy opens sandboxed, the export downloads, sign-out ends the session', async ({ browser }) => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  try {
    // A permanent copy, as the extension uploads it.
    const form = new FormData();
    form.append('cache', new Blob([`<!DOCTYPE html><html><head><title>Quarterly (kept)</title><style>#kept { color: rgb(0, 128, 0) }</style></head><body><p id="kept">Figures for the quarter.</p><p><a id="source" href="${w.siteOrigin}/article">The source</a></p></body></html>`], { type: 'text/html' }), 'q.html');
    form.append('url', 'https://example.com/3');
    const up = await fetch(`${w.s.url}/bookmark/${w.ids['Quarterly report']}/cache`, { method: 'PUT', headers: { authorization: `Bearer ${w.token}` }, body: form });
    expect(up.status).toBe(200);

    await w.signIn(page, `/?c=${w.ids.work}`);
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
    // A link in the copy opens the live page in a new tab; the copy stays where it is.
    const source = context.waitForEvent('page');
    await copy.frameLocator('iframe.copy-frame').locator('#source').click();
    await expect(await source).toHaveURL(`${w.siteOrigin}/article`);
    await expect(copy.frameLocator('iframe.copy-frame').locator('#kept')).toHaveText('Figures for the quarter.');
    await copy.close();

    // Export: the file the server writes, offered as a download.
    const downloading = page.waitForEvent('download');
    await page.getByLabel('Export', { exact: true }).click();
    await page.getByRole('button', { name: 'HTML (browser bookmarks)' }).click();
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
    expect((await context.request.get(`${w.s.url}/user`)).status()).toBe(401);
    expect(await page.evaluate(async () => (await caches.keys()).includes('tidemark-api'))).toBe(false);
    await page.goto(`${w.s.origin}/?c=${w.ids.work}`);
    await expect(page).toHaveURL(/\/signin\?next=/);
  } finally {
    await context.close();
  }
});

test('collections from the sidebar and the highlights view, which opens a highlight on its page', async ({ page }) => {
  const tides = await w.s.createItem('/bookmark', w.token, { link: `${w.siteOrigin}/tides`, title: 'Tide tables page', collection: { $id: w.ids.work } });
  const put = await w.s.api('PUT', `/bookmark/${tides._id}`, { token: w.token, body: { highlights: [{ text: 'High water comes twice a day.', color: 'blue' }] } });
  expect(put.status).toBe(200);
  await w.signIn(page, '/');
  const sidebar = page.getByRole('navigation', { name: 'Collections' });
  await sidebar.getByRole('button', { name: 'New collection' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Harbours');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(sidebar.getByRole('listitem', { name: /Harbours/ })).toBeVisible();
  expect((await w.s.api('GET', '/collections', { token: w.token })).body.items.map((c: { title: string }) => c.title)).toContain('Harbours');

  await page.getByRole('button', { name: 'All highlights' }).click();
  await expect(page.locator('.hl-group')).toHaveCount(1);
  const opening = page.context().waitForEvent('page');
  await page.getByRole('button', { name: /Open the page at “High water comes/ }).click();
  const tab = await opening;
  await tab.waitForLoadState();
  // The browser scrolls to the words and marks them (a text fragment: the extension is not here to paint).
  expect(tab.url()).toBe(`${w.siteOrigin}/tides#:~:text=High%20water%20comes%20twice%20a%20day.`);
  await expect(tab.locator('h1')).toHaveText('Tide tables of the North Sea');
  await tab.close();
  await expect(page.getByText('could not show the highlight', { exact: false })).toHaveCount(0);
});

test('a session ended elsewhere sends the app to sign in, and back to the same place after it', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const app = await context.newPage();
    await w.signIn(app, `/?c=${w.ids.work}`);
    await expect(app.locator('.bookmark').first()).toBeVisible();
    // Another tab of the same browser signs out.
    const other = await context.newPage();
    await other.goto(`${w.s.origin}/account`);
    await other.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(other).toHaveURL(/\/signin/);
    await other.close();

    await app.getByRole('listitem', { name: 'Reading' }).getByRole('button', { name: /Reading/ }).first().click();
    await expect(app).toHaveURL(new RegExp(`/signin\\?next=${encodeURIComponent(`/?c=${w.ids.reading}`).replace(/[?]/g, '\\?')}$`));
    await app.fill('#email', w.email);
    await app.fill('#password', w.password);
    await app.click('button[type=submit]');
    await expect(app).toHaveURL(`${w.s.origin}/?c=${w.ids.reading}`);
    await expect(app.locator('.view-title')).toHaveText('Reading');
  } finally {
    await context.close();
  }
});

test('a deep link with a collection and a search opens there after signing in', async ({ page }) => {
  await w.signIn(page, `/?collection=${w.ids.reading}&q=${encodeURIComponent('#tide')}`);
  await expect(page).toHaveURL(`${w.s.origin}/?collection=${w.ids.reading}&q=%23tide`);
  await expect(page.locator('.view-title')).toHaveText('Reading');
  await expect(page.getByRole('combobox', { name: 'Search the library' })).toHaveValue('#tide');
  const expected = await w.apiTitles(w.ids.reading, '#tide');
  expect(expected).toHaveLength(2);
  await expect.poll(() => w.titles(page)).toEqual(expected);
});

test('every match of a search changes in one call with Undo; Trash empties for good', async ({ page }) => {
  const batch = (await w.s.createItem('/collection', w.token, { title: 'Batch' }))._id as number;
  const archive = (await w.s.createItem('/collection', w.token, { title: 'Archive' }))._id as number;
  // More than the 50 a page loads.
  const items = Array.from({ length: 60 }, (_, i) => ({ link: `https://batch.example/${i}`, title: `Batch item ${i}`, tags: i % 10 === 3 ? ['other'] : ['run'], collectionId: batch }));
  expect((await w.s.api('POST', '/bookmarks', { token: w.token, body: { items } })).status).toBe(200);
  const count = async (id: number, search = '') => (await w.s.api('GET', `/bookmarks/${id}?search=${encodeURIComponent(search)}`, { token: w.token })).body.count as number;

  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('/rest/v1/')) writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await w.signIn(page, `/?c=${batch}&q=${encodeURIComponent('#run')}`);
  await expect(page.locator('.count-line')).toHaveText('54 bookmarks');
  await expect(page.locator('.bookmark')).toHaveCount(50);
  await page.getByRole('checkbox', { name: 'Select all shown' }).check();
  await page.getByRole('button', { name: 'Select all 54 matching' }).click();
  await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Archive' });
  await page.getByRole('dialog').getByRole('button', { name: 'Move to Archive' }).click();
  await expect(page.getByRole('status').filter({ hasText: '54 bookmarks moved to Archive.' })).toBeVisible();
  expect([await count(archive), await count(batch)]).toEqual([54, 6]);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('.bookmark')).toHaveCount(50);
  expect([await count(archive), await count(batch)]).toEqual([0, 60]);
  // By the search, never by listing them: one call each way.
  expect(writes).toEqual([`PUT /rest/v1/bookmarks/${batch}`, `PUT /rest/v1/bookmarks/${archive}`]);

  // To Trash, then Trash emptied: gone for good.
  await page.goto(`${w.s.origin}/?c=${batch}&q=${encodeURIComponent('#other')}`);
  await expect(page.locator('.bookmark')).toHaveCount(6);
  await page.getByRole('checkbox', { name: 'Select all shown' }).check();
  await page.getByRole('button', { name: 'Move to Trash' }).click();
  await expect(page.locator('.bookmark')).toHaveCount(0);
  await page.getByRole('button', { name: /^Trash/ }).click();
  await expect(page.locator('.bookmark')).toHaveCount(6);
  await page.getByRole('button', { name: 'Empty Trash' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Empty Trash' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Trash emptied: 6 deleted for good.' })).toBeVisible();
  expect([await count(-99), await count(batch)]).toEqual([0, 54]);
});

test('a new account signs up and its empty library says how to save a first page', async ({ page }) => {
  await page.goto(`${w.s.origin}/signup`);
  await page.getByLabel('Name').fill('New Reader');
  await page.getByLabel('Email').fill('new-reader@example.test');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(`${w.s.origin}/`);
  const empty = page.getByRole('status').filter({ hasText: 'Your library is empty.' });
  await expect(empty).toBeVisible();
  await expect(empty).toContainText('Save a page by its address with the + button.');
  // The button it names is there, and opens the save form.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Save a page' })).toBeVisible();
});
