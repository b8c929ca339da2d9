// The page's text as the user sees it, in Chromium with the built extension against the real server:
// an article a script inserts after load (the server's own fetch never sees it) is sent at save time
// and found in the library by a phrase of it, with the snippet under the title; "Update text" sends the
// page again after it changed; a text the server could not read shows why, with a Retry.
//
// The page is served on 127.0.0.1, a host the extension may not read by itself: only the real toolbar
// press (CDP Extensions.triggerAction) grants access to the tab, as for a person.
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/extension-test.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import { bookmarkOf } from './helpers/highlighting.js';

test.use({ account: { email: 'text-capture@example.test', name: 'Tess Capture' }, launch: { toolbarButton: true } });
test.describe.configure({ mode: 'serial' });

const FIRST = 'the brass tide gauge at Brest has counted the sea since 1711';
const SECOND = 'a copper buoy lantern blinks twice over the sandbank';

/** The article the page's script writes once the page has loaded. */
const ARTICLE = `<article><h2>Harbour records</h2><p>Every morning ${FIRST}, and the keepers write the figures down by hand.</p>
<p>${'The records fill a long shelf in the harbour office, one ledger for each year. '.repeat(8)}</p></article>`;
/** The page as served: its script carries the article base64-encoded, so its HTML holds none of the article's words. */
const LATE_ARTICLE = `<main id="app"><p>Loading the article…</p></main>
<script>
  addEventListener('load', () => {
    document.getElementById('app').innerHTML = new TextDecoder().decode(Uint8Array.from(atob('${Buffer.from(ARTICLE).toString('base64')}'), (c) => c.charCodeAt(0)));
  });
</script>`;

let url = '';
let id = 0;

async function articleStatus(server: TidemarkServer, token: string, bookmarkId: number): Promise<string> {
  return (await server.api('GET', `/bookmark/${bookmarkId}/article`, token)).body.status;
}

/** Types a search into the library's search box. */
async function searchLibrary(page: Page, query: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Search the library' }).fill(query);
}

test('a page whose article a script wrote is found in the library by a phrase of it, its snippet under the title', async ({ server, site, token, extension }) => {
  url = site.add('/harbour', { title: 'Harbour records', body: LATE_ARTICLE }).replace('localhost', '127.0.0.1');
  // What the server's own fetch of the address gets: no article.
  expect(await (await fetch(url)).text()).not.toContain('brass tide gauge');

  const page = await extension.context.newPage();
  await page.goto(url);
  await expect(page.getByText(FIRST, { exact: false })).toBeVisible();
  const popup = await extension.clickToolbarButton(page);
  await expect(popup.getByRole('status')).toHaveText('Saved');
  id = (await bookmarkOf(server, token, url))!._id;
  // The upload follows the save. Waited for generously: on a busy machine the server's parse pool may
  // still be starting its first worker.
  await expect.poll(() => articleStatus(server, token, id), { timeout: 30_000 }).toBe('indexed');
  expect(server.requests).toContain(`PUT /rest/v1/bookmark/${id}/article`);

  const library = await extension.context.newPage();
  await library.goto(extension.url('library.html'));
  await library.setViewportSize({ width: 1280, height: 800 });
  await searchLibrary(library, '"brass tide gauge"');
  const row = library.locator('.bookmark').filter({ hasText: 'Harbour records' });
  await expect(library.locator('.bookmark')).toHaveCount(1);
  const snippet = row.locator('.snippet');
  await expect(snippet).toContainText('brass tide gauge at Brest');
  await expect(snippet.locator('mark')).toHaveText(['brass tide gauge']);
  // Only <mark> elements: the snippet is text.
  expect(await snippet.evaluate((p) => [...p.querySelectorAll('*')].map((e) => e.tagName))).toEqual(['MARK']);

  await row.click();
  await expect(library.getByTestId('text-state')).toHaveText('Page text: saved and searchable');
  await library.close();
});

test('"Update text" in the popup sends the page again after it changed', async ({ server, token, extension }) => {
  const page = extension.context.pages().find((p) => p.url() === url)!;
  await page.evaluate((text) => {
    document.querySelector('article p')!.textContent = `Since the storm ${text}, and the gauge is gone.`;
  }, SECOND);
  const popup = await extension.clickToolbarButton(page);
  await expect(popup.getByRole('status')).toHaveText('Already saved: editing it');
  const puts = server.requests.filter((r) => r === `PUT /rest/v1/bookmark/${id}/article`).length;
  await popup.getByRole('button', { name: 'Update text' }).click();
  await expect(popup.getByTestId('text-outcome')).toHaveText('Text updated', { timeout: 30_000 });
  expect(server.requests.filter((r) => r === `PUT /rest/v1/bookmark/${id}/article`)).toHaveLength(puts + 1);

  const library = await extension.context.newPage();
  await library.goto(extension.url('library.html'));
  await searchLibrary(library, '"copper buoy lantern"');
  await expect(library.locator('.bookmark')).toHaveCount(1);
  await expect(library.locator('.bookmark .snippet mark')).toHaveText(['copper buoy lantern']);
  // The old article is gone from the text: its phrase no longer finds the page.
  await searchLibrary(library, '"brass tide gauge"');
  await expect(library.getByText('Nothing matches “"brass tide gauge"”.')).toBeVisible();
  expect(await articleStatus(server, token, id)).toBe('indexed');
  await library.close();
});

test('a text the server could not read shows why, and Retry asks for it again', async ({ server, token, extension }) => {
  const made = await server.api('POST', '/bookmark', token, { link: 'https://closed.example/members-only', title: 'Members only' });
  expect(made.status).toBe(200);
  const closedId = made.body.item._id as number;
  // What the server's text job keeps when the site refuses it (the job itself is tested on the server).
  await server.app!.repos.articles.markFailed(closedId, 'the site answered 403 (forbidden)', null);

  const library = await extension.context.newPage();
  await library.goto(extension.url('library.html'));
  await library.setViewportSize({ width: 1280, height: 800 });
  await library.locator('.bookmark').filter({ hasText: 'Members only' }).click();
  const state = library.getByTestId('text-state');
  await expect(state).toContainText('Page text could not be read: the site answered 403 (forbidden)');
  await state.getByRole('button', { name: 'Retry' }).click();
  // The server took the retry: the refusal is gone (its text job may read the page, or fail anew, at once).
  await expect(state).not.toContainText('403');
  expect(server.requests).toContain(`POST /rest/v1/bookmark/${closedId}/article/retry`);
  await library.close();
});
