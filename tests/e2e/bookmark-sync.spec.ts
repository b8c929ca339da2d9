// Two-way sync with the browser's own bookmarks (issue 37), in Chromium with the built extension
// against the real server. The browser side is driven through `chrome.bookmarks` from the extension's
// service worker: the same API, and the same events, as the star, Ctrl+D or the bookmark manager.
import { expect, test } from '@playwright/test';
import type { ExtensionBrowser } from './helpers/extension-browser.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/extension-setup.js';
import type { TestSite } from './helpers/test-pages.js';
import type { TidemarkServer } from './helpers/tidemark-server.js';

let server: TidemarkServer;
let site: TestSite;
let browser: ExtensionBrowser;
let token: string;

test.describe.configure({ mode: 'serial' });

interface Saved {
  _id: number;
  link: string;
  title: string;
  collectionId: number;
}

test.beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'bookmarks@example.test', name: 'Bea Bookmarks' }));
  browser = await launchSignedIn(server, token);
});

test.afterAll(() => closeAll(browser, site, server));

/** Every bookmark on the server (Trash: -99), newest first. */
async function onServer(collectionId = 0): Promise<Saved[]> {
  const out: Saved[] = [];
  for (let page = 0; ; page++) {
    const items = (await server.api('GET', `/bookmarks/${collectionId}?perpage=50&page=${page}`, token)).body.items as Saved[];
    out.push(...items);
    if (items.length < 50) return out;
  }
}
const titlesOnServer = async (collectionId = 0) => (await onServer(collectionId)).map((b) => b.title).sort();

/**
 * Runs `fn` in the service worker with `chrome` and the background's services. Sent as an expression
 * (CDP evaluates it, like any worker.evaluate), so `fn` gets `chrome` without naming globalThis each time.
 */
async function inWorker<T, A = undefined>(fn: (chrome: any, tidemark: any, arg: A) => Promise<T>, arg?: A, on: ExtensionBrowser = browser): Promise<T> {
  const worker = await on.worker();
  return worker.evaluate(`(${fn.toString()})(globalThis.chrome, globalThis.tidemark, ${JSON.stringify(arg ?? null)})`) as Promise<T>;
}

/** The synced folder's bookmarks, "title|url" by folder path. */
function folderContents(on: ExtensionBrowser = browser): Promise<string[]> {
  return inWorker(async (chrome) => {
    const { bookmarkSync } = await chrome.storage.local.get('bookmarkSync');
    const [root] = await chrome.bookmarks.getSubTree(bookmarkSync.folderId);
    const out: string[] = [];
    const walk = (n: any, path: string) => {
      for (const c of n.children ?? []) {
        if (c.url) out.push(`${path}${c.title}|${c.url}`);
        else walk(c, `${path}${c.title}/`);
      }
    };
    walk(root, '');
    return out.sort();
  }, undefined, on);
}

const folderId = () => inWorker(async (chrome) => (await chrome.storage.local.get('bookmarkSync')).bookmarkSync?.folderId ?? null);
/** Waits for the sync's pass (the alarm's pull). */
const pull = (on: ExtensionBrowser = browser) => inWorker((_c, tm) => tm.bookmarkSync.onAlarm(), undefined, on);
/** The offline queue's waiting writes, by label. */
const waitingWrites = () => inWorker(async (chrome) => ((await chrome.storage.local.get('queue')).queue?.entries ?? []).map((e: { label: string }) => e.label));
const status = () => inWorker(async (chrome) => (await chrome.storage.local.get('bookmarkSyncStatus')).bookmarkSyncStatus);

test('turned on in the options: a first sync merges the folder and the account by address and deletes nothing', async () => {
  // Already on the server: one bookmark also in the browser folder (same address), one only there.
  await server.api('POST', '/bookmark', token, { link: 'https://both.example/', title: 'Both (server title)' });
  await server.api('POST', '/bookmark', token, { link: 'https://server-only.example/', title: 'Server only' });
  // The browser folder the user picks, with a bookmark of the same address and one only there.
  const picked = await inWorker(async (chrome) => {
    const folder = await chrome.bookmarks.create({ parentId: '1', title: 'Synced here' });
    await chrome.bookmarks.create({ parentId: folder.id, title: 'Both (browser title)', url: 'https://both.example/' });
    await chrome.bookmarks.create({ parentId: folder.id, title: 'Browser only', url: 'https://browser-only.example/' });
    return folder.id as string;
  });

  const options = await browser.options();
  const section = options.getByRole('region', { name: 'Browser bookmarks' });
  await expect(section.getByLabel('Sync with browser bookmarks')).not.toBeChecked();
  await section.getByLabel('Folder').selectOption(picked);
  await section.getByLabel('Sync with browser bookmarks').check();
  await expect(section.getByRole('status')).toContainText('3 bookmarks in "Synced here"');

  // Same address, two titles: the later one wins on both sides (the browser's bookmark was added after).
  await expect.poll(() => titlesOnServer()).toEqual(['Both (browser title)', 'Browser only', 'Server only']);
  expect(await folderContents()).toEqual([
    'Both (browser title)|https://both.example/',
    'Browser only|https://browser-only.example/',
    'Server only|https://server-only.example/',
  ]);
  await options.screenshot({ path: test.info().outputPath('options-bookmark-sync.png'), fullPage: true });
  await options.close();
});

