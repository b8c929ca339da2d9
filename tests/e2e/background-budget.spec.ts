// The background service worker's size target: 37 KB gzipped (gzip -9 of the Chrome build's
// background.js). A service worker cannot load code on demand, so everything it may ever run is in this
// one file, parsed at every wake-up. About 30 KB of it is saving, highlighting and the library; the
// browser-bookmarks sync (lib/background/bookmark-sync, lib/bookmark-sync) takes about 6.8 KB: its
// listeners must be registered when the worker starts, so it cannot live in a page.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureExtensionBuilt } from './helpers/extension-build.js';

test('the background service worker stays within its 37 KB gzipped', async () => {
  const dir = await ensureExtensionBuilt('chrome');
  const background = gzipSync(readFileSync(join(dir, 'background.js')), { level: 9 }).length;
  expect(background).toBeLessThanOrEqual(37 * 1024);
});
