// Builds the web app (vite.web.config.ts) into dist/web, where the server serves it (ServerConfig.webAppDir).
// Used by `npm start` and the web app's end-to-end tests; `npm run build:web` does the same from the CLI.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds the web app; the directory it was written to. */
export async function buildWeb(opts: { outDir?: string; quiet?: boolean } = {}): Promise<string> {
  const outDir = path.resolve(ROOT, opts.outDir ?? 'dist/web');
  await build({ configFile: path.join(ROOT, 'vite.web.config.ts'), logLevel: opts.quiet ? 'warn' : 'info', build: { outDir } });
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildWeb().then(
    (dir) => process.stdout.write(`Web app: ${dir}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
