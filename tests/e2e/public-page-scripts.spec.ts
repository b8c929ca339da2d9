// In Chromium: a public collection's page shows what its owner typed as text, never as markup. The
// titles, note, excerpt, tag and address below try to run a script (inline handlers, a script
// element, a frame, quotes breaking out of an attribute); none runs, with the page's
// Content-Security-Policy and without it (escaping alone must hold; the policy is the second wall),
// and each reads back as the text typed.
import { expect, test, type Page } from '@playwright/test';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let pageUrl: string;

const HOSTILE = {
  collection: 'Reefs <img src=x onerror="window.__ran=\'collection\'">',
  child: 'Inner <svg onload="window.__ran=\'child\'"></svg>',
  title: 'Tide <script>window.__ran="title"</script>',
  excerpt: '"><img src=x onerror="window.__ran=\'excerpt\'">',
  note: '</p><iframe srcdoc="<script>parent.__ran=1</script>"></iframe>',
  tag: '<b onmouseover=alert(1)>',
};

test.beforeAll(async () => {
  s = await startServer();
  const { token } = await s.createUser('public-owner@example.test');
  const folder = await s.createItem('/collection', token, { title: HOSTILE.collection, public: true });
  await s.createItem('/collection', token, { title: HOSTILE.child, public: true, parent: { $id: folder._id } });
  await s.createItem('/bookmark', token, { link: 'https://reefs.example/a', title: HOSTILE.title, excerpt: HOSTILE.excerpt, note: HOSTILE.note, tags: [HOSTILE.tag], collection: { $id: folder._id } });
  await s.createItem('/bookmark', token, { link: `https://reefs.example/b?q="onmouseover="window.__ran='href'`, title: 'Quotes in the address', collection: { $id: folder._id } });
  pageUrl = folder.publicUrl;
});

test.afterAll(() => s?.close());

async function expectInert(page: Page) {
  await expect(page.locator('h1')).toHaveText(HOSTILE.collection);
  // Everything typed is text: no element came from it ...
  expect(await page.locator('script, iframe, svg, img[src="x"], b').count()).toBe(0);
  await expect(page.getByRole('heading', { level: 2, name: HOSTILE.title })).toBeVisible();
  await expect(page.getByText(HOSTILE.excerpt)).toBeVisible();
  await expect(page.getByText(HOSTILE.note)).toBeVisible();
  await expect(page.getByText(`#${HOSTILE.tag}`)).toBeVisible();
  await expect(page.getByRole('link', { name: HOSTILE.child })).toBeVisible();
  // ... the address with quotes stays one attribute ...
  const quoted = page.getByRole('link', { name: 'Quotes in the address' });
  expect(await quoted.evaluate((a) => a.getAttributeNames().sort())).toEqual(['href', 'rel']);
  // ... and nothing ran (hovering what could carry a handler too).
  await page.getByText(`#${HOSTILE.tag}`).hover();
  await quoted.hover();
  expect(await page.evaluate(() => (window as unknown as { __ran?: unknown }).__ran)).toBeUndefined();
}

test('the public page runs nothing its owner typed, as served', async ({ page }) => {
  const answer = await page.goto(pageUrl);
  expect(answer?.headers()['content-security-policy']).toContain("default-src 'none'");
  await expectInert(page);
});

test('the public page runs nothing its owner typed, without its Content-Security-Policy', async ({ page }) => {
  await page.route(pageUrl, async (route) => {
    const res = await route.fetch();
    const headers = { ...res.headers() };
    delete headers['content-security-policy'];
    await route.fulfill({ response: res, headers });
  });
  const answer = await page.goto(pageUrl);
  expect(answer?.headers()['content-security-policy']).toBeUndefined();
  await expectInert(page);
});