test('created, renamed, moved and deleted in the browser: the server follows (deleted goes to Trash)', async () => {
  const root = await folderId();
  const made = await inWorker(
    async (chrome, _t, parentId: string) => {
      const folder = await chrome.bookmarks.create({ parentId, title: 'Reading' });
      const b = await chrome.bookmarks.create({ parentId, title: 'Ctrl+D page', url: 'https://created.example/page' });
      return { folder: folder.id as string, bookmark: b.id as string };
    },
    root,
  );
  await expect.poll(() => titlesOnServer()).toContain('Ctrl+D page');
  const collections = async () => (await server.api('GET', '/collections', token)).body.items as { _id: number; title: string }[];
  await expect.poll(async () => (await collections()).map((c) => c.title)).toContain('Reading');

  await inWorker((chrome, _t, id: string) => chrome.bookmarks.update(id, { title: 'Renamed in the browser' }), made.bookmark);
  await expect.poll(() => titlesOnServer()).toContain('Renamed in the browser');

  await inWorker((chrome, _t, m: typeof made) => chrome.bookmarks.move(m.bookmark, { parentId: m.folder }), made);
  const reading = (await collections()).find((c) => c.title === 'Reading')!._id;
  await expect.poll(async () => (await onServer(reading)).map((b) => b.title)).toEqual(['Renamed in the browser']);

  await inWorker((chrome, _t, id: string) => chrome.bookmarks.remove(id), made.bookmark);
  await expect.poll(async () => (await onServer(-99)).map((b) => b.title)).toContain('Renamed in the browser');
  expect(await titlesOnServer()).not.toContain('Renamed in the browser');
});

test('changed on the server: the folder follows after a pull', async () => {
  const created = (await server.api('POST', '/bookmark', token, { link: 'https://from-web.example/', title: 'Saved in the web app' })).body.item as Saved;
  await pull();
  expect(await folderContents()).toContain('Saved in the web app|https://from-web.example/');

  const reading = ((await server.api('GET', '/collections', token)).body.items as { _id: number; title: string }[]).find((c) => c.title === 'Reading')!._id;
  await server.api('PUT', `/bookmark/${created._id}`, token, { collection: { $id: reading }, link: 'https://from-web.example/moved' });
  await pull();
  expect(await folderContents()).toContain('Reading/Saved in the web app|https://from-web.example/moved');

  await server.api('PUT', `/bookmark/${created._id}`, token, { title: 'Renamed in the web app' });
  await pull();
  expect(await folderContents()).toContain('Reading/Renamed in the web app|https://from-web.example/moved');

  await server.api('DELETE', `/bookmark/${created._id}`, token);
  await pull();
  expect((await folderContents()).some((l) => l.includes('from-web.example'))).toBe(false);
});

test('a folder created, renamed, moved and deleted in the browser: the collection follows', async () => {
  const root = await folderId();
  const collections = async () => (await server.api('GET', '/collections', token)).body.items as { _id: number; title: string }[];
  const children = async () => (await server.api('GET', '/collections/childrens', token)).body.items as { _id: number; title: string; parent: { $id: number } }[];
  const temp = await inWorker(
    async (chrome, _t, parentId: string) => {
      const folder = await chrome.bookmarks.create({ parentId, title: 'Temp' });
      await chrome.bookmarks.create({ parentId: folder.id, title: 'In Temp', url: 'https://in-temp.example/' });
      return folder.id as string;
    },
    root,
  );
  await expect.poll(async () => (await collections()).map((c) => c.title)).toContain('Temp');
  await inWorker((chrome, _t, id: string) => chrome.bookmarks.update(id, { title: 'Temporary' }), temp);
  await expect.poll(async () => (await collections()).map((c) => c.title)).toContain('Temporary');

  const reading = await inWorker(async (chrome, _t, parentId: string) => (await chrome.bookmarks.getChildren(parentId)).find((c: any) => c.title === 'Reading').id as string, root);
  await inWorker((chrome, _t, ids: string[]) => chrome.bookmarks.move(ids[0], { parentId: ids[1] }), [temp, reading]);
  await expect.poll(async () => (await children()).find((c) => c.title === 'Temporary')?.parent.$id).toBe((await collections()).find((c) => c.title === 'Reading')!._id);

  await inWorker((chrome, _t, id: string) => chrome.bookmarks.removeTree(id), temp);
  await expect.poll(async () => (await children()).map((c) => c.title)).not.toContain('Temporary');
  expect((await onServer(-99)).map((b) => b.title)).toContain('In Temp');
});

