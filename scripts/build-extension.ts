// Builds the extension for Chrome and Firefox (production, MV3) with WXT's programmatic API.
// Used by `npm start` and the end-to-end tests; `npm run build` does the same from the CLI.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'wxt';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BuiltExtension {
  /** The unpacked Chrome extension (load it at chrome://extensions with "Load unpacked"). */
  chromeDir: string;
  /** The Firefox build (about:debugging -> This Firefox -> Load Temporary Add-on -> its manifest.json). */
  firefoxDir: string;
}

export async function buildExtension(opts: { outDir?: string; quiet?: boolean; browsers?: ('chrome' | 'firefox')[] } = {}): Promise<BuiltExtension> {
  const outDir = path.resolve(ROOT, opts.outDir ?? '.output');
  const quietLogger = { debug() {}, log() {}, info() {}, warn: console.warn, error: console.error, fatal: console.error, success() {}, level: 0 };
  for (const browser of opts.browsers ?? (['chrome', 'firefox'] as const)) {
    await build({
      root: ROOT,
      browser,
      manifestVersion: 3,
      mode: 'production',
      outDir,
      ...(opts.quiet ? { logger: quietLogger as never } : {}),
    });
  }
  return { chromeDir: path.join(outDir, 'chrome-mv3'), firefoxDir: path.join(outDir, 'firefox-mv3') };
}

// `npx tsx scripts/build-extension.ts` builds and prints where the builds are.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildExtension().then(
    (out) => process.stdout.write(`Chrome: ${out.chromeDir}\nFirefox: ${out.firefoxDir}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
