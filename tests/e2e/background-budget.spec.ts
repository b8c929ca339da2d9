// The background service worker's size budget: 38 KB gzipped (gzip -9 of the Chrome build's
// background.js). A service worker cannot load code on demand, so everything it may ever run is in this
// one file, parsed at every wake-up. 30 KB held everything but the bookmark sync, whose listeners must
// exist when the worker starts; bench/extension/worker-wake.ts measures what a wake-up costs.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureExtensionBuilt } from './helpers/extension-build.js';

test('the background service worker stays within its 38 KB gzipped', async () => {
  const dir = await ensureExtensionBuilt('chrome');
  const background = gzipSync(readFileSync(join(dir, 'background.js')), { level: 9 }).length;
  expect(background).toBeLessThanOrEqual(38 * 1024);
});
