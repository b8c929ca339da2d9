// rangy (the fallback painter) must stay out of the injected highlighter: it is its own script,
// entrypoints/highlighter-fallback-painter/index.ts, injected only where the CSS Custom Highlight API is missing.
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
  const highlighter = await bundle('entrypoints/highlighter/index.ts');
  const fallback = await bundle('entrypoints/highlighter-fallback-painter/index.ts');
  // Rangy's class applier registers itself under this name.
  expect(highlighter).not.toContain('createClassApplier');
  expect(highlighter).not.toMatch(/\bimport\(/);
  expect(highlighter).toContain('__tidemarkPart_fallback-painter');
  expect(fallback).toContain('createClassApplier');
  expect(fallback).toContain('__tidemarkPart_fallback-painter');
});

// Painting stored highlights needs neither the editor (toolbar, describing a selection) nor approximate
// anchoring: both are scripts of their own, injected when the highlighter asks for them (parts.ts).
test('the highlighter bundle holds no editor and no approximate matching; their own scripts hold them', async () => {
  const highlighter = await bundle('entrypoints/highlighter/index.ts');
  const editor = await bundle('entrypoints/highlighter-editor/index.ts');
  const approximate = await bundle('entrypoints/highlighter-approximate/index.ts');
  const has = (code: string, name: string) => new RegExp(`\\b${name}\\b`).test(code);
  for (const name of ['Toolbar', 'describeOffsets', 'ApproxPattern', 'fuzzyBySeeds', 'ScopeMarks']) expect(has(highlighter, name), name).toBe(false);
  // Nor the painter's scope marks, needed only where the page has no registered highlight style sheet.
  expect(has(await bundle('entrypoints/highlighter-scope-marks/index.ts'), 'ScopeMarks')).toBe(true);
  expect(has(editor, 'Toolbar') && has(editor, 'describeOffsets')).toBe(true);
  expect(has(approximate, 'ApproxPattern') && has(approximate, 'fuzzyBySeeds')).toBe(true);
  expect(editor).toContain('__tidemarkPart_');
});

// The injected scripts talk to the background through the browser's own runtime (@wxt-dev/browser),
// not the webextension-polyfill behind 'wxt/browser' (about 3 KB gzipped, parsed on every page).
test('the highlighter and its loader carry no webextension-polyfill', async () => {
  for (const entry of ['entrypoints/highlighter/index.ts', 'entrypoints/highlighter-loader/index.ts', 'entrypoints/highlighter-editor/index.ts', 'entrypoints/highlighter-approximate/index.ts', 'entrypoints/highlighter-scope-marks/index.ts']) {
    const code = await bundle(entry);
    expect(code, entry).not.toContain('wxt/browser');
    expect(code, entry).not.toContain('webextension-polyfill');
  }
  const loader = gzipSync(await bundle('entrypoints/highlighter-loader/index.ts', true), { level: 9 }).length;
  expect(loader).toBeLessThan(1536);
});
