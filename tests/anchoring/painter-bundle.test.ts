// rangy (the fallback painter) must stay out of the injected highlighter: it is its own script,
// entrypoints/highlighter-fallback-painter.ts, injected only where the CSS Custom Highlight API is missing.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function bundle(entry: string, minify = false): Promise<string> {
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
    minify,
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

// The injected scripts talk to the background through the browser's own runtime (@wxt-dev/browser),
// not the webextension-polyfill behind 'wxt/browser' (about 3 KB gzipped, parsed on every page).
test('the highlighter and its loader carry no webextension-polyfill', async () => {
  for (const entry of ['entrypoints/highlighter.ts', 'entrypoints/highlighter-loader.ts']) {
    const code = await bundle(entry);
    expect(code, entry).not.toContain('wxt/browser');
    expect(code, entry).not.toContain('webextension-polyfill');
  }
  const loader = gzipSync(await bundle('entrypoints/highlighter-loader.ts', true), { level: 9 }).length;
  expect(loader).toBeLessThan(1536);
});
