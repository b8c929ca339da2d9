// The page's text in the web app, on a phone, against the real server: a search that matched in a
// page's text shows the snippet under the title (as text: markup in the page stays text), and a text
// the server could not read shows why in the detail pane, with a Retry that reaches the server.
import { expect, test } from '@playwright/test';
import { phone, startWebBackend, type WebBackend } from './helpers/web-app.js';

let w: WebBackend;
test.beforeAll(async () => {
  w = await startWebBackend('web-app-text@example.test');
});
test.afterAll(() => w?.close());

test('a phone finds a page by its text with the snippet, and retries a text that failed', async ({ browser }) => {
  const link = 'https://lighthouses.example/ar-men';
  const made = await w.s.createItem('/bookmark', w.token, { link, title: 'Ar-Men' });
  const html = `<!doctype html><html><head><title>Ar-Men</title></head><body><article><h1>Ar-Men</h1>
<p>Built on a rock off the Île de Sein, the keepers called it &lt;img src=x onerror=alert(1)&gt; hell among hells; the granite lantern room took fourteen years to raise.</p>
<p>${'Waves break over the tower in winter storms, and the keepers waited weeks for relief. '.repeat(6)}</p></article></body></html>`;
  const put = await w.s.api('PUT', `/bookmark/${made._id}/article`, { token: w.token, body: { html, url: link } });
  expect(put.body.status).toBe('indexed');
  const closed = await w.s.createItem('/bookmark', w.token, { link: 'https://members.example/keepers', title: 'Keepers’ logbooks' });
  await w.s.app.repos.articles.markFailed(closed._id, 'the site answered 403 (forbidden)', null);

  const { context, page } = await phone(browser);
  try {
    await w.signIn(page);
    await page.getByRole('combobox', { name: 'Search the library' }).fill('"granite lantern"');
    await expect(page.locator('.bookmark')).toHaveCount(1);
    const snippet = page.locator('.bookmark .snippet');
    await expect(snippet.locator('mark')).toHaveText(['granite lantern']);
    await expect(snippet).toContainText('<img src=x onerror=alert(1)> hell among hells');
    expect(await snippet.evaluate((p) => [...p.querySelectorAll('*')].map((e) => e.tagName))).toEqual(['MARK']);

    await page.getByRole('combobox', { name: 'Search the library' }).fill('logbooks');
    await page.locator('.bookmark', { hasText: 'Keepers’ logbooks' }).locator('.meta').click();
    const state = page.getByTestId('text-state');
    await expect(state).toContainText('Page text could not be read: the site answered 403 (forbidden)');
    await state.getByRole('button', { name: 'Retry' }).click();
    // The server took the retry: the refusal is gone (its text job may read the page, or fail anew, at once).
    await expect(state).not.toContainText('403');
    expect((await w.s.api('GET', `/bookmark/${closed._id}/article`, { token: w.token })).body.error).not.toContain('403');
  } finally {
    await context.close();
  }
});
