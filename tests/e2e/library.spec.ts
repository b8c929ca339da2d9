// The library page end to end in Chromium against the real server: opened from the popup, search
// with the full language checked against the API's own answer, bulk move and Undo, a highlight
// opened from the highlights view scrolled to on its page, the omnibox handler, and export +
// re-import. With LIBRARY_SHOTS=<dir> it also saves a screenshot of every view there.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';
import { dropInPage } from './helpers/page-reading.js';
import { joinLinkIn, lastMailTo } from '../server/sharing-mail.js';
import { noteBox } from './helpers/note-box.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;
let library: Page;
const ids: Record<string, number> = {};
const SHOTS = process.env.LIBRARY_SHOTS;

test.describe.configure({ mode: 'serial' });

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Titles of the rows the list shows, in order. */
const shownTitles = (page: Page) => page.locator('.bookmark .title').allTextContents();

async function allOfApi(search: string, collectionId = 0): Promise<string[]> {
  const res = await server.api('GET', `/bookmarks/${collectionId}?search=${encodeURIComponent(search)}&sort=score&perpage=50`, token);
  expect(res.status).toBe(200);
  return res.body.items.map((b: { title: string }) => b.title);
}

test.beforeAll(async () => {
  // A Pro user: permanent copies ("Open saved copy") are part of the paid plan.
  ({ server, site, token } = await startBackend({ email: 'librarian@example.test', name: 'Lib Rarian', pro: true }));
  const make = async (title: string, body: Record<string, unknown>) => {
    const res = await server.api('POST', '/collection', token, { title, ...body });
    expect(res.status).toBe(200);
    return res.body.item._id as number;
  };
  ids.research = await make('Research', {});
  ids.papers = await make('Papers', { parent: { $id: ids.research } });
  ids.recipes = await make('Recipes', {});
  const long = `${'<p>Filler paragraph to push the quote far down the page.</p>'.repeat(120)}<p id="quote">The tide waits for no one, and the moon keeps its own time.</p>`;
  const highlightPage = site.add('/tides', { title: 'Tide tables', body: long });
  const items = [
    { link: highlightPage, title: 'Tide tables', tags: ['ocean', 'science'], collectionId: ids.papers, created: '2024-06-02T10:00:00Z', important: true, note: 'Keep for the trip' },
    { link: 'https://essays.example/storms', title: 'Storm season', tags: ['ocean', 'storm'], collectionId: ids.papers, created: '2024-07-01T10:00:00Z' },
    { link: 'https://essays.example/currents', title: 'Currents & <eddies>', tags: ['ocean'], collectionId: ids.research, created: '2024-08-15T10:00:00Z', excerpt: 'How the tide moves water' },
    { link: 'https://other.example/bread', title: 'Sourdough basics', tags: ['baking'], collectionId: ids.recipes, created: '2023-03-01T10:00:00Z' },
    { link: 'https://other.example/soup', title: 'Fish soup', tags: ['ocean', 'cooking'], collectionId: ids.recipes, created: '2024-09-01T10:00:00Z' },
    ...Array.from({ length: 8 }, (_, i) => ({
      link: `https://loose.example/note-${i}`,
      title: `Loose note ${i}`,
      tags: i % 2 ? ['misc'] : [],
      collectionId: -1,
      created: `2024-0${(i % 9) + 1}-0${(i % 8) + 1}T09:00:00Z`,
    })),
  ];
  const res = await server.api('POST', '/bookmarks', token, { items });
  expect(res.status).toBe(200);
  for (const b of res.body.items) ids[b.title] = b._id;
  const hl = await server.api('PUT', `/bookmark/${ids['Tide tables']}`, token, {
    highlights: [{ text: 'the moon keeps its own time', color: 'blue', note: 'Lovely line' }],
  });
  expect(hl.status).toBe(200);
  await server.api('PUT', `/bookmark/${ids['Storm season']}`, token, { highlights: [{ text: 'Storm season', color: 'red' }] });
  browser = await launchSignedIn(server, token);
});

test.afterAll(() => closeAll(browser, site, server));

test('opens from the popup and shows the first page of the list', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.add('/start', { title: 'Start page' }));
  const popup = await browser.openPopup(page);
  await popup.getByRole('button', { name: 'Open library' }).click();
  library = await browser.waitForPage(browser.url('library.html'));
  await library.setViewportSize({ width: 1280, height: 800 });
  await expect(library.locator('.count-line')).toHaveText(/^1[45] bookmarks$/);
  const api = await server.api('GET', '/bookmarks/0?perpage=50', token);
  await expect(library.locator('.bookmark')).toHaveCount(api.body.count);
  expect(await shownTitles(library)).toEqual(api.body.items.map((b: { title: string }) => b.title));
  // The sidebar: system collections and the nested tree with counts.
  await expect(library.getByRole('listitem', { name: /Research/ })).toBeVisible();
  await expect(library.getByRole('listitem', { name: /Papers/ })).toContainText('2');
  await shot(library, '01-list');
  await library.getByRole('button', { name: 'Compact' }).click();
  await expect(library).toHaveURL(/view=compact/);
  await shot(library, '02-compact');
  await library.getByRole('button', { name: 'List' }).click();
});

test('searches with the full language; the list is the API\'s answer; the query lives in the address', async () => {
  const query = '#ocean -storm domain:essays.example created:>2024-01 "tide" ';
  await library.keyboard.press('/');
  await expect(library.getByRole('combobox', { name: 'Search the library' })).toBeFocused();
  await library.keyboard.type(query);
  const expected = await allOfApi(query.trim());
  expect(expected).toEqual(['Currents & <eddies>']);
  await expect.poll(() => shownTitles(library)).toEqual(expected);
  await expect(library).toHaveURL(/q=%23ocean/);

  // Five more operators at once: favourite, highlights, note, tag, negated word.
  const second = '❤️ highlights:true note:true #science -storm';
  await library.getByRole('combobox', { name: 'Search the library' }).fill(second);
  const expected2 = await allOfApi(second);
  expect(expected2).toEqual(['Tide tables']);
  await expect.poll(() => shownTitles(library)).toEqual(expected2);

  // Reload and back keep the search.
  await library.reload();
  await expect(library.getByRole('combobox', { name: 'Search the library' })).toHaveValue(second);
  await expect.poll(() => shownTitles(library)).toEqual(expected2);

  // Nothing matches: it says so and offers to clear the search.
  await library.getByRole('combobox', { name: 'Search the library' }).fill('zzzunmatched');
  await expect(library.getByText('Nothing matches “zzzunmatched”.')).toBeVisible();
  await shot(library, '03-empty-result');
  await library.getByRole('button', { name: 'Clear the search' }).click();
  await expect(library.locator('.bookmark')).toHaveCount((await server.api('GET', '/bookmarks/0', token)).body.count);
  await expect(library).not.toHaveURL(/q=/);
});

