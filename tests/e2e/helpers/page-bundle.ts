// Bundles code for injecting into a web page (page.addScriptTag): one IIFE script for Chromium, kept
// in memory. Used by the anchoring tests and the anchoring benchmark.
import { build } from 'esbuild';

/** `entry`: a file, or module source whose imports resolve from `resolveDir`. */
export async function bundleForPage(entry: { file: string } | { source: string; resolveDir: string }): Promise<string> {
  const out = await build({
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.source, resolveDir: entry.resolveDir, loader: 'ts' as const } }),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'error',
  });
  return out.outputFiles[0].text;
}
