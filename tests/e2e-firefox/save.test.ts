// Saving in Firefox, as a user does: sign in with a test token on the options page, press the
// toolbar button on a page, and the real popup stores the bookmark once with its title, description
// and image; a collection and a tag picked in the popup reach the server; the badge shows the page saved.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { waitFor } from './helpers/firefox-extension.js';
import { signedInFirefoxTest } from './helpers/setup.js';
import type { TidemarkServer } from '../e2e/helpers/tidemark-server.js';
import type { Bookmark } from '../../lib/api/types.js';
import { ROOT } from '../../scripts/build-extension.js';

const SHOTS = path.join(ROOT, 'test-results', 'firefox');

let tab: Page;
let url: string;

const test = signedInFirefoxTest({ email: 'fox@example.test', name: 'Fern Fox' });

// Asking for the fixtures here starts them under the hook's time limit.
test.beforeAll(async ({ ff }) => {
  tab = await ff.browser.newPage();
});

const bookmarks = async (server: TidemarkServer, token: string) => (await server.api('GET', '/bookmarks/0?perpage=50', token)).body.items as Bookmark[];

test('the options page says who is signed in, on which server', async ({ server, token, ff }) => {
  const options = await ff.openExtensionPage('options.html');
  const account = await options.$eval('[data-testid="account"]', (el) => el.textContent);
  expect(account).toContain('Fern Fox');
  expect(account).toContain(server.origin);
  fs.mkdirSync(SHOTS, { recursive: true });
  await options.screenshot({ path: path.join(SHOTS, 'options-signed-in.png'), fullPage: true });
  await options.close();
  // The access token is in storage.session (memory, gone when Firefox closes), never in storage.local.
  const { session, local } = await ff.inExtension(async (ext) => ({
    session: await ext.storage.session.get(null),
    local: await ext.storage.local.get(null),
  }));
  expect(session).toMatchObject({ accessToken: { token } });
  expect(JSON.stringify(local)).not.toContain(token);
});

test('"Open shortcut settings" on the options page opens Firefox\'s shortcut settings (about:addons)', async ({ ff }) => {
  const options = await ff.openExtensionPage('options.html');
  await options.click('::-p-text(Open shortcut settings)');
  await waitFor('about:addons', async () => ((await ff.browser.pages()).some((p) => p.url().startsWith('about:addons')) ? true : undefined));
  for (const p of await ff.browser.pages()) if (p.url().startsWith('about:addons')) await p.close();
  expect(await options.$('[role="alert"]')).toBeNull();
  await options.close();
});

test('pressing the toolbar button on a page saves it once, with its title, description and image', async ({ server, site, token, ff }) => {
  url = site.add('/firefox-article', {
    title: 'Plain title',
    ogTitle: 'Foxes at the Shore',
    description: 'What the tide leaves for a fox.',
    image: `${site.origin}/fox.png`,
  });
  await tab.goto(url);
  const popup = await ff.pressToolbarButton(tab);
  await popup.waitForStatus('Saved');
  const items = await bookmarks(server, token);
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({
    link: url,
    title: 'Foxes at the Shore',
    excerpt: 'What the tide leaves for a fox.',
    cover: `${site.origin}/fox.png`,
    collectionId: -1,
  });
  expect(await popup.value('Title')).toBe('Foxes at the Shore');
  // The editing form is taller than Firefox's popup (600 px): the popup scrolls up and down only, and
  // nothing is under the scrollbar (Firefox puts it inside the page's width, see components/popup/popup.css).
  const fit = await popup.eval((doc) => {
    const root = doc.documentElement;
    const win = doc.defaultView!;
    return {
      scrollsDown: root.scrollHeight > root.clientHeight,
      scrollbar: win.innerWidth - root.clientWidth,
      sideways: root.scrollWidth - root.clientWidth,
      titleRight: doc.querySelector('#title-input')!.getBoundingClientRect().right,
      visibleWidth: root.clientWidth,
    };
  });
  // The case checked: a scrollbar that takes room (Firefox's own on Linux, Windows), not an overlay one.
  expect(fit.scrollsDown).toBe(true);
  expect(fit.scrollbar).toBeGreaterThan(0);
  expect(fit.sideways).toBe(0);
  // The field keeps its right margin (the popup's 12 px padding) inside what is visible.
  expect(fit.titleRight).toBeLessThanOrEqual(fit.visibleWidth - 12);
  // For people to look at (test-results/ is not committed): the popup and options as Firefox draws them.
  fs.mkdirSync(SHOTS, { recursive: true });
  await popup.screenshot(path.join(SHOTS, 'popup-saved.png'));
  // The badge shows the page saved.
  await waitFor('the saved badge', async () => ((await ff.badgeOfActiveTab()).text === '✓' ? true : undefined));
});