test('bulk moves 3 bookmarks in one call and Undo puts them back', async () => {
  const unsorted = (await server.api('GET', '/bookmarks/-1', token)).body.count as number;
  await library.getByRole('button', { name: /^Unsorted/ }).click();
  await expect(library.locator('.bookmark')).toHaveCount(unsorted);
  const before = server.requests.length;
  const rows = library.locator('.bookmark');
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(2).getByRole('checkbox').click({ modifiers: ['Shift'] });
  await expect(library.getByText('3 selected')).toBeVisible();
  await shot(library, '04-bulk-bar');
  const moved = (await shownTitles(library)).slice(0, 3);
  await library.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Recipes' });
  await expect(library.locator('.bookmark')).toHaveCount(unsorted - 3);
  const calls = server.requests.slice(before).filter((r) => r.startsWith('PUT /rest/v1/bookmarks/'));
  expect(calls).toEqual(['PUT /rest/v1/bookmarks/-1']);
  const inRecipes = (await server.api('GET', `/bookmarks/${ids.recipes}?perpage=50`, token)).body.items.map((b: { title: string }) => b.title);
  for (const title of moved) expect(inRecipes).toContain(title);

  await library.getByRole('button', { name: 'Undo' }).click();
  await expect(library.locator('.bookmark')).toHaveCount(unsorted);
  const back = (await server.api('GET', '/bookmarks/-1?perpage=50', token)).body.items.map((b: { title: string }) => b.title);
  for (const title of moved) expect(back).toContain(title);
});

test('tags in bulk: "Remove tag" and Undo of tag changes take the fewest calls the API allows', async () => {
  const tagsOf = async (title: string) => (await server.api('GET', `/bookmark/${ids[title]}`, token)).body.item.tags as string[];
  const misc = ['Loose note 1', 'Loose note 3', 'Loose note 5', 'Loose note 7'];
  await library.goto(`${browser.url('library.html')}?c=-1&q=${encodeURIComponent('#misc')}`);
  await expect(library.locator('.bookmark')).toHaveCount(4);
  // The writes, and the tag counts read to choose them (listing, the sidebar and the saved-link index also call).
  const calls = (since: number) => server.requests.slice(since).filter((r) => /^(PUT|DELETE) /.test(r) || r.startsWith('GET /rest/v1/tags/'));

  // Every bookmark of Unsorted carrying #misc is selected: one DELETE /tags/-1 (after one GET to know).
  let before = server.requests.length;
  await library.getByRole('checkbox', { name: 'Select all shown' }).check();
  await library.getByRole('textbox', { name: 'Remove tag' }).fill('misc');
  await library.getByRole('textbox', { name: 'Remove tag' }).press('Enter');
  await expect(library.getByRole('status').filter({ hasText: '#misc removed from 4 bookmarks.' })).toBeVisible();
  expect(calls(before)).toEqual(['GET /rest/v1/tags/-1', 'DELETE /rest/v1/tags/-1']);
  for (const title of misc) expect(await tagsOf(title)).toEqual([]);
  // Undo appends it back: one bulk call.
  before = server.requests.length;
  await library.getByRole('button', { name: 'Undo' }).click();
  await expect(library.locator('.bookmark')).toHaveCount(4);
  expect(calls(before)).toEqual(['PUT /rest/v1/bookmarks/-1']);
  for (const title of misc) expect(await tagsOf(title)).toEqual(['misc']);

  // Three of the four: they end with the same tags (none), so one bulk clear; the fourth keeps it.
  before = server.requests.length;
  const rows = library.locator('.bookmark');
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(2).getByRole('checkbox').click({ modifiers: ['Shift'] });
  const three = (await library.locator('.bookmark.selected .title').allTextContents());
  expect(three).toHaveLength(3);
  await library.getByRole('textbox', { name: 'Remove tag' }).fill('misc');
  await library.getByRole('textbox', { name: 'Remove tag' }).press('Enter');
  await expect(library.getByRole('status').filter({ hasText: '#misc removed from 3 bookmarks.' })).toBeVisible();
  expect(calls(before)).toEqual(['GET /rest/v1/tags/-1', 'PUT /rest/v1/bookmarks/-1']);
  for (const title of misc) expect(await tagsOf(title)).toEqual(three.includes(title) ? [] : ['misc']);
  await library.getByRole('button', { name: 'Undo' }).click();
  await expect(library.locator('.bookmark')).toHaveCount(4);
  for (const title of misc) expect(await tagsOf(title)).toEqual(['misc']);

  // Undo of an added tag takes it off only where it was not before, in one DELETE /tags here.
  await library.getByRole('checkbox', { name: 'Select all shown' }).check();
  await library.getByRole('textbox', { name: 'Add tag' }).fill('later');
  await library.getByRole('textbox', { name: 'Add tag' }).press('Enter');
  await expect(library.getByRole('status').filter({ hasText: '4 bookmarks tagged #later.' })).toBeVisible();
  for (const title of misc) expect(await tagsOf(title)).toEqual(['misc', 'later']);
  before = server.requests.length;
  await library.getByRole('button', { name: 'Undo' }).click();
  await expect(library.getByRole('status').filter({ hasText: 'Undone' })).toBeVisible();
  expect(calls(before)).toEqual(['GET /rest/v1/tags/-1', 'DELETE /rest/v1/tags/-1']);
  for (const title of misc) expect(await tagsOf(title)).toEqual(['misc']);
  await library.goto(`${browser.url('library.html')}?c=-1`);
});

