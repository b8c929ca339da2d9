// npm's postinstall: `wxt prepare` writes the extension's generated types (.wxt/). WXT is a
// development dependency, so an install for running the server only (`npm ci --omit=dev`, see
// docs/operations.md) has no WXT and nothing to prepare: that install skips the step.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

// WXT's package exports do not include its bin script, so it is found by path.
const wxt = path.join(import.meta.dirname, '..', 'node_modules', 'wxt', 'bin', 'wxt.mjs');
if (!existsSync(wxt)) {
  process.stdout.write('postinstall: WXT is not installed (production install), skipping `wxt prepare`.\n');
  process.exit(0);
}
const res = spawnSync(process.execPath, [wxt, 'prepare'], { stdio: 'inherit' });
process.exit(res.status ?? 1);