test('in the popup, a collection and a tag are picked; they reach the server and nothing is duplicated', async ({ server, token, ff }) => {
  const reading = (await server.api('POST', '/collection', token, { title: 'Reading' })).body.item._id as number;
  const shore = (await server.api('POST', '/collection', token, { title: 'Shore', parent: { $id: reading } })).body.item._id as number;
  await server.api('POST', '/bookmark', token, { link: 'https://elsewhere.example/', tags: ['tides'] });

  const popup = await ff.pressToolbarButton(tab);
  await popup.waitForStatus('Already saved: editing it');
  await popup.type('#collection-input', 'sho');
  await popup.chooseOption('Reading / Shore');
  expect(await popup.value('Collection')).toBe('Reading / Shore');
  await popup.type('#tags-input', 'tid');
  await popup.chooseOption(/tides/);
  await popup.type('#tags-input', 'foxes');
  await popup.press('#tags-input', 'Enter');
  await popup.waitForStatus('Saved');

  const mine = (await bookmarks(server, token)).find((b) => b.link === url)!;
  await waitFor('the edits on the server', async () => {
    const item = (await server.api('GET', `/bookmark/${mine._id}`, token)).body.item as Bookmark;
    return item.collectionId === shore && JSON.stringify([...item.tags].sort()) === '["foxes","tides"]' ? item : undefined;
  });
  expect((await bookmarks(server, token)).filter((b) => b.link === url)).toHaveLength(1);
  await ff.closePopup();
  expect((await ff.badgeOfActiveTab()).text).toBe('✓');
});

test('a saved page\'s note shows whole in the popup: a 6-line note in a 6-line box, a 40-line note in 8 whole lines that scroll', async ({ server, site, token, ff }) => {
  const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n');
  const seen: Record<number, { scrollHeight: number; clientHeight: number; lines: number }> = {};
  for (const n of [6, 40]) {
    const page = site.add(`/fox-note-${n}`, { title: `Fox notes (${n} lines)` });
    expect((await server.api('POST', '/bookmark', token, { link: page, title: `Fox notes (${n} lines)`, collectionId: -1, note: lines(n, 'fox') })).status).toBeLessThan(300);
    await tab.goto(page);
    const popup = await ff.pressToolbarButton(tab);
    await popup.waitForStatus('Already saved: editing it');
    // The note box: scrollHeight beside clientHeight, and how many lines of text it shows at rest (to a tenth: a part of a line shows as a fraction).
    seen[n] = await waitFor('the note in the popup', () =>
      popup.eval((doc, note) => {
        const el = doc.getElementById('note-input') as HTMLTextAreaElement | null;
        if (!el || el.value !== note) return undefined;
        const s = doc.defaultView!.getComputedStyle(el);
        // Lines in view at rest: below the top padding, down to the bottom padding (or the box's edge when it scrolls).
        const inside = el.clientHeight - parseFloat(s.paddingTop) - (el.scrollHeight > el.clientHeight ? 0 : parseFloat(s.paddingBottom));
        return { scrollHeight: el.scrollHeight, clientHeight: el.clientHeight, lines: Math.round((inside / parseFloat(s.lineHeight)) * 10) / 10 };
      }, lines(n, 'fox')),
    );
    if (n === 40) await popup.screenshot(path.join(SHOTS, 'popup-long-note.png'));
    await ff.closePopup();
  }
  expect(seen[6]).toEqual({ scrollHeight: seen[6]!.clientHeight, clientHeight: seen[6]!.clientHeight, lines: 6 });
  expect(seen[40]!.lines).toBe(8);
  expect(seen[40]!.scrollHeight).toBeGreaterThan(seen[40]!.clientHeight * 3);
});