test('the detail pane edits a bookmark; Delete trashes; Trash restores', async () => {
  await library.getByRole('button', { name: /^All bookmarks/ }).click();
  await library.locator('.bookmark', { hasText: 'Fish soup' }).click();
  const detail = library.getByRole('complementary', { name: 'Bookmark' });
  await detail.getByLabel('Note').fill('Needs saffron');
  await detail.getByLabel('Note').blur();
  await expect(detail.getByRole('status')).toHaveText('Saved');
  await expect.poll(async () => (await server.api('GET', `/bookmark/${ids['Fish soup']}`, token)).body.item.note).toBe('Needs saffron');
  // Typed key by key: saved whole, once, when the field is left (not one save per key racing the next).
  const before = server.requests.length;
  await detail.getByLabel('Note').press('End');
  await detail.getByLabel('Note').pressSequentially(', then simmer gently');
  await detail.getByLabel('Title').focus();
  await expect(detail.getByRole('status')).toHaveText('Saved');
  await expect.poll(async () => (await server.api('GET', `/bookmark/${ids['Fish soup']}`, token)).body.item.note).toBe('Needs saffron, then simmer gently');
  expect(server.requests.slice(before).filter((r) => r === `PUT /rest/v1/bookmark/${ids['Fish soup']}`)).toHaveLength(1);
  await shot(library, '05-detail');
  // Delete key trashes the focused bookmark.
  await library.locator('.bookmark', { hasText: 'Fish soup' }).click();
  await library.locator('body').press('Escape');
  await library.locator('body').press('Delete');
  await expect(library.getByText('1 bookmark moved to Trash.')).toBeVisible();
  await library.getByRole('button', { name: /^Trash/ }).click();
  await expect(library.locator('.bookmark', { hasText: 'Fish soup' })).toBeVisible();
  await expect(library.getByRole('button', { name: 'Empty Trash' })).toBeVisible();
  await library.locator('.bookmark', { hasText: 'Fish soup' }).getByRole('checkbox').check();
  await shot(library, '06-trash');
  await library.getByRole('button', { name: 'Restore' }).click();
  await expect(library.getByText('Trash is empty.')).toBeVisible();
  expect((await server.api('GET', `/bookmark/${ids['Fish soup']}`, token)).body.item.collectionId).toBe(-1);
});

