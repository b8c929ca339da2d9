// The Firefox build passes Mozilla's add-on linter (`web-ext lint`, the checks addons.mozilla.org runs)
// with no errors, warnings or notices, and its manifest asks for a Firefox that always has the CSS
// Custom Highlight API (so the rangy painting fallback is not shipped there).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import webExt from 'web-ext';
import { FIREFOX_ADDON_ID } from '../../lib/api/extension-identity.js';
import { ensureExtensionBuilt } from '../e2e/helpers/extension-build.js';

test('web-ext lint finds nothing in the Firefox build', async () => {
  const dir = await ensureExtensionBuilt('firefox');
  const result = await webExt.cmd.lint(
    { sourceDir: dir, output: 'none', boring: true, selfHosted: false, warningsAsErrors: false, pretty: false, metadata: false, privileged: false },
    { shouldExitProgram: false },
  );
  const show = (ms: typeof result.errors) => ms.map((m) => `${m.code} ${m.file ?? ''}:${m.line ?? ''} ${m.message}`);
  expect({ errors: show(result.errors), warnings: show(result.warnings), notices: show(result.notices) }).toEqual({ errors: [], warnings: [], notices: [] });
  // The linter can take about a minute on a busy machine, so it gets more than the lane's 60 s.
}, 180_000);

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
