// rangy (the fallback painter) must stay out of the injected highlighter: it is its own script,
// entrypoints/highlighter-fallback-painter.ts, injected only where the CSS Custom Highlight API is missing.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function bundle(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [join(REPO, entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'error',
    external: ['wxt/*'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
  });
  return out.outputFiles[0].text;
}

test('the highlighter bundle holds no rangy and no dynamic import; the fallback painter script holds it', async () => {
  const highlighter = await bundle('entrypoints/highlighter.ts');
  const fallback = await bundle('entrypoints/highlighter-fallback-painter.ts');
  // Rangy's class applier registers itself under this name.
  expect(highlighter).not.toContain('createClassApplier');
  expect(highlighter).not.toMatch(/\bimport\(/);
  expect(highlighter).toContain('__tidemarkFallbackPainter');
  expect(fallback).toContain('createClassApplier');
  expect(fallback).toContain('__tidemarkFallbackPainter');
});
