// The web app in Chromium against the real server (the build of web/, served from `webAppDir`): sign
// in, the list and a search with operators as the API answers it, save by address (a page of a local
// test site, read by the server), bulk move and Undo, editing in the detail pane; the same on a phone
// (390x844, touch); the installed app reopened offline shows what it last loaded and refuses changes;
// the share target opens the save form filled in, and one tap saves. More in web-app-library.spec.ts.
import { expect, test } from '@playwright/test';
import { phone, startWebBackend, type WebBackend } from './helpers/web-app.js';

/** Waits for what needs the server to fetch and read a page first (slower while other tests load the machine). */
const READ = { timeout: 15_000 };

let w: WebBackend;
test.beforeAll(async () => {
  w = await startWebBackend('web-app@example.test');
});
test.afterAll(() => w?.close());

test('desktop: list, search with operators, save by address, bulk move with Undo, edit in the detail pane', async ({ page }) => {
  await w.signIn(page, '/');
  await expect(page.locator('.bookmark')).toHaveCount(6);
  await expect(page.getByRole('listitem', { name: 'Reading' })).toBeVisible();

  // Operators: a tag, a negated word; the list is what the API answers for the same search.
  const search = page.getByRole('combobox', { name: 'Search the library' });
  for (const query of ['#tide', '#tide -storm']) {
    await search.fill(query);
    const expected = await w.apiTitles(0, query);
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(() => w.titles(page)).toEqual(expected);
  }
  await expect(page).toHaveURL(/q=%23tide/);
  await search.fill('');
  await expect(page.locator('.bookmark')).toHaveCount(6);

  // Save by address: the server reads the page; the form shows its title and excerpt.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Save a page' });
  await form.getByLabel('Address of the page').fill(`${w.siteOrigin}/article`);
  await expect(form.getByLabel('Title')).toHaveValue('Tide tables of the North Sea', READ);
  await expect(form.getByLabel('Excerpt')).toHaveValue(/When the water turns/);
  // The page's cover, shown as the browser loads it.
  const cover = form.locator('img.save-cover');
  await expect(cover).toHaveAttribute('src', `${w.siteOrigin}/cover.png`);
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(192);
  await form.getByRole('combobox', { name: 'Tags' }).fill('coast');
  await form.getByRole('combobox', { name: 'Tags' }).press('Enter');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved in Unsorted.' })).toBeVisible();
  await expect(page.locator('.bookmark .title', { hasText: 'Tide tables of the North Sea' })).toBeVisible();
  const saved = (await w.s.api('GET', `/bookmarks/-1?search=${encodeURIComponent('#coast')}`, { token: w.token })).body.items;
  expect(saved.map((b: { title: string; link: string; cover: string }) => [b.title, b.link, b.cover])).toEqual([['Tide tables of the North Sea', `${w.siteOrigin}/article`, `${w.siteOrigin}/cover.png`]]);

  // The same address again: it is found, and offered for editing instead of a second copy.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const again = page.getByRole('dialog');
  await again.getByLabel('Address of the page').fill(`${w.siteOrigin}/article`);
  await expect(again.getByRole('heading', { name: 'Already saved: edit it' })).toBeVisible(READ);
  await expect(again.getByText(/You saved this page before, in Unsorted/)).toBeVisible();
  await expect(again.getByLabel('Title')).toHaveValue('Tide tables of the North Sea');
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
  expect((await w.s.api('GET', `/bookmarks/0?search=${encodeURIComponent('#coast')}`, { token: w.token })).body.count).toBe(1);

  // Bulk: all of Reading to Work, then Undo.
  await page.getByRole('listitem', { name: 'Reading' }).getByRole('button', { name: /Reading/ }).first().click();
  await expect(page.locator('.bookmark')).toHaveCount(3);
  const reading = await w.titles(page);
  await page.getByRole('checkbox', { name: 'Select all shown' }).check();
  await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Work' });
  await expect(page.locator('.bookmark')).toHaveCount(0);
  expect((await w.apiTitles(w.ids.work)).sort()).toEqual([...reading, 'Quarterly report', 'Team offsite notes'].sort());
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('.bookmark')).toHaveCount(3);
  expect((await w.apiTitles(w.ids.reading)).sort()).toEqual([...reading].sort());

  // The detail pane: a row opens it; a changed title is saved when the field is left.
  await page.locator('.bookmark', { hasText: 'Reading the harbour charts' }).locator('.meta').click();
  const title = page.locator('#d-title');
  await expect(title).toHaveValue('Reading the harbour charts');
  await title.fill('Reading harbour charts at night');
  await title.press('Tab');
  await expect(page.locator('.save-state')).toHaveText('Saved');
  expect((await w.bookmark(w.ids['Reading the harbour charts'])).title).toBe('Reading harbour charts at night');
  // All of it under the app's strict policy (no inline script or style): nothing was blocked.
  expect(await w.blocked(page)).toEqual([]);
});

