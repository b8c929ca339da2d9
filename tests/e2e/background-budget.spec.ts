// The background service worker's size budget: 30 KB gzipped (gzip -9 of the Chrome build's
// background.js). A service worker cannot load code on demand, so everything it may ever run is in this
// one file, parsed at every wake-up. The build's tricks that keep it there: scripts/vite/.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureExtensionBuilt } from './helpers/extension-build.js';

test('the background service worker stays within its 30 KB gzipped', async () => {
  const dir = await ensureExtensionBuilt('chrome');
  const background = gzipSync(readFileSync(join(dir, 'background.js')), { level: 9 }).length;
  expect(background).toBeLessThanOrEqual(30 * 1024);
});
