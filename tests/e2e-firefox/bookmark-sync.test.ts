// The browser-bookmarks sync in Firefox: turned on with the defaults it makes a "Tidemark" folder in
// Other bookmarks; a bookmark created there reaches the server, and deleting it moves it to Trash.
// Driven through Firefox's own `bookmarks` API from an extension page: the events a person causes.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { waitFor, type FirefoxExtension } from './helpers/firefox-extension.js';
import { closeAll, launchSignedIn, startBackend } from './helpers/setup.js';
import type { TestSite } from '../e2e/helpers/test-pages.js';
import type { TidemarkServer } from '../e2e/helpers/tidemark-server.js';
import type { Bookmark } from '../../lib/api/types.js';

let server: TidemarkServer;
let site: TestSite;
let token: string;
let ff: FirefoxExtension;

beforeAll(async () => {
  ({ server, site, token } = await startBackend({ email: 'bookmarks-fox@example.test', name: 'Bea Fox' }));
  ff = await launchSignedIn(server, token);
});

afterAll(() => closeAll(ff, site, server));

const inCollection = async (collectionId: number) => (await server.api('GET', `/bookmarks/${collectionId}?perpage=50`, token)).body.items as Bookmark[];

test('a bookmark created in the synced folder reaches the server; deleted, it goes to Trash', async () => {
  await server.api('POST', '/bookmark', token, { link: 'https://already-saved.example/', title: 'Already in Tidemark' });
  await ff.inExtension((ext) => ext.storage.local.set({ bookmarkSync: { enabled: true, folderId: null, scope: { kind: 'all' } } }));
  await ff.inBackground((t) => t.bookmarkSync.request({ pull: true, collections: true }));

  const folder = await ff.inExtension(async (ext) => {
    const { bookmarkSync } = (await ext.storage.local.get('bookmarkSync')) as { bookmarkSync: { folderId: string } };
    const [node] = await ext.bookmarks.get(bookmarkSync.folderId);
    const children = await ext.bookmarks.getChildren(node.id);
    return { id: node.id, title: node.title, parentId: node.parentId, children: children.map((c) => c.title) };
  });
  expect(folder).toMatchObject({ title: 'Tidemark', parentId: 'unfiled_____', children: ['Already in Tidemark'] });

  const created = await ff.inExtension(
    (ext, parentId) => ext.bookmarks.create({ parentId, title: 'Starred in Firefox', url: 'https://starred-in-firefox.example/' }),
    folder.id,
  );
  await waitFor('the bookmark on the server', async () => ((await inCollection(0)).some((b) => b.title === 'Starred in Firefox') ? true : undefined), 15_000);

  await ff.inExtension((ext, id) => ext.bookmarks.remove(id), created.id);
  await waitFor('the bookmark in Trash', async () => ((await inCollection(-99)).some((b) => b.title === 'Starred in Firefox') ? true : undefined), 15_000);
  expect((await inCollection(0)).map((b) => b.title)).toEqual(['Already in Tidemark']);
});
