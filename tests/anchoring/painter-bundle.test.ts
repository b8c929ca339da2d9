// The rangy fallback painter must stay out of the default bundle: it is loaded through a dynamic
// import only where the CSS Custom Highlight API is missing.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('bundling the painter puts rangy in a separate chunk loaded on demand', async () => {
  const out = await build({
    entryPoints: [join(REPO, 'lib/painting/index.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: '/virtual-out',
    write: false,
    logLevel: 'error',
  });
  const files = out.outputFiles.map((f) => ({ name: f.path.split('/').pop()!, text: f.text }));
  const entry = files.find((f) => f.name === 'index.js');
  expect(entry).toBeDefined();
  // Rangy's class applier registers itself under this name; the entry must not contain it.
  expect(entry!.text).not.toContain('createClassApplier');
  expect(entry!.text).toMatch(/import\(["']\.\/class-applier-painter[^"']*\.js["']\)/);
  const lazy = files.filter((f) => f.text.includes('createClassApplier'));
  expect(lazy.length).toBeGreaterThan(0);
  expect(entry!.text.length).toBeLessThan(30_000);
});