test('phone 390x844 with touch: drawer, Select mode, bulk move with Undo, full-screen detail, save by address', async ({ browser }) => {
  const { context, page } = await phone(browser);
  try {
    await w.signIn(page, `/?c=${w.ids.work}`);
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
    // The focus moves into the drawer (a screen reader reads where it is), on the place shown.
    await expect(page.getByRole('listitem', { name: 'Work' }).getByRole('button', { name: /Work/ }).first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: 'Collections' })).toBeHidden();
    await expect(menu).toBeFocused();
    await menu.tap();
    await page.getByRole('listitem', { name: 'Reading' }).getByRole('button', { name: /Reading/ }).first().tap();
    await expect(page.getByRole('navigation', { name: 'Collections' })).toBeHidden();
    await expect(page.locator('.bookmark')).toHaveCount(3);
    const reading = await w.titles(page);

    // Select mode: taps pick rows; the bulk bar moves them; Undo puts them back.
    await expect(page.getByRole('toolbar', { name: 'Bulk actions' })).toBeHidden();
    await page.getByRole('button', { name: 'Select', exact: true }).tap();
    await page.locator('.bookmark').nth(0).locator('.meta').tap();
    await page.locator('.bookmark').nth(1).locator('.meta').tap();
    await expect(page.getByText('2 selected')).toBeVisible();
    await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Work' });
    await expect(page.locator('.bookmark')).toHaveCount(1);
    expect(await w.apiTitles(w.ids.reading)).toEqual([reading[2]]);
    await page.getByRole('button', { name: 'Undo' }).tap();
    await expect(page.locator('.bookmark')).toHaveCount(3);
    expect((await w.apiTitles(w.ids.reading)).sort()).toEqual([...reading].sort());
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
    expect((await w.bookmark(w.ids['Storm surge warnings'])).title).toBe('Storm surge warnings, North Sea');
    await page.getByRole('button', { name: 'Back' }).tap();
    await expect(detail).toBeHidden();
    // The phone's own Back closes the pane too, and stays in the same place.
    const here = page.url();
    await page.locator('.bookmark').first().locator('.meta').tap();
    await expect(detail).toBeVisible();
    await page.goBack();
    await expect(detail).toBeHidden();
    expect(page.url()).toBe(here);
    await expect(page.locator('.bookmark')).toHaveCount(3);
    expect(await noSideScroll()).toBe(true);

    // Save by address from the ＋ button.
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    const form = page.getByRole('dialog', { name: 'Save a page' });
    await form.getByLabel('Address of the page').fill(`${w.siteOrigin}/phone`);
    await expect(form.getByLabel('Title')).toHaveValue('Tide tables of the Baltic', READ);
    // Into another collection than the one shown.
    await form.getByRole('combobox', { name: 'Collection' }).tap();
    await form.getByRole('option', { name: 'Work' }).tap();
    await expect(form.getByRole('combobox', { name: 'Collection' })).toHaveValue('Work');
    await form.getByRole('button', { name: 'Save', exact: true }).tap();
    await expect(page.getByRole('status').filter({ hasText: 'Saved in Work.' })).toBeVisible();
    expect(await w.apiTitles(w.ids.work)).toContain('Tide tables of the Baltic');
    expect(await w.apiTitles(w.ids.reading)).not.toContain('Tide tables of the Baltic');
    expect(await w.blocked(page)).toEqual([]);
  } finally {
    await context.close();
  }
});

test('the installed app reopens offline with the last list, marked offline, and refuses changes', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await w.signIn(page, `/?c=${w.ids.work}`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The worker controls the page from its next load: that load's answers are what it keeps.
    await page.reload();
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    const shown = await w.apiTitles(w.ids.work);
    await expect.poll(() => w.titles(page)).toEqual(shown);

    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => w.titles(page)).toEqual(shown);
    await expect(page.getByText(/^You are offline\. Tidemark shows what it last loaded/)).toBeVisible();
    await expect(page.locator('.offline-badge')).toHaveText(/^Offline — showing what was loaded at /);

    await page.locator('.bookmark').first().locator('.meta').click();
    await page.locator('#d-title').fill('Changed offline');
    await page.locator('#d-title').press('Tab');
    await expect(page.locator('.save-state')).toHaveText("You are offline: this change was not saved. Try again when you're back online.");
    // The reader's code, loaded on first use, comes from this device's copy too.
    await page.getByRole('button', { name: `Read “${shown[1]}”` }).click();
    await expect(page.getByRole('region', { name: 'Reader' }).getByRole('heading', { level: 1 })).toHaveText(shown[1]);
    await context.setOffline(false);
    expect(await w.apiTitles(w.ids.work)).toEqual(shown);
  } finally {
    await context.close();
  }
});

test('the share target opens the save form filled in, and one tap saves', async ({ browser }) => {
  const { context, page } = await phone(browser);
  try {
    await w.signIn(page, '/');
    await page.goto(`${w.s.origin}/share?title=${encodeURIComponent('From the share sheet')}&text=${encodeURIComponent(`Look at this ${w.siteOrigin}/shared`)}`);
    await expect(page).toHaveURL(/\/\?save=/);
    const form = page.getByRole('dialog', { name: 'Save a page' });
    await expect(form.getByLabel('Address of the page')).toHaveValue(`${w.siteOrigin}/shared`);
    await expect(form.getByLabel('Title')).toHaveValue('From the share sheet');
    await expect(form.getByLabel('Excerpt')).toHaveValue(/When the water turns/, READ);
    await form.getByRole('button', { name: 'Save', exact: true }).tap();
    await expect(page.getByRole('status').filter({ hasText: 'Saved in Unsorted.' })).toBeVisible();
    await expect(page).not.toHaveURL(/save=/);
    const found = (await w.s.api('GET', `/bookmarks/-1?search=${encodeURIComponent('"From the share sheet"')}`, { token: w.token })).body.items;
    expect(found.map((b: { link: string }) => b.link)).toEqual([`${w.siteOrigin}/shared`]);
  } finally {
    await context.close();
  }
});