test('deleted in Tidemark but renamed in the browser before the next pull: kept, and the log says so', async () => {
  const root = await folderId();
  const id = await inWorker(async (chrome, _t, parentId: string) => (await chrome.bookmarks.create({ parentId, title: 'Keep me', url: 'https://keep-me.example/' })).id as string, root);
  await expect.poll(() => titlesOnServer()).toContain('Keep me');
  await pull();
  const saved = (await onServer()).find((b) => b.title === 'Keep me')!;
  await server.api('DELETE', `/bookmark/${saved._id}`, token);
  await inWorker((chrome, _t, bid: string) => chrome.bookmarks.update(bid, { title: 'Keep me, renamed' }), id);
  await expect.poll(() => titlesOnServer()).toContain('Keep me, renamed');
  expect(await folderContents()).toContain('Keep me, renamed|https://keep-me.example/');
  expect((await onServer(-99)).map((b) => b.title)).not.toContain('Keep me, renamed');

  const options = await browser.options();
  const log = options.getByRole('region', { name: 'Browser bookmarks' }).getByText(/conflicts? resolved/);
  await log.click();
  await expect(options.getByRole('listitem').filter({ hasText: 'Keep me, renamed' })).toContainText('deleted in Tidemark but changed in the browser: kept the bookmark');
  await options.close();
});

test('nothing changes: no request storm, and the sync\'s own changes never come back', async () => {
  await pull();
  const before = server.requests.length;
  for (let i = 0; i < 10; i++) await pull();
  const made = server.requests.slice(before).map((r) => r.replace(' /rest/v1/', ' /'));
  // One links-feed request per pull, and the collections every fifth time (2 requests).
  expect(made.filter((r) => r === 'GET /links')).toHaveLength(10);
  expect(made.filter((r) => r !== 'GET /links' && !r.startsWith('GET /collections'))).toEqual([]);
  expect(made.length).toBeLessThanOrEqual(14);
});

test('offline: browser changes wait in the queue and arrive once when the server is back', async () => {
  const root = await folderId();
  await server.stop();
  await inWorker(
    async (chrome, _t, parentId: string) => {
      await chrome.bookmarks.create({ parentId, title: 'Made offline', url: 'https://offline.example/1' });
      await chrome.bookmarks.create({ parentId, title: 'Also offline', url: 'https://offline.example/2' });
    },
    root,
  );
  await expect.poll(waitingWrites).toEqual(['Browser bookmark: Made offline', 'Browser bookmark: Also offline']);
  await server.start();
  await browser.fireAlarm('queue-drain');
  await expect.poll(waitingWrites).toEqual([]);
  await pull();
  await pull();
  const offline = (await onServer()).filter((b) => b.link.startsWith('https://offline.example/'));
  expect(offline.map((b) => b.title).sort()).toEqual(['Also offline', 'Made offline']);
  expect(await folderContents()).toEqual(expect.arrayContaining(['Made offline|https://offline.example/1', 'Also offline|https://offline.example/2']));
  expect((await folderContents()).filter((l) => l.includes('offline.example'))).toHaveLength(2);
});

test('the failsafe: a wiped folder stops the sync and asks; "Keep them" puts them back, nothing goes to Trash', async () => {
  const root = await folderId();
  await inWorker(
    async (chrome, _t, parentId: string) => {
      for (let i = 0; i < 8; i++) await chrome.bookmarks.create({ parentId, title: `Many ${i}`, url: `https://many.example/${i}` });
    },
    root,
  );
  await expect.poll(async () => (await onServer()).filter((b) => b.link.startsWith('https://many.example/')).length).toBe(8);
  await expect.poll(waitingWrites).toEqual([]);
  const trashBefore = (await onServer(-99)).length;

  // Everything in the folder is deleted at once (a broken profile, a wiped folder).
  await inWorker(
    async (chrome, _t, id: string) => {
      for (const c of await chrome.bookmarks.getChildren(id)) await chrome.bookmarks.removeTree(c.id);
    },
    root,
  );
  await expect.poll(async () => (await status()).state).toBe('held');
  const options = await browser.options();
  const question = options.getByTestId('bookmark-sync-held');
  await expect(question).toContainText('Sync stopped before deleting');
  await options.screenshot({ path: test.info().outputPath('options-bookmark-sync-held.png'), fullPage: true });
  expect((await onServer(-99)).length).toBe(trashBefore);

  await question.getByRole('button', { name: 'Keep them (put them back)' }).click();
  await expect.poll(async () => (await status()).state).toBe('ok');
  await expect.poll(async () => (await folderContents()).filter((l) => l.includes('many.example')).length).toBe(8);
  expect((await onServer(-99)).length).toBe(trashBefore);
  expect((await onServer()).filter((b) => b.link.startsWith('https://many.example/'))).toHaveLength(8);
  await options.close();
});

