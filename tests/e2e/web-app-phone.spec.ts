// The web app on the narrowest phone the issue names, 360 px wide with touch: every control a finger
// taps, in the list, the drawer, Select mode, the detail pane, the save form and the account menu, is
// at least 44x44 px, and nothing scrolls sideways. A row is one target: a tap on its title opens the
// bookmark (or picks it in Select mode), not the page behind a line of text.
import { expect, test, type Locator } from '@playwright/test';
import { sideScroll, smallTargets } from './helpers/touch-targets.js';
import { startWebBackend, type WebBackend } from './helpers/web-app.js';

let w: WebBackend;
test.beforeAll(async () => {
  w = await startWebBackend('web-app-phone@example.test');
});
test.afterAll(() => w?.close());

test('at 360 px: every control is a 44 px target, nothing scrolls sideways, a row is one target', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  /** A finger on the middle of what `target` shows, whatever element takes the tap there. */
  const tapOn = async (target: Locator) => {
    const box = (await target.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  };
  const fits = async (where: string) => {
    expect(await smallTargets(page), `controls under 44 px: ${where}`).toEqual([]);
    expect(await sideScroll(page), `sideways scroll: ${where}`).toBe(0);
  };
  try {
    await w.signIn(page, `/?c=${w.ids.reading}`);
    await expect(page.locator('.bookmark')).toHaveCount(3);
    await fits('the list');
    // The sort and export menus keep room for their words.
    expect((await page.getByRole('combobox', { name: 'Sort by' }).boundingBox())!.width).toBeGreaterThanOrEqual(120);
    expect((await page.getByLabel('Export', { exact: true }).boundingBox())!.width).toBeGreaterThanOrEqual(120);

    const drawer = page.getByRole('navigation', { name: 'Collections' });
    await page.getByRole('button', { name: 'Collections menu' }).tap();
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveCSS('transform', 'none'); // slid fully in
    await fits('the drawer');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    // A tap on the title opens the bookmark here, with no new tab.
    await tapOn(page.locator('.bookmark .title', { hasText: 'Storm surge warnings' }));
    await expect(page.locator('#d-title')).toHaveValue('Storm surge warnings');
    expect(context.pages()).toHaveLength(1);
    await fits('the detail pane');
    await page.getByRole('button', { name: 'Back' }).tap();
    await expect(page.locator('.detail')).toBeHidden();

    // In Select mode a tap on the title picks the row.
    await page.getByRole('button', { name: 'Select', exact: true }).tap();
    await tapOn(page.locator('.bookmark .title', { hasText: 'Neap and spring tides' }));
    await expect(page.getByText('1 selected')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Select Neap and spring tides' })).toBeChecked();
    expect(context.pages()).toHaveLength(1);
    await fits('Select mode with the bulk bar');
    await page.getByRole('button', { name: 'Done', exact: true }).tap();

    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    const form = page.getByRole('dialog', { name: 'Save a page' });
    await form.getByLabel('Address of the page').fill(`${w.siteOrigin}/article`);
    await expect(form.getByLabel('Title')).toHaveValue('Tide tables of the North Sea', { timeout: 15_000 });
    await fits('the save form');
    await form.getByRole('button', { name: 'Cancel' }).tap();
    await expect(form).toBeHidden();

    await page.getByLabel('Export', { exact: true }).tap();
    await expect(page.getByRole('button', { name: 'CSV (spreadsheet)' })).toBeVisible();
    await fits('the export menu');
    await page.getByLabel('Export', { exact: true }).tap();
    await expect(page.getByRole('button', { name: 'CSV (spreadsheet)' })).toBeHidden();

    await page.getByLabel('Account and sign out').tap();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await fits('the account menu');
  } finally {
    await context.close();
  }
});
