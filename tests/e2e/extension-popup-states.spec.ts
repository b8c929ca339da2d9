// What the popup and the options page tell a person, in Chromium against the real server: a server
// address that is not Tidemark, pages no extension may read, signed out, a cut title, and text at a
// readable size (Chrome's stylesheet for extension pages shrinks body text to 75 %).
import { expect, test } from './helpers/extension-test.js';
import type { Page } from '@playwright/test';

let tab: Page;

test.describe.configure({ mode: 'serial' });

test.use({ account: { email: 'states@example.test', name: 'Stella States' }, launch: { signedIn: false, toolbarButton: true } });

test.beforeAll(async ({ extension: browser }) => {
  tab = await browser.context.newPage();
});

/** The computed font size (px) of body text and of the form controls on an extension page. */
const fontSizes = (page: Page) =>
  page.evaluate(() => {
    const px = (el: Element | null) => (el ? parseFloat(getComputedStyle(el).fontSize) : Infinity);
    const controls = [...document.querySelectorAll('input, textarea, button, select, label, p, li')];
    return { body: px(document.body), smallest: Math.min(...controls.map(px)) };
  });

test('signed out: the popup offers "Sign in" and one Options control; text is at least 13 px', async ({ site, extension: browser }) => {
  const url = site.add('/states-signed-out', { title: 'Signed out page' });
  await tab.goto(url);
  const popup = await browser.openPopup(tab);
  await expect(popup.getByText('You are not signed in')).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Options' })).toHaveCount(1);
  const sizes = await fontSizes(popup);
  expect(sizes.body).toBeGreaterThanOrEqual(13);
  expect(sizes.smallest).toBeGreaterThanOrEqual(13);
  await popup.close();
});

test('options: an address that is not a Tidemark server says so; a later success clears the error and closes the token section', async ({ server, site, token, extension: browser }) => {
  const options = await browser.options();
  const sizes = await fontSizes(options);
  expect(sizes.body).toBeGreaterThanOrEqual(13);
  expect(sizes.smallest).toBeGreaterThanOrEqual(13);

  // The test site answers every path with a web page.
  await options.getByLabel('Server URL').fill(site.origin);
  await options.getByText('Advanced: paste a test token').click();
  await options.getByLabel('Test token').fill(token);
  await options.getByRole('button', { name: 'Use token' }).click();
  await expect(options.getByRole('alert')).toHaveText(/^This address did not answer like a Tidemark server \(it returned an HTML page\)\./);
  await expect(options.getByText(/reading '_id'/)).toHaveCount(0);

  await options.getByLabel('Server URL').fill(server.origin);
  await options.getByRole('button', { name: 'Use token' }).click();
  await expect(options.getByRole('status').filter({ hasText: 'Signed in as Stella States' })).toBeVisible();
  await expect(options.getByRole('alert')).toHaveCount(0);
  await expect(options.getByLabel('Test token')).toHaveCount(0);
  await expect(options.getByRole('button', { name: 'Use token' })).toHaveCount(0);
  await options.close();
});

test('chrome:// pages: after a click on the toolbar button the popup says this kind of page cannot be saved', async ({ extension: browser }) => {
  await tab.goto('chrome://version');
  const popup = await browser.clickToolbarButton(tab);
  await expect(popup.getByText('This kind of page cannot be saved')).toBeVisible();
  await expect(popup.getByText('cannot see this tab')).toHaveCount(0);
  await popup.close();
});

test('a page title longer than Tidemark keeps is cut, and the popup says so next to it', async ({ site, extension: browser }) => {
  const long = `A very long title ${'that goes on '.repeat(60)}and ends here`;
  const url = site.add('/states-long-title', { title: long });
  await tab.goto(url);
  const popup = await browser.clickToolbarButton(tab);
  await expect(popup.getByRole('status')).toHaveText('Saved');
  const title = popup.getByLabel('Title');
  await expect(title).toHaveValue(/…$/);
  expect((await title.inputValue()).length).toBe(500);
  await expect(popup.getByText('was longer than 500 characters, so it was cut')).toBeVisible();
  const sizes = await fontSizes(popup);
  expect(sizes.body).toBeGreaterThanOrEqual(13);
  expect(sizes.smallest).toBeGreaterThanOrEqual(13);
  await popup.close();
});

test('the library uses the same type scale: no text under 13 px', async ({ extension: browser }) => {
  const library = await browser.context.newPage();
  await library.goto(browser.url('library.html'));
  await expect(library.locator('.bookmark').first()).toBeVisible();
  const small = await library.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.children.length === 0 && (el.textContent ?? '').trim() && parseFloat(getComputedStyle(el).fontSize) < 13)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${getComputedStyle(el).fontSize}`),
  );
  expect(small).toEqual([]);
  expect(parseFloat(await library.evaluate(() => getComputedStyle(document.body).fontSize))).toBeGreaterThanOrEqual(13);
  await library.close();
});

test('options: a Highlights section says what site access does, and reflects whether it is granted', async ({ extension: browser }) => {
  const options = await browser.options();
  const section = options.getByRole('region', { name: 'Highlights' });
  await expect(section.getByLabel('Let Tidemark read the sites you visit')).not.toBeChecked();
  await expect(section).toContainText('highlight with the context menu');
  await expect(options.getByText('Opening the side panel (highlights and notes) has no key until you pick one')).toBeVisible();
  await options.close();
});

test('while the bookmark is found or saved, the popup holds the room of the form that comes next (the Highlights section is shown already)', async ({ site, extension: browser }) => {
  const url = site.add('/states-room', { title: 'Room to edit', body: '<p>How the sea keeps time.</p>' });
  await tab.goto(url);
  const popup = await browser.clickToolbarButton(tab);
  await expect(popup.getByRole('status')).toHaveText('Saved');
  await expect(popup.getByTestId('highlight-summary')).toBeVisible();
  const room = await popup.evaluate(() => {
    // From the header's bottom, so that the first field's top margin (which the form passes on) counts.
    const headerBottom = document.querySelector('main header')!.getBoundingClientRect().bottom;
    const form = document.querySelector('main form')!;
    const editing = form.getBoundingClientRect().bottom - headerBottom;
    const held = document.createElement('div');
    held.className = 'pending-space';
    form.before(held);
    const pending = held.getBoundingClientRect().bottom - headerBottom;
    held.remove();
    return { editing, pending };
  });
  expect(room.editing).toBeGreaterThan(400);
  expect(Math.abs(room.pending - room.editing)).toBeLessThanOrEqual(3);
  await popup.close();
});