test('two browser profiles (two devices) on one account converge', async () => {
  const other = await launchSignedIn(server, token);
  try {
    // Turned on with the defaults: a "Tidemark" folder under "Other bookmarks".
    await inWorker(async (chrome, tm) => {
      await chrome.storage.local.set({ bookmarkSync: { enabled: true, folderId: null, scope: { kind: 'all' } } });
      await tm.bookmarkSync.request({ pull: true, collections: true });
    }, undefined, other);
    const otherFolder = await inWorker(async (chrome) => {
      const { bookmarkSync } = await chrome.storage.local.get('bookmarkSync');
      const [node] = await chrome.bookmarks.get(bookmarkSync.folderId);
      return { title: node.title, parent: node.parentId };
    }, undefined, other);
    expect(otherFolder).toEqual({ title: 'Tidemark', parent: '2' });
    await pull();
    expect(await folderContents(other)).toEqual(await folderContents());

    // Made on the first device, renamed on the second, deleted on the first: both agree each time.
    const root = await folderId();
    const made = await inWorker<{ id: string }, string>((chrome, _t, parentId) => chrome.bookmarks.create({ parentId, title: 'From device one', url: 'https://two-devices.example/' }), root);
    await expect.poll(() => titlesOnServer()).toContain('From device one');
    await pull(other);
    expect(await folderContents(other)).toContain('From device one|https://two-devices.example/');

    await inWorker(async (chrome) => {
      const [hit] = await chrome.bookmarks.search({ url: 'https://two-devices.example/' });
      await chrome.bookmarks.update(hit.id, { title: 'Renamed on device two' });
    }, undefined, other);
    await expect.poll(() => titlesOnServer()).toContain('Renamed on device two');
    await pull();
    expect(await folderContents()).toContain('Renamed on device two|https://two-devices.example/');

    await inWorker((chrome, _t, id: string) => chrome.bookmarks.remove(id), made.id);
    await expect.poll(async () => (await onServer(-99)).map((b) => b.title)).toContain('Renamed on device two');
    await pull(other);
    expect(await folderContents(other)).toEqual(await folderContents());
    expect((await folderContents(other)).some((l) => l.includes('two-devices.example'))).toBe(false);
  } finally {
    await other.close();
  }
});

test('turned off: both sides stay as they are', async () => {
  const before = await folderContents();
  const serverBefore = await titlesOnServer();
  const options = await browser.options();
  await options.getByLabel('Sync with browser bookmarks').uncheck();
  await expect.poll(async () => (await status()).state).toBe('off');
  await server.api('POST', '/bookmark', token, { link: 'https://after-off.example/', title: 'After off' });
  await inWorker((_c, tm) => tm.bookmarkSync.request({ pull: true, collections: true }));
  expect(await folderContents()).toEqual(before);
  expect(await titlesOnServer()).toEqual([...serverBefore, 'After off'].sort());
  await options.close();
});

test('signing in to another account turns the sync off instead of copying one account into the other', async () => {
  await inWorker(async (chrome, tm) => {
    const { bookmarkSync } = await chrome.storage.local.get('bookmarkSync');
    await chrome.storage.local.set({ bookmarkSync: { ...bookmarkSync, enabled: true } });
    await tm.bookmarkSync.request({ pull: true, collections: true });
  });
  await expect.poll(async () => (await status()).state).toBe('ok');
  const other = await server.createUser('second-account@example.test', 'correct horse battery', 'Second Account');

  const options = await browser.options();
  await options.getByRole('button', { name: 'Sign out' }).click();
  await options.close();
  await browser.signInWithTestToken(server.origin, other.token);
  await inWorker((_c, tm) => tm.bookmarkSync.request({ pull: true, collections: true }));

  await expect.poll(async () => (await status()).state).toBe('off');
  expect((await status()).otherAccount).toBe(true);
  const page = await browser.options();
  await expect(page.getByLabel('Sync with browser bookmarks')).not.toBeChecked();
  await expect(page.getByRole('region', { name: 'Browser bookmarks' }).getByRole('alert')).toContainText('signed in to another account');
  expect((await server.api('GET', '/bookmarks/0?perpage=50', other.token)).body.items).toEqual([]);
  await page.close();
});