test('collections from the sidebar: create, rename, create inside, move back to the top, delete', async () => {
  const sidebar = library.getByRole('navigation', { name: 'Collections' });
  await sidebar.getByRole('button', { name: 'New collection' }).click();
  const dialog = library.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Reading list');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(sidebar.getByRole('listitem', { name: /Reading list/ })).toBeVisible();
  const created = (await server.api('GET', '/collections', token)).body.items.find((c: { title: string }) => c.title === 'Reading list');
  expect(created).toBeDefined();

  await sidebar.getByRole('button', { name: 'Actions for Reading list' }).click();
  await sidebar.getByRole('menuitem', { name: 'Rename' }).click();
  await dialog.getByLabel('Name').fill('To read');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(sidebar.getByRole('listitem', { name: /To read/ })).toBeVisible();
  expect((await server.api('GET', `/collection/${created._id}`, token)).body.item.title).toBe('To read');

  // A collection inside it, then back to the top level.
  await sidebar.getByRole('button', { name: 'Actions for To read' }).click();
  await sidebar.getByRole('menuitem', { name: 'New collection inside' }).click();
  await dialog.getByLabel('Name').fill('Inner');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(sidebar.getByRole('listitem', { name: /To read/ }).getByRole('listitem', { name: /Inner/ })).toBeVisible();
  const inner = (await server.api('GET', '/collections/childrens', token)).body.items.find((c: { title: string }) => c.title === 'Inner');
  expect(inner.parent.$id).toBe(created._id);
  await sidebar.getByRole('button', { name: 'Actions for Inner' }).click();
  await sidebar.getByRole('menuitem', { name: 'Move to the top level' }).click();
  await expect.poll(async () => (await server.api('GET', `/collection/${inner._id}`, token)).body.item.parent?.$id ?? null).toBeNull();

  await sidebar.getByRole('button', { name: 'Actions for To read' }).click();
  await sidebar.getByRole('menuitem', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(sidebar.getByRole('listitem', { name: /To read/ })).toHaveCount(0);
  // That message is not about a bulk change: it offers no Undo.
  await expect(library.getByRole('status').filter({ hasText: 'Collection “To read” deleted' })).toBeVisible();
  await expect(library.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  expect((await server.api('GET', `/collection/${created._id}`, token)).status).toBe(404);
});

/** Drags `from` onto `to` through the page's drag handlers (dropInPage); whether the target accepted it. */
async function drag(page: Page, from: Locator, to: Locator): Promise<boolean> {
  return page.evaluate(dropInPage, [await from.elementHandle(), await to.elementHandle()] as const);
}

const parentOf = async (id: number) => (await server.api('GET', `/collection/${id}`, token)).body.item.parent?.$id ?? null;
const collectionOfBookmark = async (id: number) => (await server.api('GET', `/bookmark/${id}`, token)).body.item.collectionId as number;

test('drag and drop: bookmarks onto a collection move them; a collection onto another nests it', async () => {
  const sidebar = library.getByRole('navigation', { name: 'Collections' });
  const row = (title: string) => library.locator('.bookmark', { hasText: title });
  const item = (name: string) => sidebar.getByRole('listitem', { name, exact: true }).locator('.nav-item').first();
  ids.inner = (await server.api('GET', '/collections', token)).body.items.find((c: { title: string }) => c.title === 'Inner')._id;
  await library.getByRole('button', { name: /^Unsorted/ }).click();
  await expect(row('Loose note 1')).toBeVisible();

  // A row that is not selected drags alone.
  let before = server.requests.length;
  expect(await drag(library, row('Loose note 0'), item('Papers'))).toBe(true);
  await expect(row('Loose note 0')).toHaveCount(0);
  expect(await collectionOfBookmark(ids['Loose note 0'])).toBe(ids.papers);
  expect(server.requests.slice(before).filter((r) => r.startsWith('PUT /rest/v1/bookmarks/'))).toEqual(['PUT /rest/v1/bookmarks/-1']);
  await expect(library.getByRole('status').filter({ hasText: '1 bookmark moved to Papers.' })).toBeVisible();
  await library.getByRole('button', { name: 'Undo' }).click();
  await expect(row('Loose note 0')).toBeVisible();
  expect(await collectionOfBookmark(ids['Loose note 0'])).toBe(-1);

  // Dragging one of the selected rows carries the whole selection, in one call.
  await row('Loose note 1').getByRole('checkbox').check();
  await row('Loose note 2').getByRole('checkbox').check();
  before = server.requests.length;
  expect(await drag(library, row('Loose note 2'), item('Inner'))).toBe(true);
  await expect(row('Loose note 1')).toHaveCount(0);
  await expect(row('Loose note 2')).toHaveCount(0);
  expect(await collectionOfBookmark(ids['Loose note 1'])).toBe(ids.inner);
  expect(await collectionOfBookmark(ids['Loose note 2'])).toBe(ids.inner);
  expect(server.requests.slice(before).filter((r) => r.startsWith('PUT /rest/v1/bookmarks/'))).toEqual(['PUT /rest/v1/bookmarks/-1']);
  await expect(item('Inner')).toContainText('2');
  // Undo puts the dragged bookmarks back.
  await library.getByRole('button', { name: 'Undo' }).click();
  await expect(row('Loose note 1')).toBeVisible();
  expect(await collectionOfBookmark(ids['Loose note 2'])).toBe(-1);
  // Dropped on Trash: trashed.
  expect(await drag(library, row('Loose note 3'), library.getByRole('button', { name: /^Trash/ }))).toBe(true);
  await expect(row('Loose note 3')).toHaveCount(0);
  expect(await collectionOfBookmark(ids['Loose note 3'])).toBe(-99);
  await library.getByRole('button', { name: 'Undo' }).click();
  await expect(row('Loose note 3')).toBeVisible();
  // "All bookmarks" is not a place a bookmark can be dropped.
  expect(await drag(library, row('Loose note 3'), library.getByRole('button', { name: /^All bookmarks/ }))).toBe(false);

  // A collection onto another: nested under it; onto the tree's empty space: back to the top.
  expect(await drag(library, item('Recipes'), item('Research'))).toBe(true);
  await expect(sidebar.getByRole('listitem', { name: /^Research/ }).getByRole('listitem', { name: /^Recipes/ })).toBeVisible();
  expect(await parentOf(ids.recipes)).toBe(ids.research);
  await expect(library.getByRole('status').filter({ hasText: '“Recipes” moved into “Research”.' })).toBeVisible();
  await shot(library, '05b-nested-by-drag');
  expect(await drag(library, item('Recipes'), sidebar.getByRole('list', { name: 'Collections' }))).toBe(true);
  await expect.poll(() => parentOf(ids.recipes)).toBeNull();
  await expect(sidebar.getByRole('listitem', { name: /^Research/ }).getByRole('listitem', { name: /^Recipes/ })).toHaveCount(0);
  // A collection cannot go inside itself or below itself; a top-level one is already at the top.
  expect(await drag(library, item('Research'), item('Papers'))).toBe(false);
  expect(await drag(library, item('Research'), item('Research'))).toBe(false);
  expect(await drag(library, item('Research'), sidebar.getByRole('list', { name: 'Collections' }))).toBe(false);
  expect(await parentOf(ids.research)).toBeNull();
});

test('merge, sort and share collections from the sidebar', async () => {
  const sidebar = library.getByRole('navigation', { name: 'Collections' });
  const dialog = library.getByRole('dialog');
  // Sort the tree: the order the server keeps is the order shown.
  const rootTitles = () => sidebar.locator('ul.tree > li > .nav-row .nav-title').allTextContents();
  await sidebar.getByRole('combobox', { name: 'Sort collections' }).selectOption({ label: 'Name Z–A' });
  await expect(library.getByRole('status').filter({ hasText: 'sorted' })).toBeVisible();
  const api = async () => (await server.api('GET', '/collections', token)).body.items.map((c: { title: string }) => c.title);
  await expect.poll(rootTitles).toEqual(['Research', 'Recipes', 'Inner']);
  expect(await api()).toEqual(['Research', 'Recipes', 'Inner']);
  await sidebar.getByRole('combobox', { name: 'Sort collections' }).selectOption({ label: 'Name A–Z' });
  await expect.poll(rootTitles).toEqual(['Inner', 'Recipes', 'Research']);
  expect(await api()).toEqual(['Inner', 'Recipes', 'Research']);

  // Merge "Inner" (a bookmark dropped there first) into Recipes.
  await server.api('PUT', `/bookmark/${ids['Loose note 4']}`, token, { collection: { $id: ids.inner } });
  await library.getByRole('button', { name: /^Unsorted/ }).click();
  await sidebar.getByRole('button', { name: 'Actions for Inner' }).click();
  await sidebar.getByRole('menuitem', { name: 'Merge into…' }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Merge “Inner”');
  await dialog.getByLabel('Merge into').selectOption({ label: 'Recipes' });
  await shot(library, '05c-merge-dialog');
  await dialog.getByRole('button', { name: 'Merge' }).click();
  await expect(sidebar.getByRole('listitem', { name: /^Inner/ })).toHaveCount(0);
  expect((await server.api('GET', `/collection/${ids.inner}`, token)).status).toBe(404);
  expect(await collectionOfBookmark(ids['Loose note 4'])).toBe(ids.recipes);

  // Share: the invite form sends an invitation by email through the real server.
  await sidebar.getByRole('button', { name: 'Actions for Research' }).click();
  await sidebar.getByRole('menuitem', { name: 'Share…' }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Share “Research”');
  await dialog.getByLabel('Email addresses (comma separated)').fill('ann@example.test, bo@example.test');
  await dialog.getByLabel('Role').selectOption('member');
  await shot(library, '05d-share-dialog');
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(library.getByRole('status').filter({ hasText: 'Invitations to “Research” sent.' })).toBeVisible();
  for (const email of ['ann@example.test', 'bo@example.test']) {
    const mail = lastMailTo(server.dataDir, email);
    const link = joinLinkIn(mail.text);
    expect(link.collectionId).toBe(ids.research);
  }
  // A bad address: the form stays open and says what is wrong.
  await sidebar.getByRole('button', { name: 'Actions for Research' }).click();
  await sidebar.getByRole('menuitem', { name: 'Share…' }).click();
  await dialog.getByLabel('Email addresses (comma separated)').fill('not-an-address');
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await shot(library, '05e-share-error');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('a viewer of a shared collection sees the role and no edit controls there', async () => {
  const owner = await server.createUser('owner-of-shared@example.test', 'long enough password', 'Olive Owner');
  const made = await server.api('POST', '/collection', owner.token, { title: 'Shared reading' });
  const sharedId = made.body.item._id as number;
  await server.api('POST', '/bookmarks', owner.token, { items: [{ link: 'https://shared.example/one', title: 'Shared article', collectionId: sharedId, tags: ['team'] }] });
  const invited = await server.api('POST', `/collection/${sharedId}/sharing`, owner.token, { emails: ['librarian@example.test'], role: 'viewer' });
  expect(invited.status).toBe(200);
  const { token: joinToken } = joinLinkIn(lastMailTo(server.dataDir, 'librarian@example.test').text);
  expect((await server.api('POST', `/collection/${sharedId}/join`, token, { token: joinToken })).status).toBe(200);

  await library.goto(`${browser.url('library.html')}?c=${sharedId}`);
  const sidebar = library.getByRole('navigation', { name: 'Collections' });
  const shared = sidebar.getByRole('listitem', { name: /^Shared reading/ });
  await expect(shared).toContainText('Viewer');
  await expect(library.locator('.view-title')).toContainText('Shared reading');
  await expect(library.locator('.role-badge')).toHaveText('Viewer');
  await expect(library.locator('.bookmark', { hasText: 'Shared article' })).toBeVisible();
  // No actions menu, no bulk bar, no drop target; the detail pane is read-only.
  await expect(sidebar.getByRole('button', { name: 'Actions for Shared reading' })).toHaveCount(0);
  await expect(library.getByRole('toolbar', { name: 'Bulk actions' })).toHaveCount(0);
  await expect(library.locator('.bookmark').getByRole('checkbox')).toHaveCount(0);
  expect(await drag(library, library.locator('.bookmark', { hasText: 'Shared article' }), sidebar.getByRole('button', { name: /^Unsorted/ }))).toBe(false);
  await expect(sidebar.getByRole('listitem', { name: /^Shared reading/ }).locator('.nav-item')).not.toHaveAttribute('draggable', 'true');
  await library.locator('.bookmark', { hasText: 'Shared article' }).click();
  const detail = library.getByRole('complementary', { name: 'Bookmark' });
  await expect(detail.getByLabel('Title')).toBeDisabled();
  await expect(detail.getByLabel('Note')).toBeDisabled();
  await expect(detail.getByLabel('Collection')).toBeDisabled();
  await expect(detail.getByText('You can read this collection but not change it')).toBeVisible();
  await shot(library, '05f-viewer');
  await library.locator('body').press('Escape');
  await library.locator('.bookmark', { hasText: 'Shared article' }).click();
  await library.locator('body').press('Escape');
  await library.locator('body').press('Delete');
  await expect(library.locator('.bookmark', { hasText: 'Shared article' })).toBeVisible();
});

test('"Open saved copy" shows the permanent copy in a sandboxed frame, under the server\'s policy, with no extension origin', async () => {
  // The copy as the extension uploads it (the server sanitises it and keeps it).
  const form = new FormData();
  const copyHtml = '<!DOCTYPE html><html><head><title>Storm season (kept)</title></head><body><h1>Storm season</h1><p id="kept">Gales come in October.</p><a href="https://essays.example/more">More</a></body></html>';
  form.append('cache', new Blob([copyHtml], { type: 'text/html' }), 'storms.html');
  form.append('url', 'https://essays.example/storms');
  const up = await fetch(`http://127.0.0.1:${server.port}/rest/v1/bookmark/${ids['Storm season']}/cache`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(up.status).toBe(200);

  await library.goto(`${browser.url('library.html')}?c=${ids.papers}`);
  const detail = library.getByRole('complementary', { name: 'Bookmark' });
  // No copy: no link.
  await library.locator('.bookmark', { hasText: 'Tide tables' }).click();
  await expect(detail.getByLabel('Title')).toHaveValue('Tide tables');
  await expect(detail.getByRole('link', { name: 'Open saved copy' })).toHaveCount(0);
  await library.locator('.bookmark', { hasText: 'Storm season' }).click();
  await expect(detail.getByLabel('Title')).toHaveValue('Storm season');
  const opening = browser.waitForPage(browser.url('saved-copy.html'));
  await detail.getByRole('link', { name: 'Open saved copy' }).click();
  const copy = await opening;
  await copy.setViewportSize({ width: 1280, height: 700 });
  const frame = copy.frameLocator('iframe[title="Saved copy: Storm season (kept)"]');
  await expect(frame.locator('#kept')).toHaveText('Gales come in October.');
  await expect(copy.getByRole('status')).toContainText('Saved copy, taken');
  await expect(copy.getByRole('link', { name: 'Open the live page' })).toHaveAttribute('href', 'https://essays.example/storms');
  await expect(copy).toHaveTitle('Saved copy: Storm season (kept) · Tidemark');
  await shot(copy, '09-saved-copy');
  // The frame runs nothing and is not the extension: sandboxed without scripts or same origin, an
  // opaque origin, the server's policy in front of the copy, links opening in a new tab.
  const iframe = copy.locator('iframe.copy-frame');
  await expect(iframe).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
  const inside = copy.frames().find((f) => f !== copy.mainFrame())!;
  expect(await inside.evaluate(() => [origin, typeof (globalThis as any).chrome?.runtime?.id])).toEqual(['null', 'undefined']);
  const policy = await frame.locator('meta[http-equiv="Content-Security-Policy"]').first().getAttribute('content');
  const cached = await fetch(`http://127.0.0.1:${server.port}/rest/v1/bookmark/${ids['Storm season']}/cache`, { headers: { authorization: `Bearer ${token}` } });
  expect(policy).toBe(cached.headers.get('content-security-policy')!.split(';').map((d) => d.trim()).filter((d) => d && !d.startsWith('sandbox')).join('; '));
  await expect(frame.locator('base').first()).toHaveAttribute('target', '_blank');
  await copy.close();

  // A bookmark without a copy, opened by address: the server's words, not a blank page.
  const none = await browser.context.newPage();
  await none.goto(`${browser.url('saved-copy.html')}?id=${ids['Tide tables']}`);
  await expect(none.getByRole('alert')).toContainText('has no permanent copy yet');
  await shot(none, '10-saved-copy-missing');
  await none.close();
});

test('opens a highlight from the highlights view, scrolled to on its page', async () => {
  await library.getByRole('button', { name: 'All highlights' }).click();
  await expect(library.locator('.hl-group')).toHaveCount(2);
  await library.getByRole('button', { name: 'Blue' }).click();
  await expect(library.locator('.hl-group')).toHaveCount(1);
  await expect(library).toHaveURL(/color=blue/);
  await shot(library, '07-highlights');
  // The background's answer to "open this highlight" (whether it was shown), as the library receives it.
  await library.evaluate(() => {
    const runtime = (globalThis as any).chrome.runtime;
    const send = runtime.sendMessage.bind(runtime);
    const answers: unknown[] = ((window as any).openHighlightAnswers = []);
    runtime.sendMessage = (message: { type?: string }, ...rest: unknown[]) => {
      const reply = send(message, ...rest);
      if (message?.type === 'libraryOpenHighlight') reply.then((r: unknown) => answers.push(r), (e: Error) => answers.push(e.message));
      return reply;
    };
  });
  await library.getByRole('button', { name: /Open the page at “the moon keeps its own time”/ }).click();
  const tab = await browser.waitForPage(`${site.origin}/tides`);
  await tab.waitForLoadState();
  await expect.poll(() => tab.evaluate(() => {
    const r = document.getElementById('quote')!.getBoundingClientRect();
    return window.scrollY > 1000 && r.top >= 0 && r.bottom <= window.innerHeight;
  }), { timeout: 20_000 }).toBe(true);
  await tab.close();
  // It was shown: closing the tab during the flash does not turn that into "could not show" afterwards.
  await expect.poll(() => library.evaluate(() => (window as any).openHighlightAnswers)).toHaveLength(1);
  expect(await library.evaluate(() => (window as any).openHighlightAnswers)).toEqual([{ ok: true, value: true }]);
  await expect(library.getByText('could not show the highlight', { exact: false })).toHaveCount(0);
  // A collection's own highlights: Papers holds both pages; Recipes none.
  await library.getByRole('listitem', { name: /Papers/ }).click();
  await shot(library, '07c-collection-bookmarks');
  await library.getByRole('button', { name: 'Highlights here' }).click();
  await expect(library.locator('.view-title')).toHaveText('Highlights in Research / Papers');
  await expect(library).toHaveURL(new RegExp(`c=${ids.papers}.*tab=highlights`));
  await library.getByRole('button', { name: 'All colours', exact: true }).click();
  await expect(library.locator('.hl-group h3 a')).toHaveText(['Storm season', 'Tide tables']); // newest highlight first
  await shot(library, '07b-collection-highlights');
  await library.getByRole('listitem', { name: /Recipes/ }).click();
  await expect(library.locator('.view-title')).toHaveText('Recipes');
  await library.getByRole('button', { name: 'Highlights here' }).click();
  await expect(library.getByText('No highlights yet.', { exact: false })).toBeVisible();
  await library.getByRole('button', { name: 'Bookmarks here' }).click();
  await expect(library.locator('.view-title')).toHaveText('Recipes');
});

test('the omnibox handler suggests bookmarks (escaped) and opens the library with a search', async () => {
  const worker = await browser.worker();
  const suggestions = await worker.evaluate(async () => {
    const out: { content: string; description: string }[][] = [];
    await (globalThis as any).tidemark.omnibox.onInputChanged('currents', (s: { content: string; description: string }[]) => out.push(s));
    return out[0];
  });
  expect(suggestions).toEqual([{ content: 'https://essays.example/currents', description: 'Currents &amp; &lt;eddies&gt; <dim>— essays.example</dim>' }]);
  const url = await worker.evaluate(() => (globalThis as any).tidemark.omnibox.onInputEntered('#ocean soup', 'currentTab'));
  expect(url).toBe(`${browser.url('library.html')}?q=%23ocean+soup`);
  await expect(library).toHaveURL(/q=%23ocean\+soup/);
  await expect.poll(() => shownTitles(library)).toEqual(await allOfApi('#ocean soup'));
  // Enter on a suggestion opens its page.
  const link = `${site.origin}/tides`;
  await worker.evaluate((l) => (globalThis as any).tidemark.omnibox.onInputEntered(l, 'newForegroundTab'), link);
  const opened = await browser.waitForPage(link);
  await opened.close();
});

test('exports the collection from the library and the file re-imports as the same tree', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${browser.url('library.html')}?c=${ids.research}`);
  await expect(page.locator('.view-title')).toHaveText('Research');
  // Keep a copy of what the page hands to the download (Playwright's copy of a download made from an
  // extension page is sometimes empty when other tabs were opened by the extension earlier).
  await page.evaluate(() => {
    const original = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob) => {
      (globalThis as any).lastExport = blob;
      return original(blob);
    };
  });
  const download = page.waitForEvent('download');
  // The export menu by keyboard: arrow keys on its closed button start nothing (the first download
  // must be the CSV chosen below); Enter opens it, Tab walks its formats, Enter exports one.
  const menu = page.getByLabel('Export', { exact: true });
  await menu.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('button', { name: 'HTML (browser bookmarks)' })).toBeHidden();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'HTML (browser bookmarks)' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'CSV (spreadsheet)' })).toBeFocused();
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Research-\d{4}-\d{2}-\d{2}\.csv$/);
  // The menu closed with the focus back on its button.
  await expect(page.getByRole('button', { name: 'CSV (spreadsheet)' })).toBeHidden();
  await expect(menu).toBeFocused();
  const downloadHtml = page.waitForEvent('download');
  await menu.click();
  await page.getByRole('button', { name: 'HTML (browser bookmarks)' }).click();
  expect((await downloadHtml).suggestedFilename()).toMatch(/^Research-\d{4}-\d{2}-\d{2}\.html$/);
  await expect(page.getByRole('status').filter({ hasText: 'Exported Research-' })).toBeVisible();
  const html = await page.evaluate(() => ((globalThis as any).lastExport as Blob).text());
  await page.close();
  expect(html).toContain('<!DOCTYPE NETSCAPE-Bookmark-file-1>');
  const fresh = await server.createUser('fresh-import@example.test', 'long enough password');
  const form = new FormData();
  form.append('import', new Blob([html], { type: 'text/html' }), 'research.html');
  const converted = (await (await fetch(`http://127.0.0.1:${server.port}/rest/v1/import/file`, { method: 'POST', headers: { authorization: `Bearer ${fresh.token}` }, body: form })).json()) as any;
  expect(converted.items.map((f: any) => [f.title, f.folders.map((c: any) => c.title)])).toEqual([['Research', ['Papers']]]);
  const papers = converted.items[0].folders[0].bookmarks;
  expect(papers.map((b: any) => b.title).sort()).toEqual(['Storm season', 'Tide tables']);
  expect(papers.find((b: any) => b.title === 'Tide tables')).toMatchObject({ note: 'Keep for the trip', tags: ['ocean', 'science'], important: true });
});

test('offline: the last loaded list stays, marked offline; a bulk change and its Undo wait in the queue and are sent later, in order', async () => {
  library ??= await browser.context.newPage();
  await library.goto(`${browser.url('library.html')}?c=${ids.research}`);
  await expect(library.locator('.bookmark')).toHaveCount(1);
  await server.stop();
  try {
    await library.reload();
    await expect(library.locator('.offline-badge')).toBeVisible({ timeout: 20_000 });
    await expect(library.locator('.bookmark')).toHaveCount(1);
    await expect(library.getByRole('listitem', { name: /Papers/ })).toBeVisible();
    await expect(library.locator('.view-title')).toHaveText('Research');
    await shot(library, '08-offline');
    await library.locator('.bookmark').first().getByRole('checkbox').check();
    await library.getByRole('button', { name: 'Move to Trash' }).click();
    await expect(library.getByRole('status').filter({ hasText: 'queued' })).toBeVisible({ timeout: 20_000 });
    // The list shows the change as it will be once sent: the bookmark left Research, and is in Trash.
    await expect(library.locator('.bookmark')).toHaveCount(0);
    await expect(library.locator('.offline-badge')).toBeVisible();
    await shot(library, '08b-offline-queued');
    // Undo of a queued change: its reversal is queued after it, and the bookmark is back in the list.
    await library.getByRole('button', { name: 'Undo' }).click();
    await expect(library.getByRole('status').filter({ hasText: /^Undone: 1 bookmark moved to Trash\. — queued/ })).toBeVisible({ timeout: 20_000 });
    await expect(library.locator('.bookmark .title')).toHaveText(['Currents & <eddies>']);
  } finally {
    await server.start();
  }
  const since = server.requests.length;
  await browser.fireAlarm('queue-drain');
  const sent = () => server.requests.slice(since).filter((r) => r === `DELETE /rest/v1/bookmarks/${ids.research}` || r === 'PUT /rest/v1/bookmarks/-99');
  await expect.poll(sent, { timeout: 20_000 }).toEqual([`DELETE /rest/v1/bookmarks/${ids.research}`, 'PUT /rest/v1/bookmarks/-99']);
  expect((await server.api('GET', `/bookmark/${ids['Currents & <eddies>']}`, token)).body.item.collectionId).toBe(ids.research);
});

test('"Select all matching" in a long list changes every match in one call, never loading them; Undo moves them back', async () => {
  const make = async (title: string) => (await server.api('POST', '/collection', token, { title })).body.item._id as number;
  const batch = await make('Batch');
  const archive = await make('Archive');
  // 70 bookmarks, 64 of them tagged #run: more than the 50 a page loads.
  const items = Array.from({ length: 70 }, (_, i) => ({
    link: `https://batch.example/item-${i}`,
    title: `Batch item ${i}`,
    tags: i % 12 === 5 ? ['other'] : ['run'],
    collectionId: batch,
  }));
  expect((await server.api('POST', '/bookmarks', token, { items })).status).toBe(200);
  const page = await browser.context.newPage();
  await page.goto(`${browser.url('library.html')}?c=${batch}&q=${encodeURIComponent('#run')}`);
  await expect(page.locator('.count-line')).toHaveText('64 bookmarks');
  await expect(page.locator('.bookmark')).toHaveCount(50);
  await page.locator('.bookmark').first().getByRole('checkbox').check();
  const before = server.requests.length;
  await page.getByRole('button', { name: 'Select all 64 matching' }).click();
  await expect(page.getByText('All 64 matching selected')).toBeVisible();
  await page.getByRole('combobox', { name: 'Move to' }).selectOption({ label: 'Archive' });
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Apply to all 64 bookmarks that match?');
  await shot(page, '04b-all-matching');
  await dialog.getByRole('button', { name: 'Move to Archive' }).click();
  await expect(page.getByRole('status').filter({ hasText: '64 bookmarks moved to Archive.' })).toBeVisible();
  await expect(page.locator('.bookmark')).toHaveCount(0);
  // Nothing more was listed to select them; the change was one call (after one count of Archive's matches, for Undo).
  const writes = () => server.requests.slice(before).filter((r) => /^(PUT|DELETE) /.test(r));
  expect(writes()).toEqual([`PUT /rest/v1/bookmarks/${batch}`]);
  expect(server.requests.slice(before).filter((r) => r === `GET /rest/v1/bookmarks/${batch}`)).toHaveLength(1); // the list reloading after the change
  const count = async (id: number, search = '') => (await server.api('GET', `/bookmarks/${id}?search=${encodeURIComponent(search)}`, token)).body.count as number;
  expect([await count(archive), await count(batch)]).toEqual([64, 6]);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('.bookmark')).toHaveCount(50);
  expect(writes()).toEqual([`PUT /rest/v1/bookmarks/${batch}`, `PUT /rest/v1/bookmarks/${archive}`]);
  expect([await count(archive), await count(batch)]).toEqual([0, 70]);

  // A tag added to every match: one call, and no Undo (the same search cannot tell who had it before).
  await page.locator('.bookmark').first().getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Select all 64 matching' }).click();
  await page.getByRole('textbox', { name: 'Add tag' }).fill('done');
  await page.getByRole('textbox', { name: 'Add tag' }).press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Add tag: done' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Undo is not offered' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  expect(await count(batch, '#done')).toBe(64);
  expect(await count(batch, '#other #done')).toBe(0);
  await page.close();
});

test('keyboard: / searches, arrows move, Enter opens, e edits the title; every control has an accessible name', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${browser.url('library.html')}?c=${ids.recipes}`);
  const titles = (await server.api('GET', `/bookmarks/${ids.recipes}?perpage=50`, token)).body.items.map((b: { title: string }) => b.title) as string[];
  expect(titles.length).toBeGreaterThanOrEqual(2);
  await expect.poll(() => shownTitles(page)).toEqual(titles);
  const focusedTitle = () => page.locator('.bookmark.focused .title').textContent();
  await page.locator('body').press('ArrowDown');
  await page.locator('body').press('ArrowDown');
  expect(await focusedTitle()).toBe(titles[1]);
  await page.locator('body').press('ArrowUp');
  expect(await focusedTitle()).toBe(titles[0]);
  await page.locator('body').press('Enter');
  const detail = page.getByRole('complementary', { name: 'Bookmark' });
  await expect(detail.getByLabel('Title')).toHaveValue(titles[0]!);
  await page.locator('body').press('ArrowDown');
  await page.locator('body').press('e');
  await expect(detail.getByLabel('Title')).toHaveValue(titles[1]!);
  await expect(detail.getByLabel('Title')).toBeFocused();
  await page.keyboard.press('Escape'); // leaves the field
  await page.locator('body').press('/');
  await expect(page.getByRole('combobox', { name: /Search/ })).toBeFocused();
  await page.keyboard.press('Escape');

  // Every control on the page (list, bulk bar, detail pane, sidebar, then the highlights view) has a
  // name in Chromium's accessibility tree: what a screen reader says for it.
  await page.locator('.bookmark').first().getByRole('checkbox').check();
  const cdp = await page.context().newCDPSession(page);
  const unnamed = async () => {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value: string }; name?: { value: string }; ignored: boolean; properties?: unknown[] }[] };
    const controls = ['button', 'checkbox', 'combobox', 'textbox', 'searchbox', 'link', 'treeitem', 'radio', 'menuitem', 'tab', 'switch', 'slider', 'spinbutton', 'listbox'];
    const found = nodes.filter((n) => !n.ignored && controls.includes(n.role?.value ?? ''));
    return { controls: found.length, unnamed: found.filter((n) => !(n.name?.value ?? '').trim()).map((n) => n.role!.value) };
  };
  const list = await unnamed();
  expect(list.controls).toBeGreaterThan(30); // the tree was read: sidebar, search, sort, bulk bar, rows, detail pane
  expect(list.unnamed).toEqual([]);
  await page.getByRole('button', { name: 'Highlights here' }).click();
  await expect(page.locator('.highlights-view')).toBeVisible();
  const highlights = await unnamed();
  expect(highlights.controls).toBeGreaterThan(20); // with the colour filter's swatches
  expect(highlights.unnamed).toEqual([]);
  await page.close();
});

test('the detail pane\'s note box shows a 6-line note whole, a 40-line note in 20 whole lines that scroll, and grows as a line is typed', async () => {
  const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n');
  const folder = await server.api('POST', '/collection', token, { title: 'Long notes' });
  expect(folder.status).toBe(200);
  const collectionId = folder.body.item._id as number;
  for (const [title, note] of [['Harbour walls', lines(6, 'stone')], ['Pilot boats', lines(40, 'boat')]] as const) {
    expect((await server.api('POST', '/bookmark', token, { link: `https://notes.example/${title.replace(' ', '-')}`, title, note, collectionId })).status).toBe(200);
  }
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${browser.url('library.html')}?c=${collectionId}`);
  const detail = page.getByRole('complementary', { name: 'Bookmark' });
  const note = detail.getByLabel('Note');
  const box = () => note.evaluate(noteBox);
  await page.locator('.bookmark', { hasText: 'Pilot boats' }).click();
  await expect(note).toHaveValue(lines(40, 'boat'));
  const long = await box();
  expect(long.lines).toBe(20);
  expect(long.scrollHeight).toBeGreaterThan(long.clientHeight * 1.5);
  // Another bookmark opened in the same pane: its box fits its note.
  await page.locator('.bookmark', { hasText: 'Harbour walls' }).click();
  await expect(note).toHaveValue(lines(6, 'stone'));
  const six = await box();
  expect(six).toEqual({ scrollHeight: six.clientHeight, clientHeight: six.clientHeight, lines: 6 });
  await note.click();
  await note.press('Control+End');
  await note.press('Enter');
  await note.pressSequentially('stone 7');
  await expect(note).toHaveValue(lines(7, 'stone'));
  const seven = await box();
  expect(seven).toEqual({ scrollHeight: seven.clientHeight, clientHeight: seven.clientHeight, lines: 7 });
  await page.close();
});
