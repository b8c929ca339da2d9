// The Firefox build's manifest asks for a Firefox that always has the CSS Custom Highlight API (so the
// rangy painting fallback is not shipped there). Mozilla's linter runs on the package itself, in
// `npm run zip` (scripts/check-packages.ts), not on this build.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { FIREFOX_ADDON_ID } from '../../lib/api/extension-identity.js';
import { ensureExtensionBuilt } from '../e2e/helpers/extension-build.js';

test('the Firefox manifest pins the add-on id and asks for Firefox 140 or newer; no rangy in the bundles', async () => {
  const dir = await ensureExtensionBuilt('firefox');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const gecko = manifest.browser_specific_settings.gecko;
  expect(gecko.id).toBe(FIREFOX_ADDON_ID);
  expect(Number.parseFloat(gecko.strict_min_version)).toBeGreaterThanOrEqual(140);
  expect(gecko.data_collection_permissions.required.length).toBeGreaterThan(0);
  expect(manifest.background).toEqual({ scripts: ['background.js'] }); // an event page: Firefox has no extension service workers
  const scripts = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.js'));
  for (const f of scripts) expect(fs.readFileSync(path.join(dir, f), 'utf8'), f).not.toMatch(/rangy/i);
});
